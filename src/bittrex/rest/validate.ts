/**
 * Checks run before a request is sent. Each rule is one the service states (seed sections 2, 4 and 8); breaking
 * it would only earn a 400 after a round trip and a slice of the per-minute call budget, so the client refuses
 * the call locally with a {@link ValidationError} naming the field and the endpoint.
 */
import { isDecimal } from '../../core/decimal.js';
import { ValidationError } from '../../core/errors.js';
import type { NewConditionalOrder } from '../../model/conditional-order.js';
import {
  CANDLE_INTERVALS,
  CANDLE_TYPES,
  CONDITIONAL_OPERANDS,
  ORDER_BOOK_DEPTHS,
  ORDER_DIRECTIONS,
  ORDER_TO_CANCEL_TYPES,
  ORDER_TYPES,
  TIME_IN_FORCES,
  type CandleInterval,
} from '../../model/enums.js';
import type { BatchOperation, NewOrder } from '../../model/order.js';
import type { NewTransfer } from '../../model/subaccount.js';
import type { NewWithdrawal } from '../../model/wallet.js';

/** Pagination parameters of list endpoints (seed section 2). */
export interface PageFilter {
  /** 1 to 200; the service's default is 100. */
  pageSize?: number | undefined;
  /** Id of the last item of the current page: the page starts after it. */
  nextPageToken?: string | undefined;
  /** Id of the first item of the current page: the page ends before it. */
  previousPageToken?: string | undefined;
  /** Excludes earlier results (second precision on the service). */
  startDate?: Date | undefined;
  /** Excludes later results; must not be before startDate. */
  endDate?: Date | undefined;
}

/** Date parts of a historical candle request: DAY_1 needs year; HOUR_1 year+month; MINUTE_* all three. */
export interface CandleDate {
  year: number;
  month?: number | undefined;
  day?: number | undefined;
}

function fail(field: string, problem: string, where: string): never {
  throw new ValidationError(field, `${problem} (${where})`);
}

function show(v: unknown): string {
  if (isDecimal(v)) return v.toString();
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString();
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s;
}

/** A required non-empty string (symbols, ids). */
export function requireText(field: string, value: unknown, where: string): string {
  if (typeof value !== 'string' || value.length === 0) fail(field, `must be a non-empty string, got ${show(value)}`, where);
  return value;
}

/** An optional non-empty string. */
export function optionalText(field: string, value: unknown, where: string): void {
  if (value !== undefined) requireText(field, value, where);
}

/** A required path parameter, returned percent-encoded for the URL. */
export function segment(field: string, value: unknown, where: string): string {
  return encodeURIComponent(requireText(field, value, where));
}

/** One of a fixed list of values (undefined allowed when `optional`). */
export function requireOneOf<T extends string | number>(
  field: string,
  value: unknown,
  allowed: readonly T[],
  where: string,
  optional = false,
): void {
  if (value === undefined && optional) return;
  if (!(allowed as readonly unknown[]).includes(value)) {
    fail(field, `must be one of ${allowed.join(', ')}, got ${show(value)}`, where);
  }
}

/** An optional boolean. */
export function optionalBoolean(field: string, value: unknown, where: string): void {
  if (value !== undefined && typeof value !== 'boolean') fail(field, `must be a boolean, got ${show(value)}`, where);
}

/** A strictly positive exact decimal (never a JS number: money does not travel as a float). */
export function requirePositive(field: string, value: unknown, where: string): void {
  if (!isDecimal(value)) fail(field, `must be a Decimal (use dec('...')), got ${show(value)}`, where);
  if (!isPositiveDecimal(value)) fail(field, `must be positive, got ${show(value)}`, where);
}

/**
 * A finite Decimal above zero: `d.isFinite() && d.gt(0)` without the Decimal that `gt(0)` makes of its operand
 * (a finite value is above zero exactly when it is neither zero, of either sign, nor negative).
 */
function isPositiveDecimal(value: unknown): boolean {
  return isDecimal(value) && value.isFinite() && !value.isZero() && !value.isNegative();
}

function optionalDate(field: string, value: unknown, where: string): void {
  if (value === undefined) return;
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) fail(field, `must be a valid Date, got ${show(value)}`, where);
}

/** Page size, tokens and date range rules. */
export function validatePageFilter(filter: PageFilter, where: string): void {
  const { pageSize, nextPageToken, previousPageToken, startDate, endDate } = filter;
  if (pageSize !== undefined && (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 200)) {
    fail('pageSize', `must be an integer from 1 to 200, got ${show(pageSize)}`, where);
  }
  optionalText('nextPageToken', nextPageToken, where);
  optionalText('previousPageToken', previousPageToken, where);
  if (nextPageToken !== undefined && previousPageToken !== undefined) {
    fail('previousPageToken', 'cannot be combined with nextPageToken', where);
  }
  optionalDate('startDate', startDate, where);
  optionalDate('endDate', endDate, where);
  if (startDate && endDate && endDate.getTime() < startDate.getTime()) {
    fail('endDate', `must not be before startDate (${show(endDate)} < ${show(startDate)})`, where);
  }
}

/** Order book depth: 1, 25 or 500 (undefined lets the service use 25). */
export function validateDepth(depth: unknown, where: string): void {
  requireOneOf('depth', depth, ORDER_BOOK_DEPTHS, where, true);
}

/** Candle interval and optional candle type (TRADE when left out). */
export function validateCandleKind(interval: unknown, type: unknown, where: string): void {
  requireOneOf('candleInterval', interval, CANDLE_INTERVALS, where);
  requireOneOf('candleType', type, CANDLE_TYPES, where, true);
}

const DATE_PARTS_NEEDED: Record<CandleInterval, readonly ('year' | 'month' | 'day')[]> = {
  DAY_1: ['year'],
  HOUR_1: ['year', 'month'],
  MINUTE_5: ['year', 'month', 'day'],
  MINUTE_1: ['year', 'month', 'day'],
};

/** The historical candle date must carry exactly the parts its interval needs, and name a real day. */
export function validateCandleDate(interval: CandleInterval, date: CandleDate, where: string): void {
  if (typeof date !== 'object' || date === null) fail('date', `must be { year, month?, day? }, got ${show(date)}`, where);
  const needed = DATE_PARTS_NEEDED[interval];
  const ranges = { year: [1, 9999], month: [1, 12], day: [1, 31] } as const;
  for (const part of ['year', 'month', 'day'] as const) {
    const v = date[part];
    if (needed.includes(part)) {
      const [lo, hi] = ranges[part];
      if (!Number.isInteger(v) || (v as number) < lo || (v as number) > hi) {
        fail(`date.${part}`, `must be an integer from ${lo} to ${hi} for ${interval} candles, got ${show(v)}`, where);
      }
    } else if (v !== undefined) {
      fail(`date.${part}`, `is not part of the path for ${interval} candles; leave it out`, where);
    }
  }
  if (date.day !== undefined) {
    const d = new Date(Date.UTC(date.year, date.month! - 1, date.day));
    if (d.getUTCMonth() !== date.month! - 1) fail('date.day', `${date.year}-${date.month}-${date.day} is not a calendar day`, where);
  }
}

/** NewOrder rules from the seed's NewOrder table and timeInForce table. */
export function validateNewOrder(order: NewOrder, where: string, field = 'newOrder'): void {
  // Every order placed goes through here: each rule is first tested on its own, and the field's name
  // (`newOrder.quantity`) is built, and the rule's helper asked for its message, only when it fails.
  if (typeof order !== 'object' || order === null) fail(field, `must be an object, got ${show(order)}`, where);
  const { marketSymbol, direction, type, timeInForce: tif } = order;
  if (typeof marketSymbol !== 'string' || marketSymbol.length === 0) requireText(`${field}.marketSymbol`, marketSymbol, where);
  if (!ORDER_DIRECTIONS.includes(direction)) requireOneOf(`${field}.direction`, direction, ORDER_DIRECTIONS, where);
  if (!ORDER_TYPES.includes(type)) requireOneOf(`${field}.type`, type, ORDER_TYPES, where);
  if (!TIME_IN_FORCES.includes(tif)) requireOneOf(`${field}.timeInForce`, tif, TIME_IN_FORCES, where);
  if (tif === 'BUY_NOW' || tif === 'INSTANT') {
    fail(`${field}.timeInForce`, `${tif} is not allowed for any order type`, where);
  }
  if ((tif === 'GOOD_TIL_CANCELLED' || tif === 'POST_ONLY_GOOD_TIL_CANCELLED') && type !== 'LIMIT') {
    fail(`${field}.timeInForce`, `${tif} is only allowed for LIMIT orders, not ${type}`, where);
  }
  const ceilingType = type === 'CEILING_LIMIT' || type === 'CEILING_MARKET';
  const needed = ceilingType ? 'ceiling' : 'quantity';
  const excluded = ceilingType ? 'quantity' : 'ceiling';
  const amount = order[needed];
  if (amount === undefined) fail(`${field}.${needed}`, `is required for ${type} orders`, where);
  if (order[excluded] !== undefined) fail(`${field}.${excluded}`, `must be left out of ${type} orders`, where);
  if (!isPositiveDecimal(amount)) requirePositive(`${field}.${needed}`, amount, where);
  const limitType = type === 'LIMIT' || type === 'CEILING_LIMIT';
  if (limitType) {
    if (order.limit === undefined) fail(`${field}.limit`, `is required for ${type} orders`, where);
    if (!isPositiveDecimal(order.limit)) requirePositive(`${field}.limit`, order.limit, where);
  } else if (order.limit !== undefined) {
    fail(`${field}.limit`, `must be left out of ${type} orders`, where);
  }
  const { clientOrderId, useAwards } = order;
  if (clientOrderId !== undefined && (typeof clientOrderId !== 'string' || clientOrderId.length === 0)) {
    requireText(`${field}.clientOrderId`, clientOrderId, where);
  }
  if (useAwards !== undefined && typeof useAwards !== 'boolean') optionalBoolean(`${field}.useAwards`, useAwards, where);
}

/** NewConditionalOrder rules (seed: conditional order rules and NewConditionalOrder table). */
export function validateNewConditionalOrder(order: NewConditionalOrder, where: string, field = 'newConditionalOrder'): void {
  if (typeof order !== 'object' || order === null) fail(field, `must be an object, got ${show(order)}`, where);
  requireText(`${field}.marketSymbol`, order.marketSymbol, where);
  requireOneOf(`${field}.operand`, order.operand, CONDITIONAL_OPERANDS, where);
  const hasTrigger = order.triggerPrice !== undefined;
  const hasTrailing = order.trailingStopPercent !== undefined;
  if (hasTrigger === hasTrailing) {
    fail(`${field}.triggerPrice`, hasTrigger
      ? 'cannot be combined with trailingStopPercent; give exactly one'
      : 'or trailingStopPercent is required; give exactly one', where);
  }
  if (hasTrigger) requirePositive(`${field}.triggerPrice`, order.triggerPrice, where);
  if (hasTrailing) requirePositive(`${field}.trailingStopPercent`, order.trailingStopPercent, where);
  const inner = order.orderToCreate;
  if (inner !== undefined) {
    const f = `${field}.orderToCreate`;
    validateNewOrder(inner, where, f);
    if (inner.timeInForce === 'POST_ONLY_GOOD_TIL_CANCELLED') {
      fail(`${f}.timeInForce`, 'post-only orders are not supported inside a conditional order', where);
    }
    if (inner.clientOrderId !== undefined) {
      fail(`${f}.clientOrderId`, 'is not supported inside a conditional order; use clientConditionalOrderId', where);
    }
    if (inner.useAwards !== undefined) fail(`${f}.useAwards`, 'is not supported inside a conditional order', where);
  }
  if (order.orderToCancel !== undefined) {
    requireOneOf(`${field}.orderToCancel.type`, order.orderToCancel?.type, ORDER_TO_CANCEL_TYPES, where);
    requireText(`${field}.orderToCancel.id`, order.orderToCancel.id, where);
  }
  optionalText(`${field}.clientConditionalOrderId`, order.clientConditionalOrderId, where);
}

/** A batch: a non-empty list of order placements (valid NewOrders) and cancellations (an id each). */
export function validateBatch(operations: readonly BatchOperation[], where: string): void {
  if (!Array.isArray(operations) || operations.length === 0) {
    fail('operations', `must be a non-empty array, got ${show(operations)}`, where);
  }
  operations.forEach((op, i) => {
    const f = `operations[${i}]`;
    if (typeof op !== 'object' || op === null) fail(f, `must be an object, got ${show(op)}`, where);
    if (op.resource !== 'ORDER') fail(`${f}.resource`, `must be ORDER, got ${show(op.resource)}`, where);
    if (op.operation === 'POST') validateNewOrder(op.payload, where, `${f}.payload`);
    else if (op.operation === 'DELETE') requireText(`${f}.payload.id`, op.payload?.id, where);
    else fail(`${f}.operation`, `must be POST or DELETE, got ${show((op as { operation?: unknown }).operation)}`, where);
  });
}

/** NewWithdrawal: currency, positive quantity, and an address or a funds transfer method to send to. */
export function validateNewWithdrawal(w: NewWithdrawal, where: string, field = 'newWithdrawal'): void {
  if (typeof w !== 'object' || w === null) fail(field, `must be an object, got ${show(w)}`, where);
  requireText(`${field}.currencySymbol`, w.currencySymbol, where);
  requirePositive(`${field}.quantity`, w.quantity, where);
  optionalText(`${field}.cryptoAddress`, w.cryptoAddress, where);
  optionalText(`${field}.cryptoAddressTag`, w.cryptoAddressTag, where);
  optionalText(`${field}.fundsTransferMethodId`, w.fundsTransferMethodId, where);
  optionalText(`${field}.clientWithdrawalId`, w.clientWithdrawalId, where);
  if (w.cryptoAddress === undefined && w.fundsTransferMethodId === undefined) {
    fail(`${field}.cryptoAddress`, 'is required (or fundsTransferMethodId for a bank withdrawal)', where);
  }
}

/** NewTransfer: currency, positive amount, and exactly one destination (a sub-account or the master account). */
export function validateNewTransfer(t: NewTransfer, where: string, field = 'newTransfer'): void {
  if (typeof t !== 'object' || t === null) fail(field, `must be an object, got ${show(t)}`, where);
  requireText(`${field}.currencySymbol`, t.currencySymbol, where);
  requirePositive(`${field}.amount`, t.amount, where);
  optionalText(`${field}.toSubaccountId`, t.toSubaccountId, where);
  optionalBoolean(`${field}.toMasterAccount`, t.toMasterAccount, where);
  optionalText(`${field}.requestId`, t.requestId, where);
  if ((t.toSubaccountId !== undefined) === (t.toMasterAccount === true)) {
    fail(`${field}.toSubaccountId`, 'give exactly one destination: toSubaccountId or toMasterAccount: true', where);
  }
}
