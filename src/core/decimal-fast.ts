/**
 * Exact `×`, `+`, `−` and halving of decimals, what decimal.js's `times`, `plus`, `minus` and `div(2)` answer (same
 * value, same representation), without the copy of the argument, the general word loops and the precision rounding
 * each of its operations runs (an allocation or three a call on paths that do this several times per order: buy
 * reserves, fill estimates, ledger balances, marks). `+` and `−` work on decimal.js's words (decimal-words.ts, up
 * to 40 digits); `×` and halving of values with few significant digits on integers, as follows.
 *
 * A finite non-zero decimal is `sign × V × 10^p` with V an integer without trailing zeros. When both operands'
 * V are below 10^15 and the result's V is too, every step is an exact operation on doubles (integers below 2^53),
 * and the result has far fewer than the 40 significant digits decimal.js would round to, so its answer is this
 * exact value; {@link plainOfParts} builds it in decimal.js's normalised form. Anything else (zeros, NaN, ±∞,
 * longer values, larger results) goes to decimal.js itself. test/core/decimal-fast.test.ts compares both on
 * random values, words and signs included.
 */
import { Decimal, plainOfParts } from './decimal.js';
import { wordSum } from './decimal-words.js';

/** decimal.js's representation: sign, exponent of the first significant digit, base-1e7 words. */
interface Parts {
  s: number;
  e: number;
  d: number[] | null;
}

/** Results and operands are kept below this many units: 15 digits, what {@link plainOfParts} builds. */
const LIMIT = 1e15;
/** 10^k for exact scaling, k = 0..15. */
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * The last operand split by {@link split}: its integer significand `v` (no trailing zeros) and the exponent `p` of
 * its last digit. Two slots, so a binary operation reads both without an object per operand; fields of one object
 * (starting as doubles) rather than module variables, whose every double store would box a new number.
 */
const slots = { v0: 0.5, p0: 0, v1: 0.5, p1: 0 };

/** Split `x` into slot 0 or 1; false when it is zero, not finite, or has more than 15 significant digits. */
function split(x: Decimal, slot: 0 | 1): boolean {
  const d = (x as unknown as Parts).d;
  if (d === null || d.length > 3) return false;
  const len = d.length;
  // The last word is never zero in decimal.js's form, but for zero itself ([0]).
  let last = d[len - 1]!;
  if (last === 0) return false;
  // Its trailing zeros (padding to 7 digits, or the value's own) come off first, so every step below stays exact.
  let t = 0;
  while (last % 10 === 0) {
    last /= 10;
    t++;
  }
  const first = d[0]!;
  const n0 = first < 10 ? 1 : first < 100 ? 2 : first < 1000 ? 3 : first < 10_000 ? 4 : first < 100_000 ? 5 : first < 1_000_000 ? 6 : 7;
  // Significant digits: those of the first word, 7 per further word, less the last word's trailing zeros.
  if (n0 + 7 * (len - 1) - t > 15) return false;
  const v = len === 1 ? last : len === 2 ? first * POW10[7 - t]! + last : (first * 1e7 + d[1]!) * POW10[7 - t]! + last;
  // The exponent of the last digit: d[0]'s word exponent is floor(e / 7), each further word one lower.
  const p = 7 * (Math.floor((x as unknown as Parts).e / 7) - len + 1) + t;
  if (slot === 0) {
    slots.v0 = v;
    slots.p0 = p;
  } else {
    slots.v1 = v;
    slots.p1 = p;
  }
  return true;
}

/** The Decimal of `sign × v × 10^p` (v a non-zero integer below 10^15), in decimal.js's normalised form. */
function build(sign: number, v: number, p: number): Decimal {
  while (v % 10 === 0) {
    v /= 10;
    p++;
  }
  let n = 1;
  while (n < 16 && v >= POW10[n]!) n++;
  return plainOfParts(sign, p + n - 1, v, n);
}

/** `a.times(b)`. */
export function dmul(a: Decimal, b: Decimal): Decimal {
  if (!split(a, 0) || !split(b, 1)) return a.times(b);
  const v = slots.v0 * slots.v1;
  // A double product below 10^15 is exact (both factors are integers and the exact product is below 2^53).
  if (v >= LIMIT) return a.times(b);
  return build((a as unknown as Parts).s * (b as unknown as Parts).s, v, slots.p0 + slots.p1);
}

/**
 * `a.plus(b)`: on decimal.js's words (decimal-words.ts), which needs no splitting into doubles and covers up to 40
 * digits (as fast as the doubles were on short values, and long balances no longer fall through to decimal.js).
 */
export function dadd(a: Decimal, b: Decimal): Decimal {
  return wordSum(a, b, 1) ?? a.plus(b);
}

/** `a.minus(b)`, as {@link dadd} does it. */
export function dsub(a: Decimal, b: Decimal): Decimal {
  return wordSum(a, b, -1) ?? a.minus(b);
}

/**
 * `a + b`, without an operation when either is zero: the other one itself is the sum (decimal.js values are
 * immutable). Running totals (an order's filled quantity, proceeds, commission; a plan's sums) start at zero, so
 * their first addition, often their only one, is free; the others go through {@link dadd}.
 */
export function dsum(a: Decimal, b: Decimal): Decimal {
  return a.isZero() ? b : b.isZero() ? a : dadd(a, b);
}

const TWO = new Decimal(2);

/** `a.div(2)`: a mid of two rates, `v × 5` one place further down when that stays within 15 digits. */
export function dhalf(a: Decimal): Decimal {
  if (!split(a, 0) || slots.v0 * 5 >= LIMIT) return a.div(TWO);
  return build((a as unknown as Parts).s, slots.v0 * 5, slots.p0 - 1);
}
