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
import { Decimal, dcmp, decimalJs, plainOfParts, type DecimalInput } from './decimal.js';
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

/** `a × b` when the fast path can answer it exactly, else undefined. */
export function fastTimes(a: Decimal, b: Decimal): Decimal | undefined {
  if (!split(a, 0) || !split(b, 1)) return undefined;
  const v = slots.v0 * slots.v1;
  // A double product below 10^15 is exact (both factors are integers and the exact product is below 2^53).
  if (v >= LIMIT) return undefined;
  return build((a as unknown as Parts).s * (b as unknown as Parts).s, v, slots.p0 + slots.p1);
}

/** `a.times(b)`. */
export function dmul(a: Decimal, b: Decimal): Decimal {
  return fastTimes(a, b) ?? decimalJs.times.call(a, b);
}

/**
 * `a.plus(b)`: on decimal.js's words (decimal-words.ts), which needs no splitting into doubles and covers up to 40
 * digits (as fast as the doubles were on short values, and long balances no longer fall through to decimal.js).
 */
export function dadd(a: Decimal, b: Decimal): Decimal {
  return wordSum(a, b, 1) ?? decimalJs.plus.call(a, b);
}

/** `a.minus(b)`, as {@link dadd} does it. */
export function dsub(a: Decimal, b: Decimal): Decimal {
  return wordSum(a, b, -1) ?? decimalJs.minus.call(a, b);
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

/** `a / 2` when the fast path can answer it exactly (`v × 5` one place further down within 15 digits), else undefined. */
export function fastHalf(a: Decimal): Decimal | undefined {
  if (!split(a, 0) || slots.v0 * 5 >= LIMIT) return undefined;
  return build((a as unknown as Parts).s, slots.v0 * 5, slots.p0 - 1);
}

/** `a.div(2)`: a mid of two rates. */
export function dhalf(a: Decimal): Decimal {
  return fastHalf(a) ?? decimalJs.div.call(a, TWO);
}

/** True for a Decimal of rexbot's own constructor (its config, not another decimal.js clone sharing the prototype). */
function ours(x: unknown): x is Decimal {
  return typeof x === 'object' && x !== null && (x as { constructor: unknown }).constructor === Decimal;
}

/** The constructor's settings the fast paths answer for (decimal-words.ts: 40 digits; -0 by the rounding mode). */
const settings = Decimal as unknown as { precision: number };

/**
 * Put the exact fast paths above in front of decimal.js's own `cmp`, `plus`, `minus`, `times` and `div` (and so
 * `eq`, `lt`, `gt`, `lte`, `gte`, `add`, `sub`, `mul`, which decimal.js defines as the same functions or through
 * `cmp`), so every caller gets them: a strategy's `mid.times(f)` or `a.lt(b)` as much as the kernel's dmul. Each
 * answers what decimal.js answers (same value and representation; test/core/decimal-methods.test.ts compares them)
 * and hands everything else to it: an argument that is a string or a number, a Decimal of another decimal.js clone
 * (clones share the prototype), or a constructor whose precision was changed from 40.
 */
function installFastMethods(): void {
  const P = Decimal.prototype as unknown as Record<string, unknown>;
  if ((P.cmp as { rexbotFast?: true }).rexbotFast) return;
  const cmp = function (this: Decimal, y: DecimalInput): number {
    return ours(y) && this.constructor === Decimal ? dcmp(this, y) : decimalJs.cmp.call(this, y);
  };
  const plus = function (this: Decimal, y: DecimalInput): Decimal {
    return (ours(y) && this.constructor === Decimal && settings.precision === 40 && wordSum(this, y, 1)) || decimalJs.plus.call(this, y);
  };
  const minus = function (this: Decimal, y: DecimalInput): Decimal {
    return (ours(y) && this.constructor === Decimal && settings.precision === 40 && wordSum(this, y, -1)) || decimalJs.minus.call(this, y);
  };
  const times = function (this: Decimal, y: DecimalInput): Decimal {
    return (ours(y) && this.constructor === Decimal && settings.precision === 40 && fastTimes(this, y)) || decimalJs.times.call(this, y);
  };
  const div = function (this: Decimal, y: DecimalInput): Decimal {
    return (isTwo(y) && this.constructor === Decimal && settings.precision === 40 && fastHalf(this)) || decimalJs.div.call(this, y);
  };
  Object.defineProperty(cmp, 'rexbotFast', { value: true });
  P.cmp = P.comparedTo = cmp;
  P.plus = P.add = plus;
  P.minus = P.sub = minus;
  P.times = P.mul = times;
  P.div = P.dividedBy = div;
}

/** `y` is a Decimal of ours equal to 2 (decimal.js's form of 2: sign 1, exponent 0, words [2]). */
function isTwo(y: unknown): y is Decimal {
  if (!ours(y)) return false;
  const p = y as unknown as Parts;
  return p.s === 1 && p.e === 0 && p.d !== null && p.d.length === 1 && p.d[0] === 2;
}

// Last: every module that does arithmetic fast imports this one, so the methods get their fast paths with it.
installFastMethods();
