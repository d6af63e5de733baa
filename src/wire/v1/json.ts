/**
 * v1.1 JSON text, both ways, exactly.
 *
 * WIRE: v1.1 sends amounts as JSON **numbers** (`"Quantity":1000.00000000`, `"Limit":1e-08` in the official
 * examples), unlike v3's strings. `JSON.parse` would turn them into binary floats, and an amount like
 * `12345678901.12345678` does not survive that. So v1.1 text is parsed with lossless-json, which keeps every
 * number as its source text ({@link isLosslessNumber}); the decoders in `decode.ts` turn that text into an exact
 * {@link Decimal} or a safe integer. Writing goes the other way: {@link stringifyV1} emits decimals as bare JSON
 * numbers with 8 decimals (`0.00010000`), as the service's .NET decimals were serialized, and dates in the
 * v1.1 date-time form (`dates.ts`).
 */
import { isLosslessNumber, parse } from 'lossless-json';
import { isDecimal } from '../../core/decimal.js';
import { formatV1Date } from './dates.js';

export { isLosslessNumber };

/**
 * Parse v1.1 JSON text; every number stays a `LosslessNumber` holding its exact source text.
 * Throws a SyntaxError on text that is not JSON (callers name where it came from).
 *
 * @example
 * const v = parseV1Json('{"Bid":12345678901.12345678}') as { Bid: { value: string } };
 * v.Bid.value // '12345678901.12345678'
 */
export function parseV1Json(text: string): unknown {
  return parse(text);
}

/** JSON string literal, as JSON.stringify writes it. */
const quote = (s: string): string => JSON.stringify(s);

/**
 * Serialize a v1.1 wire value: decimals as JSON numbers with 8 decimals, dates as v1.1 date-times
 * (`2014-07-09T07:22:16.72`, UTC without a zone), `null` kept (v1.1 sends `"Closed":null`), `undefined` fields
 * left out, lossless numbers written as their text.
 *
 * @example
 * stringifyV1({ success: true, message: '', result: { Bid: dec('0.1'), Closed: null } })
 * // '{"success":true,"message":"","result":{"Bid":0.10000000,"Closed":null}}'
 */
export function stringifyV1(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      return 'null';
  }
  if (isDecimal(value)) return value.toFixed(8);
  if (value instanceof Date) return quote(formatV1Date(value));
  if (isLosslessNumber(value)) return value.value;
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : stringifyV1(v))).join(',')}]`;
  let out = '';
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined) continue;
    out += `${out ? ',' : ''}${quote(k)}:${stringifyV1(v)}`;
  }
  return `{${out}}`;
}
