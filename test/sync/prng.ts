/**
 * The seeded generator of property tests and benches: src/core/prng.ts's mulberry32 (so a test and the fault
 * dice draw the very same numbers from the same seed), with the few distributions the tests want on top.
 */
import { mulberry32 } from '../../src/core/prng.js';

/** A small seeded PRNG so property tests and benches are reproducible without extra dependencies. */
export class Prng {
  readonly #next: () => number;
  constructor(seed: number) {
    this.#next = mulberry32(seed);
  }
  /** Uniform in [0, 1). */
  next(): number {
    return this.#next();
  }
  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** One of `xs`, uniformly (one draw). */
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** Geometric-ish index in [0, n): small indices much more likely (book activity clusters at the top). */
  nearTop(n: number, p = 0.15): number {
    let i = 0;
    while (i < n - 1 && !this.chance(p)) i++;
    return i;
  }
}
