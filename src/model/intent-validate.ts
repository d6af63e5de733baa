/**
 * Checking an intent at the strategy boundary, before planning and risk (issue 9 item 4). TypeScript strategies
 * cannot emit `direction: 'BYU'`, but a plain JavaScript plugin has no compiler to stop it, and such an intent
 * used to travel down to the REST client, fail there, be taken for an ambiguous request, retried and declared
 * LOST. Here every field an intent kind has is checked for its type and range, and the first problem is named by
 * its path (`order.direction`), so the order manager can deny the intent with INVALID_INTENT.
 *
 * Only shape is checked: market rules (precision, minimum size, dust) stay with the risk engine, which knows the
 * market, and order-type combinations (a LIMIT without a limit) with the planner and the exchange.
 */
import { isDecimal, ZERO } from '../core/decimal.js';
import { ORDER_DIRECTIONS, ORDER_TYPES, TIME_IN_FORCES } from './enums.js';
import type { Intent } from './intent.js';

/** The first problem found in an intent: the field's path within the intent, and what is wrong with it. */
export interface IntentProblem {
  field: string;
  problem: string;
}

const KINDS = ['place', 'cancel', 'cancelAll', 'quotes', 'bracket', 'trailingStop', 'targetPosition'] as const;

class Invalid {
  constructor(readonly field: string, readonly problem: string) {}
}

function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 37)}...` : v);
  if (isDecimal(v)) return v.toString();
  if (v === null || v === undefined || typeof v !== 'object') return String(v);
  return Array.isArray(v) ? 'an array' : 'an object';
}

type Rec = Record<string, unknown>;

function record(v: unknown, field: string): Rec {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Invalid(field, `must be an object, got ${show(v)}`);
  return v as Rec;
}

function text(o: Rec, k: string, at: string, optional = false): void {
  const v = o[k];
  if (v === undefined && optional) return;
  if (typeof v !== 'string' || v === '') throw new Invalid(`${at}${k}`, `must be a non-empty string, got ${show(v)}`);
}

function oneOf(o: Rec, k: string, at: string, values: readonly string[]): void {
  const v = o[k];
  if (typeof v !== 'string' || !values.includes(v)) throw new Invalid(`${at}${k}`, `must be one of ${values.join('|')}, got ${show(v)}`);
}

function decimal(o: Rec, k: string, at: string, opts: { optional?: boolean; sign?: 'positive' | 'nonNegative' | 'any' } = {}): void {
  const v = o[k];
  if (v === undefined && opts.optional) return;
  if (!isDecimal(v) || !v.isFinite()) throw new Invalid(`${at}${k}`, `must be a finite Decimal (dec('…')), got ${show(v)}`);
  const sign = opts.sign ?? 'positive';
  if (sign === 'positive' && !v.gt(ZERO)) throw new Invalid(`${at}${k}`, `must be greater than zero, got ${v.toString()}`);
  if (sign === 'nonNegative' && v.isNegative()) throw new Invalid(`${at}${k}`, `must not be negative, got ${v.toString()}`);
}

function orderSpec(v: unknown, at: string): void {
  const o = record(v, at.slice(0, -1));
  text(o, 'marketSymbol', at);
  oneOf(o, 'direction', at, ORDER_DIRECTIONS);
  oneOf(o, 'type', at, ORDER_TYPES);
  oneOf(o, 'timeInForce', at, TIME_IN_FORCES);
  for (const k of ['quantity', 'ceiling', 'limit']) decimal(o, k, at, { optional: true });
}

/** A finite Decimal greater than zero: what {@link decimal} accepts by default, asked without building its messages. */
function positiveDecimal(v: unknown): boolean {
  // isPositive is the sign alone (true for +0): a finite non-zero value with it is > 0, as v.gt(0) says.
  return isDecimal(v) && v.isFinite() && v.isPositive() && !v.isZero();
}

function quotes(o: Rec, side: 'bids' | 'asks'): void {
  const list = o[side];
  if (!Array.isArray(list)) throw new Invalid(side, `must be an array of { rate, quantity }, got ${show(list)}`);
  for (let i = 0; i < list.length; i++) {
    if (!(i in list)) continue; // a hole, skipped as forEach did
    const q: unknown = list[i];
    // Every quote a strategy emits is valid: those pass here without their field paths being formatted (several
    // quotes per requote, and a requote can come every few events); only an invalid one goes through the checks
    // that name its problem.
    if (typeof q === 'object' && q !== null && !Array.isArray(q) && positiveDecimal((q as Rec).rate) && positiveDecimal((q as Rec).quantity)) continue;
    const at = `${side}[${i}].`;
    const r = record(q, `${side}[${i}]`);
    decimal(r, 'rate', at);
    decimal(r, 'quantity', at);
  }
}

function check(v: unknown): void {
  const o = record(v, 'intent');
  if (typeof o.kind !== 'string' || !(KINDS as readonly string[]).includes(o.kind)) {
    throw new Invalid('kind', `must be one of ${KINDS.join('|')}, got ${show(o.kind)}`);
  }
  text(o, 'key', '');
  switch (o.kind as Intent['kind']) {
    case 'place':
      return orderSpec(o.order, 'order.');
    case 'cancel':
      text(o, 'targetKey', '', true);
      return text(o, 'orderId', '', true);
    case 'cancelAll':
      return text(o, 'marketSymbol', '', true);
    case 'quotes':
      text(o, 'marketSymbol', '');
      quotes(o, 'bids');
      return quotes(o, 'asks');
    case 'bracket':
      orderSpec(o.entry, 'entry.');
      decimal(o, 'takeProfit', '');
      return decimal(o, 'stopLoss', '');
    case 'trailingStop':
      text(o, 'marketSymbol', '');
      oneOf(o, 'direction', '', ORDER_DIRECTIONS);
      decimal(o, 'quantity', '');
      return decimal(o, 'trailingStopPercent', '');
    case 'targetPosition':
      text(o, 'marketSymbol', '');
      decimal(o, 'position', '', { sign: 'any' });
      return decimal(o, 'maxSlippage', '', { optional: true, sign: 'nonNegative' });
  }
}

/**
 * The first problem with `intent`, or undefined when every field has its type and range.
 *
 * @example
 * intentProblem({ kind: 'place', key: 'k', order: { ...spec, direction: 'BYU' } })
 * // { field: 'order.direction', problem: 'must be one of BUY|SELL, got "BYU"' }
 */
export function intentProblem(intent: unknown): IntentProblem | undefined {
  try {
    check(intent);
    return undefined;
  } catch (e) {
    if (e instanceof Invalid) return { field: e.field, problem: e.problem };
    throw e;
  }
}
