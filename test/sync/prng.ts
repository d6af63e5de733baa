/** A small seeded PRNG (mulberry32) so property tests and benches are reproducible without extra dependencies. */
export class Prng {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
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
