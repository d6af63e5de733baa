/**
 * Replay and brute-force defences of the simulator's signed REST requests (issue 9 item 8).
 *
 * - Replays: a signed request is valid anywhere in the ±window of its Api-Timestamp, so a captured signed
 *   `POST /orders` made a new order each time it was sent again. A state-changing request (POST, PUT, DELETE)
 *   whose (key, signature) was already seen is refused while it could still verify; reads are not
 *   tracked (replaying a GET changes nothing, and clients may repeat reads freely).
 * - Repeated authentication failures: each failure of a key, or on a connection, beyond `freeFailures` is answered
 *   only after a delay that doubles per failure (capped), so guessing signatures gets slower and slower while
 *   every valid request is answered at once. A success on a connection forgets that connection's failures; a
 *   key's failures are forgotten after `failureMemoryMs` without one.
 */
import type { Clock } from '../../core/clock.js';

/** Options of {@link ReplayGuard}. */
export interface ReplayGuardOptions {
  clock: Clock;
  /** The accepted Api-Timestamp skew: a request is remembered until it can no longer verify. */
  timestampWindowMs: number;
  /** Failures answered at once, per key and per connection; default 5. */
  freeFailures?: number;
  /** Delay of the first slowed failure, doubled per further failure; default 250 ms. */
  baseDelayMs?: number;
  /** Largest delay; default 10 s. */
  maxDelayMs?: number;
  /** A key's failures are forgotten after this long without one; default 10 minutes. */
  failureMemoryMs?: number;
}

interface Failures {
  count: number;
  lastAt: number;
}

/** Remembers state-changing signatures and counts authentication failures; see the module note. */
export class ReplayGuard {
  readonly #clock: Clock;
  readonly #window: number;
  readonly #free: number;
  readonly #base: number;
  readonly #max: number;
  readonly #memory: number;
  /** API key -> lower-case signature -> when it stops verifying. */
  readonly #seen = new Map<string, Map<string, number>>();
  readonly #keyFailures = new Map<string, Failures>();
  readonly #connFailures = new WeakMap<object, Failures>();
  #nextPrune = 0;

  constructor(opts: ReplayGuardOptions) {
    this.#clock = opts.clock;
    this.#window = opts.timestampWindowMs;
    this.#free = opts.freeFailures ?? 5;
    this.#base = opts.baseDelayMs ?? 250;
    this.#max = opts.maxDelayMs ?? 10_000;
    this.#memory = opts.failureMemoryMs ?? 10 * 60_000;
  }

  /**
   * Record a verified state-changing request; false when the same key already sent the same signature inside the
   * window (a replay, to be refused).
   *
   * Remembered per key by the signature alone, the header text itself: the signature is the HMAC of a preimage
   * that holds the timestamp, so a verified signature fixes its timestamp and (key, signature) names the same
   * requests as (key, timestamp, signature), barring an HMAC-SHA512 collision, which would only make this refuse
   * more. It saves building and keeping a ~210-character `key timestamp signature` string per signed request for
   * the whole window (issue 9 item 9).
   */
  firstUse(apiKey: string, timestamp: string, signature: string): boolean {
    const now = this.#clock.now();
    this.#prune(now);
    const sig = signature.toLowerCase(); // the same string when already lower case, as clients send it
    let seen = this.#seen.get(apiKey);
    if (seen === undefined) this.#seen.set(apiKey, (seen = new Map()));
    const until = seen.get(sig);
    if (until !== undefined && until >= now) return false;
    seen.set(sig, Number(timestamp) + this.#window);
    return true;
  }

  /** Signatures remembered now (for tests and diagnostics). */
  get remembered(): number {
    let n = 0;
    for (const seen of this.#seen.values()) n += seen.size;
    return n;
  }

  /**
   * Count an authentication failure of `apiKey` (when the request named one) on `connection`; returns how long
   * to hold the answer back (0 while within the free failures of both).
   */
  failed(apiKey: string | undefined, connection: object): number {
    const now = this.#clock.now();
    const bump = (f: Failures | undefined): Failures => {
      const fresh = !f || now - f.lastAt > this.#memory;
      return { count: fresh ? 1 : f.count + 1, lastAt: now };
    };
    const conn = bump(this.#connFailures.get(connection));
    this.#connFailures.set(connection, conn);
    let worst = conn.count;
    if (apiKey !== undefined) {
      const key = bump(this.#keyFailures.get(apiKey));
      this.#keyFailures.set(apiKey, key);
      worst = Math.max(worst, key.count);
    }
    const over = worst - this.#free;
    return over <= 0 ? 0 : Math.min(this.#max, this.#base * 2 ** Math.min(30, over - 1));
  }

  /** A request on `connection` authenticated: its connection's failures are forgiven (not the key's). */
  succeeded(connection: object): void {
    this.#connFailures.delete(connection);
  }

  #prune(now: number): void {
    if (now < this.#nextPrune) return;
    this.#nextPrune = now + 10_000;
    for (const [key, seen] of this.#seen) {
      for (const [sig, until] of seen) if (until < now) seen.delete(sig);
      if (seen.size === 0) this.#seen.delete(key);
    }
    for (const [k, f] of this.#keyFailures) if (now - f.lastAt > this.#memory) this.#keyFailures.delete(k);
  }
}
