/**
 * A small seeded pseudo-random generator for the market driver, so a synthetic market run is a pure function of
 * its seed and the clock: same seed, same mid path, same orders, same trades.
 *
 * The generator is sfc32 (Chris Doty-Humphrey's "small fast counting" generator: 128-bit state, passes
 * PractRand to terabytes), seeded through splitmix32 from a string or number. `Math.random` cannot be seeded and
 * a cryptographic generator is needlessly slow for a simulation that draws thousands of numbers per second.
 */

/** Hash a seed (number or text) to 32 bits (FNV-1a over the text form). */
function hashSeed(seed: number | string): number {
  const text = String(seed);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** splitmix32 step: spreads a 32-bit seed over the state words so nearby seeds give unrelated streams. */
function splitmix32(state: { s: number }): number {
  state.s = (state.s + 0x9e3779b9) | 0;
  let z = state.s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * Seeded random numbers with the distributions the driver needs.
 *
 * @example
 * const rng = new Prng('demo');
 * rng.next();          // uniform in [0, 1)
 * rng.normal();        // standard normal
 * rng.exponential(2);  // mean 0.5
 * rng.fork('BTC-USD'); // an independent stream, still determined by 'demo'
 */
export class Prng {
  readonly #seed: string;
  #a: number;
  #b: number;
  #c: number;
  #d: number;
  /** Second value of the last Box-Muller pair, used by the next {@link Prng.normal} call. */
  #spareNormal: number | undefined;

  constructor(seed: number | string) {
    this.#seed = String(seed);
    const st = { s: hashSeed(seed) };
    this.#a = splitmix32(st);
    this.#b = splitmix32(st);
    this.#c = splitmix32(st);
    this.#d = splitmix32(st);
    // Discard the first outputs: sfc32 mixes its state over the first few rounds.
    for (let i = 0; i < 12; i++) this.#u32();
  }

  /** An independent generator derived from this seed and `label` (one per market / participant). */
  fork(label: string): Prng {
    return new Prng(`${this.#seed}/${label}`);
  }

  /** Uniform in [0, 1), 32 bits of resolution. */
  next(): number {
    return this.#u32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Uniform integer in [min, max] (both included). */
  intBetween(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  /** Uniform in [min, max). */
  uniform(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Standard normal (Box-Muller, both values of each pair used). */
  normal(): number {
    if (this.#spareNormal !== undefined) {
      const v = this.#spareNormal;
      this.#spareNormal = undefined;
      return v;
    }
    // 1 - next() is in (0, 1], so the logarithm is finite.
    const u = 1 - this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.#spareNormal = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** Exponential with the given rate (mean `1 / rate`): the waiting time between Poisson events. */
  exponential(rate: number): number {
    return -Math.log(1 - this.next()) / rate;
  }

  #u32(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return t >>> 0;
  }
}
