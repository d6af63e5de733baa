/**
 * Wire encoding: the inverse of the decoders. Decimals become strings (never floats), dates ISO 8601 strings,
 * and undefined fields are left out.
 */
import { isDecimal } from '../core/decimal.js';
import { formatFixed } from '../core/decimal-format.js';
import type { Decimal } from '../core/decimal.js';

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
 *
 * The pieces are collected in an array and joined once: appending them to a string made a cons string per
 * piece (several per field), ~3 KB of garbage for one order answer (issue 9 item 9).
 */
export function toWireJson(value: unknown, style: DecimalStyle = 'fixed8'): string {
  if (typeof value !== 'object' || value === null || isDecimal(value) || value instanceof Date) {
    return writeScalar(value, style, false) as string;
  }
  const parts: string[] = [];
  if (!writeInto(parts, value, style, false)) return undefined as unknown as string;
  return parts.length === 1 ? parts[0]! : parts.join('');
}

/** Characters JSON.stringify escapes: quote, backslash, controls, and surrogates (escaped when unpaired). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `JSON.stringify(s)` for a string: most wire strings (ids, symbols, enums) need no escape and are just quoted. */
function quote(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/** Object keys quoted and followed by the colon: the same few dozen field names are written for every answer. Bounded: keys may be data. */
const keyTexts = new Map<string, string>();
function keyText(k: string): string {
  let q = keyTexts.get(k);
  if (q === undefined) {
    q = `${quote(k)}:`;
    if (keyTexts.size < 4096) keyTexts.set(k, q);
  }
  return q;
}

/**
 * The last time written and its text: an order's createdAt, updatedAt and closedAt are often one time. Keyed by the
 * time value alone, not the Date object: the text depends on nothing else, and equal times in distinct Date objects
 * (a decoded order's three dates) hit too. An invalid date (NaN) never equals the remembered time, so it still
 * throws as toISOString does; a Date with a toISOString of its own is always asked.
 */
let lastDateTime = NaN;
let lastDateText = '';
const isoText = Date.prototype.toISOString;
function dateText(d: Date): string {
  const t = d.getTime();
  if (t !== lastDateTime || d.toISOString !== isoText) {
    const text = `"${d.toISOString()}"`; // ISO 8601 text never needs escaping
    if (d.toISOString !== isoText) return text;
    lastDateText = text;
    lastDateTime = t;
  }
  return lastDateText;
}

/** JSON text of a value that is not an array or object (a decimal and a Date count as scalars here). */
function writeScalar(value: unknown, style: DecimalStyle, inArray: boolean): string | undefined {
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
  return dateText(value as Date);
}

/** Append the JSON text of `value` to `out` in pieces; false (nothing appended) where JSON.stringify leaves it out. */
function writeInto(out: string[], value: unknown, style: DecimalStyle, inArray: boolean): boolean {
  if (typeof value === 'string') {
    if (NEEDS_ESCAPE.test(value)) out.push(JSON.stringify(value));
    else out.push('"', value, '"');
    return true;
  }
  if (typeof value !== 'object' || value === null || value instanceof Date) {
    const text = writeScalar(value, style, inArray);
    if (text === undefined) return false;
    out.push(text);
    return true;
  }
  if (isDecimal(value)) {
    out.push('"', formatFixed(value, style === 'fixed8' ? 8 : undefined), '"');
    return true;
  }
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i !== 0) out.push(',');
      // In an array nothing is left out: undefined is written null, and so is an object whose toJSON gives undefined.
      if (!writeInto(out, value[i], style, true)) out.push('null');
    }
    out.push(']');
    return true;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if ((proto !== Object.prototype && proto !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    const text = JSON.stringify(toWire(value, style)) as string | undefined;
    if (text === undefined) return false;
    out.push(text);
    return true;
  }
  out.push('{');
  let first = true;
  const obj = value as Record<string, unknown>;
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (v === undefined) continue;
    const mark = out.length;
    if (!first) out.push(',');
    out.push(keyText(k));
    if (!writeInto(out, v, style, false)) {
      out.length = mark; // left out: take its key back
      continue;
    }
    first = false;
  }
  out.push('}');
  return true;
}

/**
 * The UTF-8 bytes of `toWireJson(value, style)`, written straight into a reused buffer: the simulator answers every
 * REST request with this. Building the text (an array of pieces, then the joined string) and then having the socket
 * encode that string again cost more than writing the bytes once; only the final copy is allocated. Undefined
 * where `toWireJson` gives undefined. test/model/encode-bytes.test.ts compares the two on random model values.
 *
 * @example
 * toWireJsonBytes({ rate: dec('0.1') }).toString() // '{"rate":"0.10000000"}'
 */
export function toWireJsonBytes(value: unknown, style: DecimalStyle = 'fixed8'): Buffer | undefined {
  if (typeof value !== 'object' || value === null || isDecimal(value) || value instanceof Date || bytesBusy) {
    // Scalars are rare answers; and a toJSON that answers by encoding again must not share the scratch buffer.
    const text = toWireJson(value, style) as string | undefined;
    return text === undefined ? undefined : Buffer.from(text, 'utf8');
  }
  bytesBusy = true;
  pos = 0;
  try {
    if (!putValue(value, style, false)) return undefined;
    const out = Buffer.allocUnsafe(pos);
    scratch.copy(out, 0, 0, pos);
    return out;
  } finally {
    bytesBusy = false;
    if (scratch.length > MAX_KEPT_SCRATCH) scratch = Buffer.allocUnsafe(SCRATCH_BYTES);
  }
}

const SCRATCH_BYTES = 16 * 1024;
/** A scratch buffer grown for a huge answer is let go afterwards rather than kept for the life of the process. */
const MAX_KEPT_SCRATCH = 1024 * 1024;
let scratch = Buffer.allocUnsafe(SCRATCH_BYTES);
let pos = 0;
let bytesBusy = false;

function room(n: number): void {
  if (pos + n <= scratch.length) return;
  const grown = Buffer.allocUnsafe(Math.max(scratch.length * 2, pos + n));
  scratch.copy(grown, 0, 0, pos);
  scratch = grown;
}

/** Append `s` as UTF-8: byte by byte while it is ASCII (nearly all wire text), else through Buffer's encoder. */
function putText(s: string): void {
  const n = s.length;
  if (pos + n > scratch.length) room(n);
  const buf = scratch;
  let p = pos; // a local, not the module's: this loop writes every byte of every answer
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) {
      room(n * 3); // a UTF-16 unit never takes more than 3 bytes of UTF-8; `pos` is still where `s` starts
      pos += scratch.write(s, pos, 'utf8');
      return;
    }
    buf[p++] = c;
  }
  pos = p;
}

/** Append one ASCII byte (a quote, a bracket). */
function putByte(c: number): void {
  if (pos + 1 > scratch.length) room(1);
  scratch[pos++] = c;
}

/**
 * Append the JSON text of string `s`. ASCII with nothing to escape (ids, symbols, enums: nearly every wire string)
 * is quoted and written in the one pass that checks it, without a regex test first; any other string (a quote,
 * backslash or control character, or any non-ASCII one) goes the general way from where it started.
 */
function putString(s: string): void {
  const n = s.length;
  if (pos + n + 2 > scratch.length) room(n + 2);
  const buf = scratch;
  let p = pos;
  buf[p++] = 0x22;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c > 0x7f) return putStringSlow(s);
    buf[p++] = c;
  }
  buf[p++] = 0x22;
  pos = p;
}

/** {@link putString} of a string that may need escaping or is not ASCII: as `writeInto` writes it. */
function putStringSlow(s: string): void {
  if (NEEDS_ESCAPE.test(s)) putText(JSON.stringify(s));
  else {
    putByte(0x22);
    putText(s);
    putByte(0x22);
  }
}

/** `writeInto` over bytes: same decisions, same text, in the same order. */
function putValue(value: unknown, style: DecimalStyle, inArray: boolean): boolean {
  if (typeof value === 'string') {
    putString(value);
    return true;
  }
  if (typeof value !== 'object' || value === null || value instanceof Date) {
    const text = writeScalar(value, style, inArray);
    if (text === undefined) return false;
    putText(text);
    return true;
  }
  if (isDecimal(value)) {
    putByte(0x22);
    putDecimal(value, style === 'fixed8' ? 8 : undefined);
    putByte(0x22);
    return true;
  }
  if (Array.isArray(value)) {
    putByte(0x5b);
    for (let i = 0; i < value.length; i++) {
      if (i !== 0) putByte(0x2c);
      if (!putValue(value[i], style, true)) putText('null');
    }
    putByte(0x5d);
    return true;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if ((proto !== Object.prototype && proto !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    const text = JSON.stringify(toWire(value, style)) as string | undefined;
    if (text === undefined) return false;
    putText(text);
    return true;
  }
  putByte(0x7b);
  let first = true;
  const obj = value as Record<string, unknown>;
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (v === undefined) continue;
    const mark = pos;
    if (!first) putByte(0x2c);
    putText(keyText(k));
    if (!putValue(v, style, false)) {
      pos = mark; // left out: take its key back
      continue;
    }
    first = false;
  }
  putByte(0x7d);
  return true;
}

/** decimal.js's documented representation (as decimal-format.ts reads it): base-1e7 words, exponent, sign. */
interface DecimalParts {
  s: number;
  e: number;
  d: number[] | null;
}

/** The significant digits of the decimal being written (at most 9 words of 7 digits). */
const digitsOf = new Uint8Array(63);

/**
 * Append `formatFixed(d, dp)` as bytes, read straight from the decimal's words: every amount of every answer was
 * first built as a string (digits, slices, padding) only to be copied out byte by byte. The same cases as
 * `formatFixed`, in the same order; what it hands to decimal.js (non-finite, far exponents, rounding) and very long
 * values go through it here too, so the bytes are always its text. test/model/encode-decimal-bytes.test.ts
 * compares the two on random decimals.
 */
function putDecimal(d: Decimal, dp: number | undefined): void {
  const x = d as unknown as DecimalParts;
  const words = x.d;
  if (words === null || x.e > 40 || x.e < -40 || words.length > 9) return putText(formatFixed(d, dp));
  if (words.length === 1 && words[0] === 0) {
    if (dp === undefined || dp === 0) return putByte(0x30);
    room(dp + 2);
    scratch[pos++] = 0x30;
    scratch[pos++] = 0x2e;
    for (let i = 0; i < dp; i++) scratch[pos++] = 0x30;
    return;
  }
  // The digits: the first word as it is, every further word as exactly 7 digits.
  let n = 0;
  let w = words[0]!;
  let k = w < 10 ? 1 : w < 100 ? 2 : w < 1e3 ? 3 : w < 1e4 ? 4 : w < 1e5 ? 5 : w < 1e6 ? 6 : 7;
  for (let i = k - 1; i >= 0; i--, w = Math.floor(w / 10)) digitsOf[n + i] = 48 + (w % 10);
  n += k;
  for (let j = 1; j < words.length; j++) {
    w = words[j]!;
    for (let i = 6; i >= 0; i--, w = Math.floor(w / 10)) digitsOf[n + i] = 48 + (w % 10);
    n += 7;
  }
  // Trailing zeros are not significant.
  let len = n;
  while (len > 1 && digitsOf[len - 1] === 48) len--;
  const e = x.e;
  const places = len - e - 1;
  if (dp !== undefined && places > dp) return putText(formatFixed(d, dp)); // needs rounding: decimal.js decides
  const pad = dp !== undefined && places < dp ? dp - places : 0;
  room(len + (e >= 0 ? e + 1 : -e) + (dp ?? 0) + 4);
  const buf = scratch;
  let p = pos;
  if (x.s < 0) buf[p++] = 0x2d;
  if (e >= 0) {
    const intLen = e + 1;
    if (len <= intLen) {
      for (let i = 0; i < len; i++) buf[p++] = digitsOf[i]!;
      for (let i = len; i < intLen; i++) buf[p++] = 0x30;
      if (dp) {
        buf[p++] = 0x2e;
        for (let i = 0; i < dp; i++) buf[p++] = 0x30;
      }
    } else {
      for (let i = 0; i < intLen; i++) buf[p++] = digitsOf[i]!;
      buf[p++] = 0x2e;
      for (let i = intLen; i < len; i++) buf[p++] = digitsOf[i]!;
      for (let i = 0; i < pad; i++) buf[p++] = 0x30;
    }
  } else {
    buf[p++] = 0x30;
    buf[p++] = 0x2e;
    for (let i = 1; i < -e; i++) buf[p++] = 0x30;
    for (let i = 0; i < len; i++) buf[p++] = digitsOf[i]!;
    for (let i = 0; i < pad; i++) buf[p++] = 0x30;
  }
  pos = p;
}
