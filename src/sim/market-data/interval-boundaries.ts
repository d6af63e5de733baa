/**
 * Timers at candle interval boundaries (every minute, five minutes, hour, day, aligned to the UTC epoch), driven
 * by the injected clock. The candle stream sends a message at the start of every candle; one timer per interval
 * serves every market, and it is armed only once some series of that interval has seen activity.
 */
import type { Clock } from '../../core/clock.js';
import { CANDLE_INTERVAL_MS, type CandleInterval } from '../../model/enums.js';
import { candleStart } from './candle-time.js';

/** Called at the start of each interval with the start time (epoch ms) of the candle that begins. */
export type BoundaryListener = (interval: CandleInterval, start: number) => void;

/**
 * Self-rearming boundary timers, one per interval.
 *
 * @example
 * const b = new IntervalBoundaries(clock, (interval, start) => emitPlaceholders(interval, start));
 * b.arm('MINUTE_1'); // fires at every whole minute from now on
 */
export class IntervalBoundaries {
  readonly #clock: Clock;
  readonly #listener: BoundaryListener;
  readonly #armed = new Set<CandleInterval>();

  constructor(clock: Clock, listener: BoundaryListener) {
    this.#clock = clock;
    this.#listener = listener;
  }

  /** Start the boundary timer of `interval` unless it already runs. */
  arm(interval: CandleInterval): void {
    if (this.#armed.has(interval)) return;
    this.#armed.add(interval);
    this.#schedule(interval);
  }

  /** True when the timer of `interval` runs. */
  isArmed(interval: CandleInterval): boolean {
    return this.#armed.has(interval);
  }

  /** Schedule the next boundary after `now` and after the boundary `after` already announced, if any. */
  #schedule(interval: CandleInterval, after = -Infinity): void {
    const now = this.#clock.now();
    const len = CANDLE_INTERVAL_MS[interval];
    const next = Math.max(candleStart(interval, now), after) + len;
    this.#clock.setTimeout(() => {
      // A wall-clock timer may fire a little late (then `now` may even be past the following boundary, and the
      // candle that begins is the current one) but the candle that begins is never earlier than `next`.
      const start = Math.max(next, candleStart(interval, this.#clock.now()));
      this.#listener(interval, start);
      this.#schedule(interval, start);
    }, next - now);
  }
}
