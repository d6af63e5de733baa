/**
 * Exact `+` and `−` of decimals too long for decimal-fast.ts's doubles (more than 15 significant digits, such as
 * a balance of 10,000,000,000 with 8 decimals, or a large reservation), computed on decimal.js's own base-1e7
 * words: what its `plus` and `minus` answer (same value, same representation), without the copy of the argument,
 * the words array sliced and re-padded, and the precision rounding pass each of them runs. The simulator's ledger
 * moves, reservations, order totals and market-data sums met these on every fill with realistic balances.
 *
 * Both operands' words are aligned by word exponent (decimal.js keeps the first word's exponent at `floor(e / 7)`),
 * so no digit is shifted: the sum is one pass with carries (or borrows) over at most {@link MAX_WORDS} words. The
 * answer is exact (a sum that cancels is decimal.js's zero: -0 when rounding towards -Infinity, else 0; a zero
 * operand gives the other one); when the exact value would have more than the constructor's 40 significant digits
 * (decimal.js would round it), or both operands are zero, or one is NaN or infinite, `undefined` hands the
 * operation back to decimal.js. test/core/decimal-words.test.ts compares both.
 */
import { Decimal, decimalOfParts } from './decimal.js';

/** decimal.js's representation: sign, exponent of the first significant digit, base-1e7 words. */
interface Parts {
  s: number;
  e: number;
  d: number[] | null;
}

const BASE = 10_000_000;
/** Words spanned by both operands together: 8 words (56 digits) is beyond what a 40-digit answer can span. */
const MAX_WORDS = 8;
/** The constructor's precision (core/decimal.ts): an exact answer longer than this is rounded by decimal.js. */
const PRECISION = 40;

/**
 * The aligned words, most significant first; slot 0 takes a carry. Small integers only (never a double), so the
 * answer's words, copied from here, are small integers like decimal.js's own.
 */
const acc = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

/** Decimal digits of a word (1..7); a word is below 1e7. */
function digitsOf(w: number): number {
  return w < 10 ? 1 : w < 100 ? 2 : w < 1000 ? 3 : w < 10_000 ? 4 : w < 100_000 ? 5 : w < 1_000_000 ? 6 : 7;
}

/** Trailing zero digits of a non-zero word. */
function trailingZeros(w: number): number {
  let t = 0;
  while (w % 10 === 0) {
    w /= 10;
    t++;
  }
  return t;
}

/** Significant digits of normalised non-zero words (first and last word non-zero). */
function significantDigits(d: number[]): number {
  const last = d[d.length - 1]!;
  return d.length === 1 ? digitsOf(last) - trailingZeros(last) : digitsOf(d[0]!) + 7 * (d.length - 2) + 7 - trailingZeros(last);
}

/** −1, 0 or 1: |a| against |b|, both non-zero and normalised, with first-word exponents `ka` and `kb`. */
function compareMagnitude(ad: number[], ka: number, bd: number[], kb: number): number {
  if (ka !== kb) return ka > kb ? 1 : -1;
  const n = ad.length > bd.length ? ad.length : bd.length;
  for (let i = 0; i < n; i++) {
    const x = i < ad.length ? ad[i]! : 0;
    const y = i < bd.length ? bd[i]! : 0;
    if (x !== y) return x > y ? 1 : -1;
  }
  return 0;
}

/** `acc[first..last]` as a new array: literals for the usual lengths (packed, exactly sized), pushes beyond. */
function wordsOf(first: number, last: number): number[] {
  switch (last - first) {
    case 0:
      return [acc[first]!];
    case 1:
      return [acc[first]!, acc[first + 1]!];
    case 2:
      return [acc[first]!, acc[first + 1]!, acc[first + 2]!];
    case 3:
      return [acc[first]!, acc[first + 1]!, acc[first + 2]!, acc[first + 3]!];
  }
  const d: number[] = [];
  for (let j = first; j <= last; j++) d.push(acc[j]!);
  return d;
}

/**
 * `a + sign × b` (sign ±1) exactly, in decimal.js's normalised form, or undefined where decimal.js must answer
 * (see the module note).
 */
export function wordSum(a: Decimal, b: Decimal, sign: number): Decimal | undefined {
  const A = a as unknown as Parts;
  const B = b as unknown as Parts;
  const ad = A.d;
  const bd = B.d;
  if (ad === null || bd === null) return undefined;
  // One operand zero: the other (negated for `0 − b`), unless it is too long to come back unrounded. Both zero is
  // decimal.js's (the zero's sign).
  if (ad[0] === 0 || bd[0] === 0) {
    if (ad[0] === 0 && bd[0] === 0) return undefined;
    if (bd[0] === 0) return significantDigits(ad) > PRECISION ? undefined : a;
    if (significantDigits(bd) > PRECISION) return undefined;
    return sign === 1 ? b : decimalOfParts(-B.s, B.e, bd.slice());
  }
  const ka = Math.floor(A.e / 7);
  const kb = Math.floor(B.e / 7);
  const la = ad.length;
  const lb = bd.length;
  // Word exponents covered: from the higher first word down to the lower last word.
  const top = ka > kb ? ka : kb;
  const lowA = ka - la + 1;
  const lowB = kb - lb + 1;
  const low = lowA < lowB ? lowA : lowB;
  const n = top - low + 1;
  if (n > MAX_WORDS) return undefined;
  for (let j = 0; j <= n; j++) acc[j] = 0;
  const sb = B.s * sign;
  let s = A.s;
  // Slot of a word with exponent k: top + 1 - k (slot 0 is the carry above `top`).
  if (A.s === sb) {
    for (let i = 0; i < la; i++) acc[top + 1 - ka + i] = ad[i]!;
    for (let i = 0; i < lb; i++) acc[top + 1 - kb + i]! += bd[i]!;
    for (let j = n; j > 0; j--) {
      if (acc[j]! >= BASE) {
        acc[j]! -= BASE;
        acc[j - 1]! += 1;
      }
    }
  } else {
    const c = compareMagnitude(ad, ka, bd, kb);
    // Equal magnitudes cancel (a reservation used up, a balance spent to zero): decimal.js's signed zero.
    if (c === 0) return decimalOfParts((Decimal as unknown as { rounding: number }).rounding === 3 ? -1 : 1, 0, [0]);
    // The larger magnitude minus the smaller; the answer has the larger one's sign.
    const big = c > 0 ? ad : bd;
    const kBig = c > 0 ? ka : kb;
    const small = c > 0 ? bd : ad;
    const kSmall = c > 0 ? kb : ka;
    if (c < 0) s = sb;
    for (let i = 0; i < big.length; i++) acc[top + 1 - kBig + i] = big[i]!;
    for (let i = 0; i < small.length; i++) acc[top + 1 - kSmall + i]! -= small[i]!;
    for (let j = n; j > 0; j--) {
      if (acc[j]! < 0) {
        acc[j]! += BASE;
        acc[j - 1]! -= 1;
      }
    }
  }
  let first = 0;
  while (acc[first] === 0) first++;
  let last = n;
  while (acc[last] === 0) last--;
  const w0 = acc[first]!;
  const d = wordsOf(first, last);
  if (significantDigits(d) > PRECISION) return undefined;
  // The first word's exponent is top + 1 - first; the value's exponent is that of its first digit.
  return decimalOfParts(s, 7 * (top + 1 - first) + digitsOf(w0) - 1, d);
}
