/**
 * {@link parseSharedDecimal}: the wire's plain decimal form read as {@link parsePlainDecimal} reads it, answering the
 * Decimal made for the same value lately instead of a new one (for recorded data, whose rates repeat).
 */
import { type Decimal, NOT_PLAIN, parsePlainDecimal, plainOfParts, scanned, scanPlain, SCANNED, ZERO } from './decimal.js';

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
  return sharedOfScanned();
}

/**
 * The Decimal of the value in `scanned` (the last scan read one of at most 15 significant digits), shared as
 * {@link parseSharedDecimal} shares it: for decoders that scan the value themselves.
 */
export function sharedOfScanned(): Decimal {
  const v = scanned.v;
  const key = 2 * scanned.e + (scanned.sign < 0 ? 1 : 0);
  // v < 2^53: its low 32 bits and the rest, mixed with the key (multiplicative hashing, top bits taken).
  const h = Math.imul((v | 0) ^ ((v / 4294967296) | 0) ^ Math.imul(key, 0x27d4eb2d), 0x9e3779b1) >>> (32 - SHARED_BITS);
  if (sharedDigits[h] === v && sharedExp[h] === key) return sharedValues[h]!;
  const d = plainOfParts(scanned.sign, scanned.e, v, scanned.n);
  sharedDigits[h] = v;
  sharedExp[h] = key;
  sharedValues[h] = d;
  return d;
}
