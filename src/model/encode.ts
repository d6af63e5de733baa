/**
 * Wire encoding: the inverse of the decoders. Decimals become strings (never floats), dates ISO 8601 strings,
 * and undefined fields are left out.
 */
import { isDecimal } from '../core/decimal.js';
import { formatFixed } from '../core/decimal-format.js';

/** How decimals are written: `fixed8` as the service answered (`"0.00010000"`), `plain` as clients send (`"0.0001"`). */
export type DecimalStyle = 'fixed8' | 'plain';

/**
 * Convert a model value to plain JSON-ready data.
 *
 * @example
 * JSON.stringify(toWire({ rate: dec('0.1'), at: new Date(0) }, 'fixed8'))
 * // '{"rate":"0.10000000","at":"1970-01-01T00:00:00.000Z"}'
 */
export function toWire(value: unknown, style: DecimalStyle = 'fixed8'): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (isDecimal(value)) return style === 'fixed8' ? value.toFixed(8) : value.toFixed();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => toWire(v, style));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v !== undefined) out[k] = toWire(v, style);
  }
  return out;
}

/**
 * `JSON.stringify(toWire(value, style))`, written straight to text: every REST answer of the simulator and every
 * request body of the client goes through here, and building the intermediate copy (one object and one entries
 * array per level) cost more than the text itself. Plain objects, arrays, decimals, dates and primitives are
 * written here; anything else (a `toJSON` of its own, a Map) goes through `JSON.stringify(toWire(..))`, so the
 * text is always exactly that.
 */
export function toWireJson(value: unknown, style: DecimalStyle = 'fixed8'): string {
  const text = writeJson(value, style, false);
  return text as string;
}

/** Characters JSON.stringify escapes: quote, backslash, controls, and surrogates (escaped when unpaired). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `JSON.stringify(s)` for a string: most wire strings (ids, symbols, enums) need no escape and are just quoted. */
function quote(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/** Quoted object keys: the same few dozen field names are written for every answer. Bounded: keys may be data. */
const quotedKeys = new Map<string, string>();
function quoteKey(k: string): string {
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = quote(k);
    if (quotedKeys.size < 4096) quotedKeys.set(k, q);
  }
  return q;
}

/** The last date written and its text: an order's createdAt, updatedAt and closedAt are often one Date. */
let lastDate: Date | undefined;
let lastDateTime = NaN;
let lastDateText = '';
function dateText(d: Date): string {
  const t = d.getTime();
  if (d !== lastDate || t !== lastDateTime) {
    lastDateText = `"${d.toISOString()}"`; // ISO 8601 text never needs escaping
    lastDate = d;
    lastDateTime = t;
  }
  return lastDateText;
}

/** JSON text of `value`; undefined where JSON.stringify leaves a value out (undefined, functions, symbols). */
function writeJson(value: unknown, style: DecimalStyle, inArray: boolean): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
    case 'function':
    case 'symbol':
      return inArray ? 'null' : undefined;
    case 'bigint':
      return JSON.stringify(value); // throws, as JSON.stringify(toWire(..)) does
  }
  if (value === null) return 'null';
  if (isDecimal(value)) return `"${formatFixed(value, style === 'fixed8' ? 8 : undefined)}"`;
  if (value instanceof Date) return dateText(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + writeJson(value[i], style, true)!;
    return `${out}]`;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if ((proto !== Object.prototype && proto !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return JSON.stringify(toWire(value, style));
  }
  let out = '{';
  let first = true;
  const obj = value as Record<string, unknown>;
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (v === undefined) continue;
    const text = writeJson(v, style, false);
    if (text === undefined) continue;
    out += `${first ? '' : ','}${quoteKey(k)}:${text}`;
    first = false;
  }
  return `${out}}`;
}
