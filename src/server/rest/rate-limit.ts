/**
 * The service's call limit, per API key: a budget per calendar minute that resets at the start of the next minute
 * (seed section 8). Exceeding answers 429 THROTTLED. Off by default so tests are not throttled by accident.
 */
import type { Clock } from '../../core/clock.js';

/** Per-key minute counters. */
export class KeyRateLimiter {
  readonly #clock: Clock;
  #callsPerMinute: number | undefined;
  readonly #counts = new Map<string, { minute: number; count: number }>();

  constructor(clock: Clock, callsPerMinute?: number) {
    this.#clock = clock;
    this.#callsPerMinute = callsPerMinute;
  }

  /** Set the budget (undefined or 0 turns limiting off). */
  configure(callsPerMinute: number | undefined): void {
    this.#callsPerMinute = callsPerMinute || undefined;
    this.#counts.clear();
  }

  /** Count one call of `key`; returns the ms until the next minute when over budget, else undefined. */
  take(key: string): number | undefined {
    const limit = this.#callsPerMinute;
    if (!limit) return undefined;
    const now = this.#clock.now();
    const minute = Math.floor(now / 60_000);
    let c = this.#counts.get(key);
    if (!c || c.minute !== minute) this.#counts.set(key, (c = { minute, count: 0 }));
    c.count++;
    return c.count > limit ? (minute + 1) * 60_000 - now : undefined;
  }
}
