/**
 * The "fair value" of a synthetic market: a log-normal random walk with a weak pull back to its anchor.
 *
 * The walk is a statistical model, not money, so its state is a float log-price; what reaches the engine is
 * always an exact Decimal rounded to the market's precision (see {@link PriceWalk.mid}). Float arithmetic is
 * deterministic for a given sequence of operations, so the same seed still gives the same path.
 */
import { Decimal, type Decimal as DecimalT } from '../../core/decimal.js';
import type { Prng } from './prng.js';

/** Parameters of a {@link PriceWalk}. */
export interface PriceWalkParams {
  /** Where the walk starts, and what it is pulled back to. */
  anchor: DecimalT;
  /** Standard deviation of the log-price change over one second (0.0002 = 2 bps per √s ≈ 1.2 % per hour). */
  volatilityPerSqrtSecond: number;
  /**
   * Mean-reversion speed towards the anchor, per second (Ornstein-Uhlenbeck on the log-price). Small, so a
   * minute looks like a random walk but a day-long demo does not wander to absurd prices. 0 = pure walk.
   */
  anchorPullPerSecond: number;
  /** Decimals of the market's prices. */
  precision: number;
}

/**
 * @example
 * const walk = new PriceWalk({ anchor: dec('30000'), volatilityPerSqrtSecond: 0.0002, anchorPullPerSecond: 0, precision: 3 }, rng);
 * walk.advance(1000);
 * walk.mid(); // e.g. 30004.112
 */
export class PriceWalk {
  readonly #params: PriceWalkParams;
  readonly #rng: Prng;
  readonly #logAnchor: number;
  readonly #tick: DecimalT;
  #logMid: number;

  constructor(params: PriceWalkParams, rng: Prng) {
    this.#params = params;
    this.#rng = rng;
    this.#logAnchor = Math.log(params.anchor.toNumber());
    this.#logMid = this.#logAnchor;
    this.#tick = new Decimal(1).div(new Decimal(10).pow(params.precision));
  }

  /** Move the walk forward by `ms` milliseconds (one Gaussian step; the variance scales with time). */
  advance(ms: number): void {
    if (ms <= 0) return;
    const dt = ms / 1000;
    const p = this.#params;
    const pull = -p.anchorPullPerSecond * (this.#logMid - this.#logAnchor) * dt;
    this.#logMid += pull + p.volatilityPerSqrtSecond * Math.sqrt(dt) * this.#rng.normal();
  }

  /** The current mid, exact, at the market's precision and at least one tick. */
  mid(): DecimalT {
    // 15 significant digits is what a double carries; the rest would be noise.
    const raw = new Decimal(Math.exp(this.#logMid).toPrecision(15));
    const rounded = raw.toDecimalPlaces(this.#params.precision, Decimal.ROUND_HALF_EVEN);
    return rounded.lt(this.#tick) ? this.#tick : rounded;
  }
}
