/**
 * Coalesces bursts of changes into one publication per clock tick: keys marked while a flush is pending are
 * delivered together by a zero-delay timer of the injected clock. The engine uses it for market summaries, which
 * change with every trade but are published as full snapshots, so one message per tick carries the same
 * information as many (a REST read in between already sees the newer state; the next message repeats it, which
 * rule 3's replace-by-key makes harmless).
 */
import type { Clock, TimerHandle } from '../../core/clock.js';

/**
 * Per-tick batching of keys.
 *
 * @example
 * const c = new TickCoalescer<string>(clock, (keys) => publish(keys));
 * c.mark('BTC-USD'); c.mark('BTC-USD'); c.mark('ETH-USD');
 * await clock.advance(0); // publish(['BTC-USD', 'ETH-USD']) once
 */
export class TickCoalescer<K> {
  readonly #clock: Clock;
  readonly #flush: (keys: K[]) => void;
  readonly #pending = new Set<K>();
  #timer: TimerHandle | undefined;

  constructor(clock: Clock, flush: (keys: K[]) => void) {
    this.#clock = clock;
    this.#flush = flush;
  }

  /** Remember `key` for the next flush, scheduling one if none is pending. */
  mark(key: K): void {
    this.#pending.add(key);
    this.#timer ??= this.#clock.setTimeout(() => this.flushNow(), 0);
  }

  /** Deliver the pending keys now (also cancels the scheduled flush). No-op when nothing is pending. */
  flushNow(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
    if (this.#pending.size === 0) return;
    const keys = [...this.#pending];
    this.#pending.clear();
    this.#flush(keys);
  }
}
