/**
 * The v1.1 hub's minified keys (seed 001, section 6): every payload of hub `c2` (callbacks uE, uS, uL, uO, uB
 * and the QueryExchangeState / QuerySummaryState results) travels with one- or two-letter keys, `{"M":"BTC-ETH",
 * "N":1234,"Z":[{"TY":0,"R":0.1,"Q":2}]}`. This module owns the table and the two directions: the client and the
 * capture reader expand, the simulator's hub minifies. It belongs to no side (ARCHITECTURE.md, "the wire
 * belongs to no side").
 *
 * The table is a bijection, so minify(expand(x)) = x for any payload the service sent. Keys outside the table
 * pass through unchanged in both directions: a newer server field then reaches the caller under its wire name
 * instead of being dropped.
 */
import { isDecimal } from '../../../core/decimal.js';
import { WireFormatError } from '../../../core/errors.js';
import { isLosslessNumber } from '../json.js';

/** Minified key → full field name, exactly as the seed lists them. */
export const MINIFIED_KEYS = {
  A: 'Ask',
  a: 'Available',
  B: 'Bid',
  b: 'Balance',
  C: 'Closed',
  c: 'Currency',
  CI: 'CancelInitiated',
  D: 'Deltas',
  d: 'Delta',
  DT: 'OrderDeltaType',
  E: 'Exchange',
  e: 'ExchangeDeltaType',
  F: 'FillType',
  FI: 'FillId',
  f: 'Fills',
  G: 'OpenBuyOrders',
  g: 'OpenSellOrders',
  H: 'High',
  h: 'AutoSell',
  I: 'Id',
  i: 'IsOpen',
  J: 'Condition',
  j: 'ConditionTarget',
  K: 'ImmediateOrCancel',
  k: 'IsConditional',
  L: 'Low',
  l: 'Last',
  M: 'MarketName',
  m: 'BaseVolume',
  N: 'Nonce',
  n: 'CommissionPaid',
  O: 'Orders',
  o: 'Order',
  OT: 'OrderType',
  OU: 'OrderUuid',
  P: 'Price',
  p: 'CryptoAddress',
  PD: 'PrevDay',
  PU: 'PricePerUnit',
  Q: 'Quantity',
  q: 'QuantityRemaining',
  R: 'Rate',
  r: 'Requested',
  S: 'Sells',
  s: 'Summaries',
  T: 'TimeStamp',
  t: 'Total',
  TY: 'Type',
  U: 'Uuid',
  u: 'Updated',
  V: 'Volume',
  W: 'AccountId',
  w: 'AccountUuid',
  X: 'Limit',
  x: 'Created',
  Y: 'Opened',
  y: 'State',
  Z: 'Buys',
  z: 'Pending',
} as const satisfies Record<string, string>;

/** A minified key. */
export type MinifiedKey = keyof typeof MINIFIED_KEYS;
/** A full field name of the table. */
export type FullKey = (typeof MINIFIED_KEYS)[MinifiedKey];

const EXPAND = new Map<string, string>(Object.entries(MINIFIED_KEYS));
/** Full field name → minified key. */
export const FULL_KEYS: ReadonlyMap<string, string> = new Map(Object.entries(MINIFIED_KEYS).map(([k, v]) => [v, k]));

/**
 * Deepest nesting a payload may have. The deepest real one (uO: envelope → Order → fields) is 3 levels;
 * anything far deeper is hostile or broken and must not run the recursion out of stack.
 */
export const MAX_PAYLOAD_DEPTH = 32;

function rename(value: unknown, table: ReadonlyMap<string, string>, depth: number, where: string, path: string): unknown {
  if (typeof value !== 'object' || value === null) return value;
  // Leaves that happen to be objects: exact numbers (lossless-json, Decimal) and dates.
  if (isLosslessNumber(value) || isDecimal(value) || value instanceof Date) return value;
  if (depth > MAX_PAYLOAD_DEPTH) throw new WireFormatError(where, path, `nests deeper than ${MAX_PAYLOAD_DEPTH} levels`);
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = rename(value[i], table, depth + 1, where, `${path}[${i}]`);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key in value as Record<string, unknown>) {
    const to = table.get(key) ?? key;
    out[to] = rename((value as Record<string, unknown>)[key], table, depth + 1, where, path ? `${path}.${to}` : to);
  }
  return out;
}

/**
 * Replace every minified key by its full name, at every level.
 *
 * @example
 * expandKeys({ M: 'BTC-ETH', N: 7, Z: [{ TY: 0, R: 0.1, Q: 2 }] })
 * // { MarketName: 'BTC-ETH', Nonce: 7, Buys: [{ Type: 0, Rate: 0.1, Quantity: 2 }] }
 */
export function expandKeys(value: unknown, where = 'v1.1 hub payload'): unknown {
  return rename(value, EXPAND, 0, where, '');
}

/**
 * Replace every full field name by its minified key, at every level (what the simulator's hub sends).
 *
 * @example
 * minifyKeys({ Nonce: 3, Deltas: [{ MarketName: 'BTC-ETH', Last: 0.05 }] }) // { N: 3, D: [{ M: 'BTC-ETH', l: 0.05 }] }
 */
export function minifyKeys(value: unknown): unknown {
  return rename(value, FULL_KEYS, 0, 'v1.1 hub payload', '');
}
