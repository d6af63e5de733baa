/**
 * Shared pieces of the randomized tests that hold a decimal fast path to decimal.js (decimal-compare, -fast,
 * -round, -words): a seeded integer source, the special values every fast path must hand over untouched, and the
 * check that a fast path's answer is decimal.js's to the last word.
 */
import { expect } from 'vitest';
import { Decimal } from '../../src/core/decimal.js';
import { type What, whatText } from './cheap-expect.js';
import { mulberry32 } from '../../src/core/prng.js';

/** Integers in [0, n) from a seeded generator: the same sequence on every run, so a failure replays. */
export function seededInts(seed: number): (n: number) => number {
  const rand = mulberry32(seed);
  return (n) => Math.floor(rand() * n);
}

/**
 * NaN, ±Infinity or ±0 on 3 draws in `outOf`, else undefined (then the caller makes an ordinary value).
 *
 * @example
 * const rnd = seededInts(1);
 * specialDecimal(rnd, 40) ?? dec('1.5');
 */
export function specialDecimal(rnd: (n: number) => number, outOf: number): Decimal | undefined {
  const k = rnd(outOf);
  if (k === 0) return new Decimal(NaN);
  if (k === 1) return new Decimal(rnd(2) ? Infinity : -Infinity);
  if (k === 2) return new Decimal(rnd(2) ? '0' : '-0');
  return undefined;
}

/** Sign, exponent and words: equal values with different words would still print the same. */
export function decimalParts(d: Decimal): string {
  const p = d as unknown as { s: number; e: number; d: number[] | null };
  return JSON.stringify([Object.is(p.s, -0) ? '-0' : p.s, p.e, p.d]);
}

/** Sign, exponent and words of `a` and `b` are the same (-0 and 0 told apart, NaN equal to NaN). */
function sameParts(a: Decimal, b: Decimal): boolean {
  const p = a as unknown as { s: number; e: number; d: number[] | null };
  const q = b as unknown as { s: number; e: number; d: number[] | null };
  if (!Object.is(p.s, q.s) || !Object.is(p.e, q.e)) return false;
  if (p.d === null || q.d === null) return p.d === q.d;
  if (p.d.length !== q.d.length) return false;
  for (let i = 0; i < p.d.length; i++) if (p.d[i] !== q.d[i]) return false;
  return true;
}

/**
 * `got` is `want` to the last word, prints the same and is a real Decimal. The randomized tests call this hundreds
 * of thousands of times: the comparison is plain code and `expect` (tens of µs a call) runs only to report a
 * mismatch, so a run costs seconds rather than a minute; `what` may be a function, built only then.
 */
export function expectSameDecimal(got: Decimal, want: Decimal, what: What): void {
  if (got instanceof Decimal && sameParts(got, want) && got.toString() === want.toString()) return;
  const text = whatText(what);
  expect(decimalParts(got), text).toBe(decimalParts(want));
  expect(got.toString(), text).toBe(want.toString());
  expect(got instanceof Decimal, text).toBe(true);
}

/**
 * A random Decimal, mostly what money looks like (up to 16 digits: integers with trailing zeros, tiny fractions,
 * both signs) and sometimes long values (up to 30 digits), with the special values on 3 draws in 80.
 */
export function randomMoneyDecimal(rnd: (n: number) => number): Decimal {
  const special = specialDecimal(rnd, 80);
  if (special) return special;
  const digits = 1 + (rnd(6) === 0 ? rnd(30) : rnd(16));
  let s = String(1 + rnd(9));
  for (let i = 1; i < digits; i++) s += String(rnd(3) === 0 ? 0 : rnd(10));
  const point = rnd(digits + 16) - 8;
  const text = point <= 0 ? `0.${'0'.repeat(-point)}${s}` : point >= digits ? s + '0'.repeat(point - digits) : `${s.slice(0, point)}.${s.slice(point)}`;
  return new Decimal(rnd(4) === 0 ? `-${text}` : text);
}
