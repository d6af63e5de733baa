/**
 * Shared pieces of the randomized tests that hold a decimal fast path to decimal.js (decimal-compare, -fast,
 * -round): a seeded integer source, and the special values every fast path must hand over untouched.
 */
import { Decimal } from '../../src/core/decimal.js';
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
