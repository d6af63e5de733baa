/**
 * Capped exponential backoff for hub reconnects. Written out as data with defaults (the undici retry style) so a
 * config file can tune it and a test can pin the random source.
 *
 * Jitter only ever shortens a delay: the delay for attempt n is `base(n) × (1 − jitter × random())`, where
 * `base(n) = min(maxDelayMs, initialDelayMs × factor^(n−1))`. So the cap is a true upper bound, and many bots
 * dropped by the same server outage do not all come back in the same millisecond.
 */

/** Backoff parameters. */
export interface ReconnectOptions {
  /** Delay before the first reconnect attempt; default 1 000 ms. */
  initialDelayMs: number;
  /** Upper bound of any delay; default 30 000 ms. */
  maxDelayMs: number;
  /** Growth per failed attempt; default 2. */
  factor: number;
  /** Fraction of each delay that is randomised away, 0 (none) to 1 (full jitter); default 0.2. */
  jitter: number;
}

/** Defaults for {@link ReconnectOptions}. */
export const DEFAULT_RECONNECT: Readonly<ReconnectOptions> = Object.freeze({
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  factor: 2,
  jitter: 0.2,
});

/** A source of uniform numbers in [0, 1), like `Math.random`. Injected so tests are deterministic. */
export type RandomSource = () => number;

/**
 * Counts consecutive failed attempts and says how long to wait before the next one.
 *
 * @example
 * const policy = new ReconnectPolicy({ initialDelayMs: 500 }, () => 0.5);
 * policy.nextDelayMs(); // 450  (attempt 1: 500 less 10 % jitter)
 * policy.nextDelayMs(); // 900  (attempt 2)
 * policy.reset();       // after a connection succeeded: back to attempt 1
 */
export class ReconnectPolicy {
  readonly options: Readonly<ReconnectOptions>;
  readonly #random: RandomSource;
  #attempt = 0;

  constructor(options: Partial<ReconnectOptions> = {}, random: RandomSource = Math.random) {
    const o = { ...DEFAULT_RECONNECT, ...options };
    // Bad tuning would otherwise show up as a reconnect storm (0 ms) or a client that never comes back (NaN).
    if (!(o.initialDelayMs >= 0 && Number.isFinite(o.initialDelayMs))) {
      throw new RangeError('initialDelayMs must be a finite number >= 0');
    }
    if (!(o.maxDelayMs >= o.initialDelayMs && Number.isFinite(o.maxDelayMs))) {
      throw new RangeError('maxDelayMs must be finite and >= initialDelayMs');
    }
    if (!(o.factor >= 1 && Number.isFinite(o.factor))) throw new RangeError('factor must be a finite number >= 1');
    if (!(o.jitter >= 0 && o.jitter <= 1)) throw new RangeError('jitter must be between 0 and 1');
    this.options = Object.freeze(o);
    this.#random = random;
  }

  /** Attempts counted since the last {@link reset} (the one about to be made, after {@link nextDelayMs}). */
  get attempt(): number {
    return this.#attempt;
  }

  /** Count one more attempt and return the delay to wait before making it. */
  nextDelayMs(): number {
    this.#attempt += 1;
    return this.delayFor(this.#attempt);
  }

  /** The delay before attempt `n` (1-based), with jitter applied. Does not change the count. */
  delayFor(n: number): number {
    const { initialDelayMs, maxDelayMs, factor, jitter } = this.options;
    // After a long outage factor^n overflows to Infinity (and 0 × Infinity is NaN): both mean "at the cap".
    const grown = initialDelayMs === 0 ? 0 : initialDelayMs * factor ** Math.max(0, n - 1);
    const base = Number.isFinite(grown) ? Math.min(maxDelayMs, grown) : maxDelayMs;
    const r = Math.min(Math.max(this.#random(), 0), 1);
    return Math.round(base * (1 - jitter * r));
  }

  /** A connection succeeded: the next failure starts again from `initialDelayMs`. */
  reset(): void {
    this.#attempt = 0;
  }
}
