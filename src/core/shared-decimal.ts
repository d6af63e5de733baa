/**
 * {@link parseSharedDecimal}: the wire's plain decimal form read as {@link parsePlainDecimal} reads it, answering the
 * Decimal made for the same value lately instead of a new one (for recorded data, whose rates repeat).
 */
import { type Decimal, DecimalOfParts, parsePlainDecimal, POW10, POW10_SPLIT, ZERO } from './decimal.js';

/** {@link scanPlain}'s answers: a value of up to 15 significant digits, not the plain form, a longer value. */
const SCANNED = 0;
const NOT_PLAIN = 1;
const LONG = 2;

/**
 * What the last {@link scanPlain} read (one parse runs at a time: no object per value): the sign, the exponent of
 * the first significant digit, the significant digits up to the last non-zero one as an integer (0 for zero) and
 * their count.
 */
let scanSign = 1;
let scanE = 0;
let scanV = 0;
let scanN = 0;

/** Read the plain form in `text[start, end)` into the scan variables (see {@link SCANNED}, {@link NOT_PLAIN}, {@link LONG}). */
function scanPlain(text: string, start: number, end: number): number {
  let i = start;
  let sign = 1;
  if (i < end && text.charCodeAt(i) === 45) {
    sign = -1;
    i++;
  }
  scanSign = sign;
  if (i === end) return NOT_PLAIN;
  // One pass: the digits from the first significant one go into `v` (exact while there are at most 15 of them,
  // below 2^53); `vLast`/`nLast` are the value and count up to the last non-zero digit (trailing zeros dropped).
  let dot = -1;
  let first = -1;
  let v = 0;
  let n = 0;
  let vLast = 0;
  let nLast = 0;
  for (let j = i; j < end; j++) {
    const c = text.charCodeAt(j);
    if (c >= 48 && c <= 57) {
      if (first >= 0) {
        if (++n > 15) return LONG;
        v = v * 10 + (c - 48);
        if (c !== 48) {
          vLast = v;
          nLast = n;
        }
      } else if (c !== 48) {
        first = j;
        v = vLast = c - 48;
        n = nLast = 1;
      }
    } else if (c === 46 && dot < 0 && j > i && j < end - 1) {
      dot = j;
    } else {
      return NOT_PLAIN;
    }
  }
  scanV = vLast;
  scanN = nLast;
  if (first < 0) {
    // Zero keeps its sign, as decimal.js parses "-0.00".
    scanE = 0;
    return SCANNED;
  }
  const point = dot < 0 ? end : dot;
  scanE = first < point ? point - first - 1 : point - first;
  return SCANNED;
}

/**
 * The Decimal of a scanned value: sign, exponent `e` of the first significant digit, and its `n` significant digits
 * (trailing zeros dropped) as the integer `v` (0 for zero).
 */
function plainOfParts(sign: number, e: number, v: number, n: number): Decimal {
  if (v === 0) return new DecimalOfParts(sign, 0, [0]) as unknown as Decimal;
  // The first base-1e7 word holds the digits up to a multiple-of-7 exponent boundary, the others 7 each, the last
  // one padded with zeros. Remainders and exact divisions of integers below 2^53 by powers of ten are exact.
  // Every word is below 1e7 and goes through `| 0`: computed in floating point it would otherwise be stored as a
  // double, the words array would get double elements instead of decimal.js's small integers, and every
  // decimal.js loop over a mix of both kinds runs slower (the market maker's run took ~25% more CPU).
  const cap = (((e + 1) % 7) + 7) % 7 || 7;
  if (n <= cap) return new DecimalOfParts(sign, e, [(v * POW10[cap - n]!) | 0]) as unknown as Decimal;
  const rest = n - cap;
  const p = POW10_SPLIT[rest]!;
  const low = v % p;
  const w0 = ((v - low) / p) | 0;
  if (rest <= 7) return new DecimalOfParts(sign, e, [w0, (low * POW10[7 - rest]!) | 0]) as unknown as Decimal;
  const p2 = POW10_SPLIT[rest - 7]!;
  const low2 = low % p2;
  return new DecimalOfParts(sign, e, [w0, ((low - low2) / p2) | 0, (low2 * POW10[14 - rest]!) | 0]) as unknown as Decimal;
}

/** log2 of the slots of {@link parseSharedDecimal}'s table. */
const SHARED_BITS = 12;
/** The value each slot holds, by its scanned digits (-1: none yet) and `2 * e + (negative ? 1 : 0)`. */
const sharedDigits = new Float64Array(1 << SHARED_BITS).fill(-1);
const sharedExp = new Int32Array(1 << SHARED_BITS);
const sharedValues: Decimal[] = new Array<Decimal>(1 << SHARED_BITS).fill(ZERO);

/**
 * {@link parsePlainDecimal}, answering the Decimal it made for the same value lately instead of a new one: a table of
 * 4096 slots keyed by the scanned value (sign, exponent, significant digits: the same key for `1.50` and `1.5`,
 * which decimal.js represents identically). Decimal values are immutable, so a shared one is as good as a fresh
 * one wherever only values count; do not use it where identity may matter. Recorded data repeats a few rates over
 * and over: a hit costs no allocation (two objects per value otherwise, ~110 bytes, the largest part of the
 * young-generation garbage a recorded book line made). For values that rarely repeat it costs more than it saves (a
 * table churned by them keeps young decimals alive across collections). Values of more than 15 significant digits
 * are not shared.
 *
 * @example
 * parseSharedDecimal('30009', 0, 5) === parseSharedDecimal('"30009.0"', 1, 8) // true (while neither was evicted)
 */
export function parseSharedDecimal(text: string, start: number, end: number): Decimal | undefined {
  const k = scanPlain(text, start, end);
  if (k !== SCANNED) return k === NOT_PLAIN ? undefined : parsePlainDecimal(text, start, end);
  const v = scanV;
  const key = 2 * scanE + (scanSign < 0 ? 1 : 0);
  // v < 2^53: its low 32 bits and the rest, mixed with the key (multiplicative hashing, top bits taken).
  const h = Math.imul((v | 0) ^ ((v / 4294967296) | 0) ^ Math.imul(key, 0x27d4eb2d), 0x9e3779b1) >>> (32 - SHARED_BITS);
  if (sharedDigits[h] === v && sharedExp[h] === key) return sharedValues[h]!;
  const d = plainOfParts(scanSign, scanE, v, scanN);
  sharedDigits[h] = v;
  sharedExp[h] = key;
  sharedValues[h] = d;
  return d;
}

