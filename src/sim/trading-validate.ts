/**
 * Static validation of a NewOrder: everything that can be decided from the request and the market definition
 * alone, before looking at balances or the book. The checks follow the seed's timeInForce table and error table:
 *
 * | Refusal | Status | Code |
 * |---|---|---|
 * | field missing, unknown enum value, amount not a positive decimal with ≤ 8 decimals, clientOrderId not a uuid | 400 | ORDER_TYPE_INVALID ("malformed order creation request") |
 * | timeInForce BUY_NOW / INSTANT (no order type allows them) | 400 | INVALID_ORDER_TYPE |
 * | MARKET or CEILING_MARKET with GOOD_TIL_CANCELLED / POST_ONLY_GOOD_TIL_CANCELLED | 400 | INVALID_MARKET_ORDER |
 * | CEILING_LIMIT with GOOD_TIL_CANCELLED / POST_ONLY_GOOD_TIL_CANCELLED | 400 | INVALID_ORDER_TYPE |
 * | limit on a market order, quantity on a ceiling order, ceiling on a non-ceiling order | 400 | INVALID_ORDER_TYPE |
 * | unknown market / reversed symbol | 404 / 400 | MARKET_DOES_NOT_EXIST / MARKET_NAME_REVERSED |
 * | limit with more decimals than the market's precision | 400 | RATE_PRECISION_NOT_ALLOWED |
 */
import { type Decimal, isDecimal } from '../core/decimal.js';
import { ORDER_DIRECTIONS, ORDER_TYPES, TIME_IN_FORCES, type OrderDirection, type OrderType, type TimeInForce } from '../model/enums.js';
import type { NewOrder } from '../model/order.js';
import type { Catalog } from './catalog.js';
import type { MarketConfig } from './config.js';
import { badRequest } from './sim-error.js';

/** A NewOrder that passed static validation, with its market. */
export interface ValidOrder {
  market: MarketConfig;
  direction: OrderDirection;
  type: OrderType;
  timeInForce: TimeInForce;
  quantity: Decimal | undefined;
  ceiling: Decimal | undefined;
  limit: Decimal | undefined;
  clientOrderId: string | undefined;
  useAwards: boolean;
  /** GOOD_TIL_CANCELLED or POST_ONLY_GOOD_TIL_CANCELLED: the remainder rests on the book. */
  rests: boolean;
  postOnly: boolean;
  fillOrKill: boolean;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RESTING_TIFS: readonly TimeInForce[] = ['GOOD_TIL_CANCELLED', 'POST_ONLY_GOOD_TIL_CANCELLED'];
const AMOUNT_FIELDS = ['quantity', 'ceiling', 'limit'] as const;

/** Validate `n` statically; throws the first refusal as a SimError (see the module table). */
export function validateNewOrder(n: NewOrder, catalog: Catalog, opts: { ratePrecision?: boolean } = {}): ValidOrder {
  const raw = n as unknown as Record<string, unknown>;
  if (typeof raw.marketSymbol !== 'string' || raw.marketSymbol === '') throw malformed('marketSymbol is required');
  if (!isOneOf(raw.direction, ORDER_DIRECTIONS)) throw malformed('direction must be BUY or SELL');
  if (!isOneOf(raw.type, ORDER_TYPES)) throw malformed(`type must be one of ${ORDER_TYPES.join(', ')}`);
  if (!isOneOf(raw.timeInForce, TIME_IN_FORCES)) throw malformed(`timeInForce must be one of ${TIME_IN_FORCES.join(', ')}`);
  const { direction, type, timeInForce } = n;
  const ceilingType = type === 'CEILING_LIMIT' || type === 'CEILING_MARKET';
  const marketType = type === 'MARKET' || type === 'CEILING_MARKET';

  if (timeInForce === 'BUY_NOW' || timeInForce === 'INSTANT') {
    throw badRequest('INVALID_ORDER_TYPE', `timeInForce ${timeInForce} is not allowed for any order type`);
  }
  if (type !== 'LIMIT' && RESTING_TIFS.includes(timeInForce)) {
    throw marketType
      ? badRequest('INVALID_MARKET_ORDER', `${type} orders cannot be ${timeInForce}`)
      : badRequest('INVALID_ORDER_TYPE', `${type} orders cannot be ${timeInForce}`);
  }
  if (marketType && n.limit !== undefined) throw badRequest('INVALID_ORDER_TYPE', `${type} orders take no limit`);
  if (ceilingType && n.quantity !== undefined) throw badRequest('INVALID_ORDER_TYPE', `${type} orders take a ceiling, not a quantity`);
  if (!ceilingType && n.ceiling !== undefined) throw badRequest('INVALID_ORDER_TYPE', `${type} orders take a quantity, not a ceiling`);
  if (!marketType && n.limit === undefined) throw malformed(`${type} orders need a limit`);
  if (ceilingType && n.ceiling === undefined) throw malformed(`${type} orders need a ceiling`);
  if (!ceilingType && n.quantity === undefined) throw malformed(`${type} orders need a quantity`);
  for (const field of AMOUNT_FIELDS) {
    const v = n[field];
    // isZero/isNegative rather than lte(0): a comparison with a number literal builds a Decimal on every order.
    if (v !== undefined && (!isDecimal(v) || !v.isFinite() || v.isZero() || v.isNegative() || v.decimalPlaces() > 8)) {
      throw malformed(`${field} must be a positive decimal with at most 8 decimals`);
    }
  }
  if (n.clientOrderId !== undefined && (typeof n.clientOrderId !== 'string' || !UUID_RE.test(n.clientOrderId))) {
    throw malformed('clientOrderId must be a uuid');
  }
  if (n.useAwards !== undefined && typeof n.useAwards !== 'boolean') throw malformed('useAwards must be a boolean');

  const market = catalog.market(n.marketSymbol);
  // A backtest's recorded liquidity skips this (opts.ratePrecision false): the recording's rates are what they were.
  if (opts.ratePrecision !== false && n.limit !== undefined && n.limit.decimalPlaces() > market.precision) {
    throw badRequest('RATE_PRECISION_NOT_ALLOWED', `${market.symbol} allows ${market.precision} decimals in a rate`);
  }
  return {
    market,
    direction,
    type,
    timeInForce,
    quantity: n.quantity,
    ceiling: n.ceiling,
    limit: n.limit,
    clientOrderId: n.clientOrderId,
    useAwards: n.useAwards === true,
    rests: RESTING_TIFS.includes(timeInForce),
    postOnly: timeInForce === 'POST_ONLY_GOOD_TIL_CANCELLED',
    fillOrKill: timeInForce === 'FILL_OR_KILL',
  };
}

function isOneOf<T extends string>(v: unknown, values: readonly T[]): v is T {
  return typeof v === 'string' && (values as readonly string[]).includes(v);
}

function malformed(detail: string) {
  return badRequest('ORDER_TYPE_INVALID', detail);
}
