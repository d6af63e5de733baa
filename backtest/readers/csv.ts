/**
 * The small CSV toolkit the CSV readers share: splitting a line (RFC 4180 quotes when present, a plain split
 * otherwise, since tick data rarely quotes), and reading decimals, integers and times out of fields with errors
 * that say which column holds what.
 */
import { type Decimal, parseDecimal } from '../../src/core/decimal.js';
import { type LineRef, ReplayFormatError } from '../../src/sim/driver/replay-error.js';

/**
 * Split one CSV line into fields. Fields in double quotes may hold the delimiter and `""` for a quote; a line
 * without any quote is split directly.
 *
 * @example
 * splitCsvLine('a,"b,c",d') // ['a', 'b,c', 'd']
 */
export function splitCsvLine(line: string, delimiter = ',', ref?: LineRef): string[] {
  if (!line.includes('"')) return line.split(delimiter);
  const out: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      let j = i + 1;
      for (;;) {
        const q = line.indexOf('"', j);
        if (q < 0) throw new ReplayFormatError(ref ?? { file: '?', line: 0 }, 'a quoted field is not closed');
        value += line.slice(j, q);
        if (line[q + 1] === '"') {
          value += '"';
          j = q + 2;
        } else {
          j = q + 1;
          break;
        }
      }
      out.push(value);
      if (j >= line.length) return out;
      if (!line.startsWith(delimiter, j)) throw new ReplayFormatError(ref ?? { file: '?', line: 0 }, `text after a quoted field at column ${out.length}`);
      i = j + delimiter.length;
    } else {
      const d = line.indexOf(delimiter, i);
      if (d < 0) {
        out.push(line.slice(i));
        return out;
      }
      out.push(line.slice(i, d));
      i = d + delimiter.length;
    }
  }
}

/** A decimal field, or a file:line error naming the column. */
export function decimalField(text: string | undefined, column: string, ref: LineRef): Decimal {
  const d = typeof text === 'string' ? parseDecimal(text.trim()) : undefined;
  if (d === undefined) throw new ReplayFormatError(ref, `${column} is not a decimal: ${JSON.stringify(text ?? null)}`, { withoutText: `${column} is not a decimal` });
  return d;
}

/** A non-negative integer field (e.g. microseconds since epoch), or a file:line error naming the column. */
export function integerField(text: string | undefined, column: string, ref: LineRef): number {
  const t = typeof text === 'string' ? text.trim() : '';
  const n = /^\d+$/.test(t) ? Number(t) : NaN;
  if (!Number.isSafeInteger(n)) throw new ReplayFormatError(ref, `${column} is not a non-negative integer: ${JSON.stringify(text ?? null)}`, { withoutText: `${column} is not a non-negative integer` });
  return n;
}

/** Microseconds since epoch to milliseconds, rounded half up (as recorded second fractions are). */
export function microsToMs(us: number): number {
  return Math.floor((us + 500) / 1000);
}

/**
 * A time field as epoch ms: an ISO 8601 date-time (UTC when no zone is given, as exchange exports mean it), or an
 * epoch number whose unit is told by `unit` or, with `auto`, by its size (< 1e11 seconds, < 1e14 ms, < 1e17 µs,
 * else ns; i.e. any date from 1973 to 5138 reads right).
 */
export function timeField(text: string | undefined, column: string, ref: LineRef, unit: TimeUnit = 'auto'): number {
  const t = typeof text === 'string' ? text.trim() : '';
  if (/^\d+(\.\d+)?$/.test(t)) {
    const n = Number(t);
    const u = unit !== 'auto' ? unit : n < 1e11 ? 's' : n < 1e14 ? 'ms' : n < 1e17 ? 'us' : 'ns';
    const ms = Math.round(u === 's' ? n * 1000 : u === 'ms' ? n : u === 'us' ? n / 1000 : n / 1e6);
    // Past the dates a Date holds (8.64e15 ms) a time is no time: it surfaced later as Date's "Invalid time value",
    // naming no field.
    if (ms <= MAX_DATE_MS) return ms;
    throw new ReplayFormatError(ref, `${column} is past any date as epoch ${u}: ${JSON.stringify(text ?? null)}`, { withoutText: `${column} is past any date` });
  }
  if (/^\d{4}-\d\d-\d\d([T ]\d\d:\d\d(:\d\d(\.\d+)?)?)?(Z|[+-]\d\d:?\d\d)?$/i.test(t)) {
    const iso = t.replace(' ', 'T');
    const zoned = /(Z|[+-]\d\d:?\d\d)$/i.test(iso) ? iso : iso.length === 10 ? `${iso}T00:00:00Z` : `${iso}Z`;
    const ms = Date.parse(zoned);
    if (Number.isFinite(ms)) return ms;
  }
  throw new ReplayFormatError(ref, `${column} is not a time (ISO 8601 or epoch number): ${JSON.stringify(text ?? null)}`, { withoutText: `${column} is not a time (ISO 8601 or epoch number)` });
}

/** The latest time a Date holds, in epoch ms (ECMAScript's limit). */
const MAX_DATE_MS = 8.64e15;

/** Unit of an epoch-number time column; `auto` tells it by magnitude. */
export type TimeUnit = 'auto' | 's' | 'ms' | 'us' | 'ns';

/** Split a `BASE-QUOTE`-like symbol with any separator into the v3 form, or undefined when it has none. */
export function splitSymbol(symbol: string): string | undefined {
  const m = /^([A-Z0-9.]+)[-/_:]([A-Z0-9.]+)$/i.exec(symbol.trim());
  return m ? `${m[1]!.toUpperCase()}-${m[2]!.toUpperCase()}` : undefined;
}
