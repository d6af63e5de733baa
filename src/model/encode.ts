/**
 * Wire encoding: the inverse of the decoders. Decimals become strings (never floats), dates ISO 8601 strings,
 * and undefined fields are left out.
 */
import { isDecimal } from '../core/decimal.js';

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

/** `JSON.stringify(toWire(value, style))`. */
export function toWireJson(value: unknown, style: DecimalStyle = 'fixed8'): string {
  return JSON.stringify(toWire(value, style));
}
