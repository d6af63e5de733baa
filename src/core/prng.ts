/**
 * A tiny seeded pseudo-random generator (mulberry32) for fault dice, synthetic markets and property tests: fast,
 * fully determined by its 32-bit seed, so a failing run replays exactly. Not for anything secret.
 */

/**
 * A generator of floats in [0, 1) determined by `seed`.
 *
 * @example
 * const rand = mulberry32(42);
 * rand(); // the same first value on every run
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
