/**
 * Decoders for v1.1 values parsed by {@link parseV1Json}: numbers arrive as lossless source text, dates in the
 * zone-less v1.1 form, and absent values as `null` (which v1.1 sends explicitly: `"Closed":null`). Each throws
 * {@link WireFormatError} naming the field and the endpoint, like the v3 decoders in `model/decode.ts`.
 */
import { type Decimal, parseDecimal } from '../../core/decimal.js';
import { WireFormatError } from '../../core/errors.js';
import type { Decoder } from '../../model/decode.js';
import { parseV1Date } from './dates.js';
import { isLosslessNumber } from './json.js';

function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (isLosslessNumber(value)) return value.value;
  const s = JSON.stringify(value);
  return s === undefined ? String(value) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/** Throw the error of the field at `path`: `reason`, then, in the message only, `: <value>` when one is given. */
function fail(where: string, path: string, reason: string, ...value: [] | [unknown]): never {
  throw new WireFormatError(where, path, { reason, text: value.length === 0 ? reason : `${reason}: ${show(value[0])}` });
}

/** An exact decimal from a lossless number (or a plain number or decimal string, which some proxies send). */
export const v1dec: Decoder<Decimal> = (v, path, where) => {
  const d = parseDecimal(isLosslessNumber(v) ? v.value : v);
  return d ?? fail(where, path, 'is not a decimal', v);
};

/** A safe integer. */
export const v1int: Decoder<number> = (v, path, where) => {
  const n = isLosslessNumber(v) ? Number(v.value) : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : fail(where, path, 'is not an integer', v);
};

/** A string. */
export const v1str: Decoder<string> = (v, path, where) =>
  typeof v === 'string' ? v : fail(where, path, 'is not a string', v);

/** A boolean. */
export const v1bool: Decoder<boolean> = (v, path, where) =>
  typeof v === 'boolean' ? v : fail(where, path, 'is not a boolean', v);

/** A v1.1 date-time (`2014-07-09T07:22:16.72`, UTC) or epoch milliseconds. */
export const v1date: Decoder<Date> = (v, path, where) => {
  const n = isLosslessNumber(v) ? Number(v.value) : v;
  return parseV1Date(n) ?? fail(where, path, 'is not a v1.1 date-time', v);
};

/** `d`, or null when the value is null or absent. */
export function nullable<T>(d: Decoder<T>): Decoder<T | null> {
  return (v, path, where) => (v === null || v === undefined ? null : d(v, path, where));
}

/** Any JSON value, kept as it came (v1.1's untyped `Condition`/`ConditionTarget`). */
export const v1any: Decoder<unknown> = (v) => (v === undefined ? null : v);

/**
 * A v1.1 object: every field of `T` is decoded by its decoder, which sees `undefined` for a missing key (so
 * required fields fail with "is missing"-style messages and {@link nullable} ones become null). Keys v1.1 adds
 * beyond `T` are ignored.
 */
export function v1object<T extends object>(fields: { [K in keyof T]-?: Decoder<T[K]> }): Decoder<T> {
  const entries = (Object.entries(fields) as [string, Decoder<unknown>][]).map(
    ([key, d]) => [key, d, acceptsMissing(d)] as const,
  );
  return (v, path, where) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v) || isLosslessNumber(v)) {
      return fail(where, path, 'is not an object', v);
    }
    const src = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, d, optional] of entries) {
      const fv = src[key];
      const fp = path ? `${path}.${key}` : key;
      if (fv === undefined && !optional) fail(where, fp, 'is missing');
      out[key] = d(fv, fp, where);
    }
    return out as T;
  };
}

/** Whether a decoder maps a missing value to null (it was built by {@link nullable} or is {@link v1any}). */
function acceptsMissing(d: Decoder<unknown>): boolean {
  try {
    return d(undefined, '', '') === null;
  } catch {
    return false;
  }
}

/** A JSON array whose items all decode with `item`. */
export function v1array<T>(item: Decoder<T>): Decoder<T[]> {
  return (v, path, where) => {
    if (!Array.isArray(v)) return fail(where, path, 'is not an array', v);
    const out = new Array<T>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = item(v[i], `${path}[${i}]`, where);
    return out;
  };
}

/** One of a fixed set of strings. */
export function v1oneOf<const T extends readonly string[]>(values: T): Decoder<T[number]> {
  const set = new Set<string>(values);
  return (v, path, where) =>
    typeof v === 'string' && set.has(v) ? (v as T[number]) : fail(where, path, `is not one of ${values.join('|')}`, v);
}
