/**
 * Capped exponential backoff for hub reconnects. Written out as data with defaults (the undici retry style) so a
 * config file can tune it and a test can pin the random source.
 *
 * Jitter only ever shortens a delay: the delay for attempt n is `base(n) × (1 − jitter × random())`, where
 * `base(n) = min(maxDelayMs, initialDelayMs × factor^(n−1))`. So the cap is a true upper bound, and many bots
 * dropped by the same server outage do not all come back in the same millisecond.
 *
 * The count starts over only once a connection has stayed up for `stableAfterMs`, not as soon as it is up: a
 * server that accepts every connection and drops it right away would otherwise be reconnected to (and every
 * book resynchronized over REST) once per `initialDelayMs`, forever (found by an attack pass). Long-lived
 * streaming clients commonly do the same: a connection has to prove itself before the backoff forgets the outage.
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
  /**
   * How long a connection must stay up before a loss of it counts as a fresh outage (backoff back to
   * `initialDelayMs`); a connection lost sooner keeps the backoff growing. Default 30 000 ms (six v3 heartbeats);
   * 0 resets as soon as a connection is up.
   */
  stableAfterMs: number;
}

/** Defaults for {@link ReconnectOptions}. */
export const DEFAULT_RECONNECT: Readonly<ReconnectOptions> = Object.freeze({
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  factor: 2,
  jitter: 0.2,
  stableAfterMs: 30_000,
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
 * policy.connected(t);  // a connection is up at clock time t ...
 * policy.lost(t + 500);  // ... and lost 500 ms later: not stable, so the next delay keeps growing
 * policy.nextDelayMs(); // 1800 (attempt 3)
 */
export class ReconnectPolicy {
  readonly options: Readonly<ReconnectOptions>;
  readonly #random: RandomSource;
  #attempt = 0;
  /** Clock time the current connection came up, while one is up. */
  #upSince: number | undefined;

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
    if (!(o.stableAfterMs >= 0 && Number.isFinite(o.stableAfterMs))) {
      throw new RangeError('stableAfterMs must be a finite number >= 0');
    }
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

  /** Start over from `initialDelayMs` now (a fresh start of the client, not a connection that came up). */
  reset(): void {
    this.#attempt = 0;
    this.#upSince = undefined;
  }

  /** A connection came up at clock time `at`; whether it resets the count is decided when it is {@link lost}. */
  connected(at: number): void {
    this.#upSince = at;
  }

  /**
   * The connection that came up at {@link connected} was lost at clock time `at`. Having stayed up for
   * `stableAfterMs` it was a good one: the next attempt waits `initialDelayMs` again. Lost sooner, the server is
   * probably flapping, and the backoff goes on growing from where it was.
   */
  lost(at: number): void {
    if (this.#upSince !== undefined && at - this.#upSince >= this.options.stableAfterMs) this.#attempt = 0;
    this.#upSince = undefined;
  }
}
