/** Small seeded helpers over src/core/prng.ts's mulberry32 for the server fuzzers: every choice comes from the seed. */
import { mulberry32 } from '../../../src/core/prng.js';

/** A generator of floats in [0, 1). */
export type Rand = () => number;

/** A generator for `seed` (mulberry32). */
export const seeded = (seed: number): Rand => mulberry32(seed);

/** An integer in [lo, hi]. */
export const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

/** One element of `xs`. */
export const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** True with probability `p`. */
export const chance = (r: Rand, p: number): boolean => r() < p;

/** `n` lowercase hex digits. */
export function hex(r: Rand, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += '0123456789abcdef'[int(r, 0, 15)];
  return s;
}

/** A version-4-shaped uuid. */
export function uuid(r: Rand): string {
  return `${hex(r, 8)}-${hex(r, 4)}-4${hex(r, 3)}-8${hex(r, 3)}-${hex(r, 12)}`;
}

/** The seed to run: `REXBOT_FUZZ_SEED` (to replay a failure) or the file's fixed one. */
export function fuzzSeed(fixed: number): number {
  const env = process.env.REXBOT_FUZZ_SEED;
  return env ? Number(env) >>> 0 : fixed;
}
