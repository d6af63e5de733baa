/**
 * Exact decimal arithmetic for money.
 *
 * rexbot uses one configured decimal.js constructor everywhere so that balances, fills, fees and PnL are exact
 * and every currency is conserved to the last 1e-8. Wire values are parsed once at the edge with
 * {@link parseDecimal}; everything inside the kernel is a {@link Decimal}.
 */
import { Decimal as DecimalJs } from 'decimal.js';
import './string-prototype-fast.js'; // the scans below use charCodeAt: that module keeps it inlined
import { WireNumber } from './wire-number.js';

/**
 * The project's decimal type. 40 significant digits covers any 8-dp amount up to 1e31, far past any
 * realistic balance, so arithmetic on wire values never rounds.
 */
export const Decimal = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -40,
  toExpPos: 40,
});
/** An exact decimal value. */
export type Decimal = InstanceType<typeof Decimal>;

/**
 * decimal.js's own `cmp`, `plus`, `minus`, `times` and `div`, as they were before decimal-fast.ts put exact fast
 * paths in front of them: what those fall back to, and what tests compare them with. decimal.js's clones share one
 * prototype, so these are the methods of every decimal.js constructor in the process.
 */
export const decimalJs = (() => {
  const P = Decimal.prototype as unknown as Record<'cmp' | 'plus' | 'minus' | 'times' | 'div', (this: Decimal, y: DecimalInput) => unknown>;
  return {
    cmp: P.cmp as (this: Decimal, y: DecimalInput) => number,
    plus: P.plus as (this: Decimal, y: DecimalInput) => Decimal,
    minus: P.minus as (this: Decimal, y: DecimalInput) => Decimal,
    times: P.times as (this: Decimal, y: DecimalInput) => Decimal,
    div: P.div as (this: Decimal, y: DecimalInput) => Decimal,
  };
})();

/** Zero, shared (decimal.js values are immutable). */
export const ZERO: Decimal = new Decimal(0);
/** One, shared. */
export const ONE: Decimal = new Decimal(1);

/** Anything the wire may carry for a number: JSON strings like `"0.00010000"` or JSON numbers. */
export type DecimalInput = string | number | Decimal;

const DECIMAL_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** decimal.js's documented representation: base-1e7 words `d`, decimal exponent `e`, sign `s`. */
interface DecimalParts {
  s: number;
  e: number;
  d: number[];
}

/**
 * A Decimal built straight from its parts: the same own properties (`constructor`, `s`, `e`, `d`, in that order)
 * and prototype as one made by decimal.js's constructor, so it is a Decimal in every respect (instanceof, methods,
 * equality), without running the constructor's type dispatch and throwing away the `[0]` it allocates.
 */
const DecimalOfParts = function (this: DecimalParts & { constructor: unknown }, s: number, e: number, d: number[]) {
  this.constructor = Decimal;
  this.s = s;
  this.e = e;
  this.d = d;
} as unknown as new (s: number, e: number, d: number[]) => DecimalParts;
DecimalOfParts.prototype = Decimal.prototype;

/**
 * The Decimal of sign `s`, exponent `e` and base-1e7 words `d`, which must already be decimal.js's normalised form
 * (first word non-zero unless the value is zero, no trailing zero word); for helpers that compute those parts.
 */
export function decimalOfParts(s: number, e: number, d: number[]): Decimal {
  return new DecimalOfParts(s, e, d) as unknown as Decimal;
}

/** 10^k, k = 0..7, to pad the last base-1e7 word (small integers: a double among them would make words doubles). */
const POW10 = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000];
/** 10^k, k = 0..14, to split up to 15 digits into words (all exact doubles; results go through `| 0`). */
const POW10_SPLIT = [1, 10, 100, 1000, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14];

/**
 * The wire's plain decimal form (`-?\d+(\.\d+)?`, e.g. `"30001.12300000"`) in `text[start, end)`, or undefined
 * for anything else (exponents, `+`, `.5`, garbage). Built straight into decimal.js's normalised representation,
 * exactly as its string constructor would build it, but without the regex, `replace` and one substring per
 * 7-digit word it spends on the way (the largest cost of decoding an order-book message); reading a range lets
 * a decoder take a decimal out of a larger text without cutting a string for it.
 *
 * @example
 * parsePlainDecimal('{"rate":"30001.12300000"}', 9, 23)?.toString() // '30001.123'
 * parsePlainDecimal('1e-8', 0, 4)                                    // undefined (not the plain form)
 */
export function parsePlainDecimal(text: string, start: number, end: number): Decimal | undefined {
  const k = scanPlain(text, start, end);
  if (k === SCANNED) return plainOfParts(scanned.sign, scanned.e, scanned.v, scanned.n);
  // A long value goes on from its first digit: the sign was read by the scan.
  return k === LONG ? parseLongPlainDecimal(text, scanned.sign < 0 ? start + 1 : start, end, scanned.sign) : undefined;
}

/** {@link scanPlain}'s answers: a value of up to 15 significant digits, not the plain form, a longer value. */
export const SCANNED = 0;
export const NOT_PLAIN = 1;
export const LONG = 2;

/**
 * What the last {@link scanPlain} read (one parse runs at a time: no object per value): the sign, the exponent of
 * the first significant digit, the significant digits up to the last non-zero one as an integer (0 for zero) and
 * their count. For shared-decimal.ts, which keys its table by them. (`v` starts as a fraction so its field holds
 * doubles from the start: digits go past 2^31.)
 */
export const scanned = { sign: 1, e: 0, v: 0.5, n: 0 };

/**
 * Read the plain form in `text[start, end)` into {@link scanned}: {@link SCANNED}, {@link NOT_PLAIN} (and nothing
 * read), or {@link LONG} (only the sign read).
 */
export function scanPlain(text: string, start: number, end: number): number {
  let i = start;
  let sign = 1;
  if (i < end && text.charCodeAt(i) === 45) {
    sign = -1;
    i++;
  }
  scanned.sign = sign;
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
  scanned.v = vLast;
  scanned.n = nLast;
  scannedExponent(first, dot < 0 ? end : dot);
  return SCANNED;
}

/**
 * Set `scanned.e` for a scanned value whose first significant digit is at index `first` (-1: none, the value is
 * zero) and whose decimal point is at `point` (its end when it has none). Shared by the text and byte scanners.
 */
export function scannedExponent(first: number, point: number): void {
  scanned.e = first < 0 ? 0 : first < point ? point - first - 1 : point - first;
}

/**
 * The Decimal of a scanned value: sign, exponent `e` of the first significant digit, and its `n` significant digits
 * (trailing zeros dropped) as the integer `v` (0 for zero, which keeps its sign, as decimal.js parses "-0.00").
 */
export function plainOfParts(sign: number, e: number, v: number, n: number): Decimal {
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

/**
 * {@link parsePlainDecimal} of a value with more than 15 significant digits, word by word: `i` is where its digits
 * start (after the sign the caller read), and the caller has checked there is at least one character.
 */
function parseLongPlainDecimal(text: string, i: number, end: number, sign: number): Decimal | undefined {
  let dot = -1;
  let first = -1;
  let last = -1;
  for (let j = i; j < end; j++) {
    const c = text.charCodeAt(j);
    if (c >= 48 && c <= 57) {
      if (c !== 48) {
        if (first < 0) first = j;
        last = j;
      }
    } else if (c === 46 && dot < 0 && j > i && j < end - 1) {
      dot = j;
    } else {
      return undefined;
    }
  }
  // Zero keeps its sign, as decimal.js parses "-0.00".
  if (first < 0) return new DecimalOfParts(sign, 0, [0]) as unknown as Decimal;
  const point = dot < 0 ? end : dot;
  // Exponent of the first significant digit; the first word holds digits up to a multiple-of-7 exponent boundary.
  const e = first < point ? point - first - 1 : point - first;
  // Words go to locals and then into an array literal of their exact count (an array grown by push from empty gets
  // room for 17); wire values have at most three (21 significant digits), longer ones go on in `more`.
  let w0 = 0;
  let w1 = 0;
  let w2 = 0;
  let k = 0;
  let more: number[] | undefined;
  let cap = (((e + 1) % 7) + 7) % 7 || 7;
  let word = 0;
  let count = 0;
  for (let j = first; j <= last; j++) {
    if (j === dot) continue;
    word = word * 10 + (text.charCodeAt(j) - 48);
    if (++count === cap) {
      if (k === 0) w0 = word;
      else if (k === 1) w1 = word;
      else if (k === 2) w2 = word;
      else (more ??= [w0, w1, w2]).push(word);
      k++;
      word = 0;
      count = 0;
      cap = 7;
    }
  }
  if (count > 0) {
    word *= POW10[cap - count]!;
    if (k === 0) w0 = word;
    else if (k === 1) w1 = word;
    else if (k === 2) w2 = word;
    else (more ??= [w0, w1, w2]).push(word);
    k++;
  }
  const words = k === 1 ? [w0] : k === 2 ? [w0, w1] : k === 3 ? [w0, w1, w2] : more!;
  return new DecimalOfParts(sign, e, words) as unknown as Decimal;
}

/**
 * Parse a wire decimal (string or number) exactly. Returns `undefined` when the value is not a finite decimal
 * (NaN, Infinity, `"abc"`, `""`, objects); callers turn that into an error that names the field.
 *
 * @example
 * parseDecimal('0.00010000')?.toString() // '0.0001'
 * parseDecimal(1.5)?.toString()          // '1.5'
 * parseDecimal('NaN')                    // undefined
 */
export function parseDecimal(value: unknown): Decimal | undefined {
  if (typeof value === 'string') {
    const plain = parsePlainDecimal(value, 0, value.length);
    if (plain !== undefined) return plain;
    if (!DECIMAL_RE.test(value)) return undefined;
    const d = new Decimal(value);
    return d.isFinite() ? d : undefined;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    // Number -> shortest round-trip string, so 0.1 becomes exactly 0.1 rather than its binary expansion.
    return new Decimal(String(value));
  }
  if (DecimalJs.isDecimal(value)) return new Decimal(value as DecimalJs);
  // A JSON number a double could not hold (see wire-json.ts): judged from its text, like the same value as a string.
  if (value instanceof WireNumber) return parseDecimal(value.text);
  return undefined;
}

/** Construct a decimal from trusted input (literals in code and tests). Throws on invalid input. */
export function dec(value: DecimalInput): Decimal {
  const d = parseDecimal(value);
  if (!d) throw new TypeError(`not a finite decimal: ${String(value)}`);
  return d;
}

/** True when `value` is a {@link Decimal}. */
export function isDecimal(value: unknown): value is Decimal {
  return DecimalJs.isDecimal(value);
}

/**
 * Format as the service did: a fixed-point string with 8 decimals (`"0.00010000"`).
 * Values with more than 8 decimals are rounded half-even; the engine never produces such values on the wire.
 */
export function toWire8(d: Decimal): string {
  return d.toFixed(8);
}

/** Number of digits after the decimal point, ignoring trailing zeros (`"1.2300"` -> 2). */
export function decimalPlaces(d: Decimal): number {
  return d.decimalPlaces();
}

/**
 * `a.cmp(b)` (1, 0, -1; NaN when either is NaN) without the copy of `b` decimal.js makes on every comparison (its
 * methods accept strings and numbers, so they convert the argument first: an allocation per `lt`, `eq`, `gte`, …
 * on paths that compare amounts many times per order). Finite values are compared as decimal.js compares them,
 * on the same representation (sign `s`, exponent `e`, base-1e7 words `d`); others are left to `cmp`.
 */
export function dcmp(a: Decimal, b: Decimal): number {
  const ad = (a as unknown as DecimalParts).d;
  const bd = (b as unknown as DecimalParts).d;
  if (!ad || !bd) return decimalJs.cmp.call(a, b);
  const as = (a as unknown as DecimalParts).s;
  // Either zero?
  if (!ad[0] || !bd[0]) return ad[0] ? as : bd[0] ? -(b as unknown as DecimalParts).s : 0;
  if (as !== (b as unknown as DecimalParts).s) return as;
  const ae = (a as unknown as DecimalParts).e;
  const be = (b as unknown as DecimalParts).e;
  if (ae !== be) return (ae > be) !== (as < 0) ? 1 : -1;
  const an = ad.length;
  const bn = bd.length;
  for (let i = 0, n = an < bn ? an : bn; i < n; i++) {
    if (ad[i] !== bd[i]) return (ad[i]! > bd[i]!) !== (as < 0) ? 1 : -1;
  }
  return an === bn ? 0 : (an > bn) !== (as < 0) ? 1 : -1;
}

/** `a < b` as {@link dcmp} compares (`a.lt(b)` without its allocation). */
export function dlt(a: Decimal, b: Decimal): boolean {
  return dcmp(a, b) < 0;
}

/** `a > b` as {@link dcmp} compares. */
export function dgt(a: Decimal, b: Decimal): boolean {
  return dcmp(a, b) > 0;
}

/** `a <= b` as {@link dcmp} compares. */
export function dlte(a: Decimal, b: Decimal): boolean {
  const k = dcmp(a, b);
  return k === -1 || k === 0;
}

/** `a >= b` as {@link dcmp} compares. */
export function dgte(a: Decimal, b: Decimal): boolean {
  const k = dcmp(a, b);
  return k === 1 || k === 0;
}

/** `a == b` as {@link dcmp} compares. */
export function deq(a: Decimal, b: Decimal): boolean {
  return dcmp(a, b) === 0;
}

/** Minimum of two decimals. */
export function dmin(a: Decimal, b: Decimal): Decimal {
  return dlte(a, b) ? a : b;
}

/** Maximum of two decimals. */
export function dmax(a: Decimal, b: Decimal): Decimal {
  return dgte(a, b) ? a : b;
}
