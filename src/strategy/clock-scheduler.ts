/**
 * An RxJS scheduler over rexbot's {@link Clock}, so time-based operators (`interval`, `timer`, `throttleTime`,
 * `debounceTime`, `bufferTime`, `delay`, ...) follow the injected clock instead of RxJS's default
 * `asyncScheduler` (which reads `Date.now` and calls `setInterval`). With a {@link VirtualClock} a strategy's
 * timers fire exactly when the test or backtest advances time, never on their own (ARCHITECTURE principle 1).
 */
import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';
import type { Clock, TimerHandle } from '../core/clock.js';

/**
 * One scheduled unit of work. RxJS reschedules periodic work (e.g. `interval`) by calling `schedule` again from
 * inside the work; the action then keeps its cadence from the previous due time rather than from "now", so a
 * late timer on the system clock does not make every later tick late too.
 */
class ClockAction<T> extends Subscription implements SchedulerAction<T> {
  readonly #clock: Clock;
  readonly #work: (this: SchedulerAction<T>, state?: T) => void;
  #timer: TimerHandle | undefined;
  #state: T | undefined;
  #due = 0;
  #delay = -1;
  #running = false;

  constructor(clock: Clock, work: (this: SchedulerAction<T>, state?: T) => void) {
    super();
    this.#clock = clock;
    this.#work = work;
  }

  schedule(state?: T, delay = 0): Subscription {
    if (this.closed) return this;
    this.#state = state;
    this.#timer?.cancel();
    const ms = Math.max(0, delay);
    const now = this.#clock.now();
    // Periodic reschedule from inside the work: anchor on the previous due time (drift-free cadence).
    const due = this.#running && ms === this.#delay && ms > 0 ? this.#due + ms : now + ms;
    this.#due = due;
    this.#delay = ms;
    this.#timer = this.#clock.setTimeout(() => this.#run(), Math.max(0, due - now));
    return this;
  }

  #run(): void {
    this.#timer = undefined;
    if (this.closed) return;
    this.#running = true;
    try {
      this.#work.call(this, this.#state);
    } catch (err) {
      // Same contract as RxJS's AsyncAction: a failing action is torn down and the error surfaces to the caller
      // of the timer (a strategy's guarded clock reports it as that strategy's failure).
      this.unsubscribe();
      throw err;
    } finally {
      this.#running = false;
    }
    // Work that did not reschedule itself is finished.
    if (this.#timer === undefined) this.unsubscribe();
  }

  override unsubscribe(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
    super.unsubscribe();
  }
}

/**
 * An RxJS {@link SchedulerLike} whose `now()` and timers come from `clock`.
 *
 * Pass it to every time-based operator a strategy uses; {@link StrategyContext.scheduler} is one already built
 * over the strategy's clock.
 *
 * @example
 * const scheduler = clockScheduler(new VirtualClock(0));
 * interval(1000, scheduler).subscribe((n) => console.log(n)); // fires only when the virtual clock advances
 * book$.pipe(throttleTime(500, scheduler, { leading: true, trailing: true }));
 */
export function clockScheduler(clock: Clock): SchedulerLike {
  return {
    now: () => clock.now(),
    schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
      return new ClockAction<T>(clock, work).schedule(state, delay);
    },
  };
}
