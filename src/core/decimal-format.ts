/**
 * Writing decimals as wire text, fast: `toFixed(8)` (the service's answers) and `toFixed()` (what clients send),
 * read straight from decimal.js's representation. decimal.js spends most of a `toFixed(8)` building a rounded
 * copy and padding strings through its generic paths, and every REST answer of the simulator writes a dozen
 * decimals; an exact value (every value on the wire: at most 8 decimals) needs none of that.
 *
 * Values these do not cover (more decimals than asked for, which need rounding; NaN, Infinity) go to decimal.js,
 * so the text is always exactly what `toFixed` answers.
 */
import type { Decimal } from './decimal.js';

/** decimal.js's documented representation: base-1e7 words `d`, decimal exponent `e`, sign `s`. */
interface DecimalParts {
  s: number;
  e: number;
  d: number[] | null;
}

const ZEROS = '00000000000000000000000000000000000000000000000000';
/**
 * Zero's text at 0..40 places, made once: zero is the commonest value written (an order's fill, proceeds and
 * commission until it trades), and a backtest keeps every closed order's line, so each zero shares one string.
 */
const ZERO_TEXT = Array.from({ length: 41 }, (_, dp) => (dp === 0 ? '0' : `0.${zeros(dp)}`));

/** `n` zeros (a slice of {@link ZEROS} up to its length). */
function zeros(n: number): string {
  return n <= ZEROS.length ? ZEROS.slice(0, n) : '0'.repeat(n);
}

/** `w` as exactly 7 digits (every word but the first). */
function word7(w: number): string {
  const s = String(w);
  return s.length === 7 ? s : zeros(7 - s.length) + s;
}

/**
 * `d.toFixed(dp)` (or `d.toFixed()` when `dp` is undefined), byte for byte.
 *
 * @example
 * formatFixed(dec('0.1'), 8)   // '0.10000000'
 * formatFixed(dec('-12.5'))    // '-12.5'
 */
export function formatFixed(d: Decimal, dp?: number): string {
  const x = d as unknown as DecimalParts;
  const words = x.d;
  // Non-finite values, and exponents so far out that padding would be absurd, are decimal.js's to write.
  if (words === null || x.e > 40 || x.e < -40) return dp === undefined ? d.toFixed() : d.toFixed(dp);
  if (words.length === 1 && words[0] === 0) return dp === undefined ? '0' : (ZERO_TEXT[dp] ?? `0.${zeros(dp)}`);
  let digits = String(words[0]);
  for (let i = 1; i < words.length; i++) digits += word7(words[i]!);
  // Trailing zeros of the last word are not significant.
  let len = digits.length;
  while (len > 1 && digits.charCodeAt(len - 1) === 48) len--;
  const e = x.e;
  const places = len - e - 1;
  if (dp !== undefined && places > dp) return d.toFixed(dp); // needs rounding: decimal.js's rounding mode decides
  let out: string;
  if (e >= 0) {
    const intLen = e + 1;
    if (len <= intLen) {
      out = digits.slice(0, len) + zeros(intLen - len);
      if (dp) out += `.${zeros(dp)}`;
    } else {
      out = `${digits.slice(0, intLen)}.${digits.slice(intLen, len)}`;
      if (dp !== undefined && places < dp) out += zeros(dp - places);
    }
  } else {
    out = `0.${zeros(-e - 1)}${digits.slice(0, len)}`;
    if (dp !== undefined && places < dp) out += zeros(dp - places);
  }
  return x.s < 0 ? `-${out}` : out;
}
