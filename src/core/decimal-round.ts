/**
 * Rounding to a number of decimal places towards or away from zero, on decimal.js's representation: what
 * `x.toDecimalPlaces(dp, ROUND_DOWN | ROUND_UP)` answers, without its copy of `x` and its general `finalise`
 * (~0.45 µs a call on this machine; the simulator cuts every fill's quote and commission to 8 decimals, the risk
 * engine and the simulator round every buy reservation up to 8, a quoting strategy rounds every quote's rate).
 * A value that already has at most `dp` decimals is returned itself (decimal.js values are immutable).
 * test/core/decimal-round.test.ts compares it with decimal.js on random values, places and modes.
 */
import { Decimal, decimalOfParts } from './decimal.js';

/** The representation decimal.js documents: sign, exponent of the first significant digit, base-1e7 words. */
interface Parts {
  s: number;
  e: number;
  d: number[] | null;
}

const BASE = 10_000_000;
/** 10^k, k = 0..7. */
const POW10 = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000];
/** Beyond this, the general path (decimal.js's exponent limits and argument checks). */
const LIMIT = 1_000_000;

/**
 * `x` rounded to `dp` decimal places, away from zero when `up` (ROUND_UP), else towards zero (ROUND_DOWN):
 * equal to `x.toDecimalPlaces(dp, up ? Decimal.ROUND_UP : Decimal.ROUND_DOWN)` in value and representation.
 *
 * @example
 * toPlaces(dec('1.23456'), 2, false).toString(); // '1.23'
 * toPlaces(dec('1.23456'), 2, true).toString();  // '1.24'
 */
export function toPlaces(x: Decimal, dp: number, up: boolean): Decimal {
  const { s, e, d } = x as unknown as Parts;
  if (!d || !Number.isInteger(dp) || dp < 0 || dp > LIMIT || e > LIMIT || e < -LIMIT) {
    return x.toDecimalPlaces(dp, up ? Decimal.ROUND_UP : Decimal.ROUND_DOWN);
  }
  if (d[0] === 0) return x;
  // Word i holds the digits of positions 7(k − i) … 7(k − i) + 6 (position p: the digit of 10^p); k is d[0]'s.
  const k = Math.floor(e / 7);
  // The word holding position −dp, the last one kept, and how many of its low digits lie below it.
  const q = Math.floor(-dp / 7);
  const last = k - q;
  const r = -dp - 7 * q;
  if (last >= d.length) return x; // every digit is at or above position −dp
  if (last < 0) {
    // Every digit is below position −dp: zero, or one unit of the last place.
    return up ? decimalOfParts(s, -dp, [POW10[r]!]) : decimalOfParts(s, 0, [0]);
  }
  const w = d[last]!;
  const unit = POW10[r]!;
  const low = w % unit;
  // The last word is never zero in decimal.js's form, so any word after `last` means digits are dropped.
  if (low === 0 && last === d.length - 1) return x;
  const words = d.slice(0, last + 1);
  words[last] = w - low;
  let top = k;
  if (up) {
    let i = last;
    words[i] = words[i]! + unit;
    while (words[i]! >= BASE) {
      words[i] = words[i]! - BASE;
      if (i === 0) {
        words.unshift(1);
        top++;
        break;
      }
      i--;
      words[i] = words[i]! + 1;
    }
  }
  let n = words.length;
  while (n > 1 && words[n - 1] === 0) n--;
  words.length = n;
  if (words[0] === 0) return decimalOfParts(s, 0, [0]);
  let digits = 1;
  for (let v = words[0]!; v >= 10; v = (v / 10) | 0) digits++;
  return decimalOfParts(s, 7 * top + digits - 1, words);
}
