/**
 * The clock a strategy gets: the runtime's clock, with every callback the strategy schedules wrapped so that a
 * throw inside it becomes that strategy's failure instead of an uncaught exception that would take the whole
 * bot (and every other strategy) down. Disposing it cancels every timer the strategy still has pending, so a
 * failed or stopped strategy leaves nothing ticking behind.
 */
import type { Clock, TimerHandle } from '../core/clock.js';
import { currentStrategy, enterStrategy, leaveStrategy } from './strategy-scope.js';

/** A {@link Clock} owned by one strategy; see {@link guardClock}. */
export interface GuardedClock extends Clock {
  /** Cancel every pending timer and refuse new ones (they are accepted and never fire). */
  dispose(): void;
  /** True after {@link GuardedClock.dispose}. */
  readonly disposed: boolean;
  /** Timers scheduled through this clock that are still pending. */
  readonly pendingTimers: number;
}

const NOOP_HANDLE: TimerHandle = { cancel: () => {} };

/**
 * The pending timers of one clock, oldest first: a doubly linked list through the timers themselves rather than a
 * Set, since a throttled strategy adds and removes one per window and V8 reallocates a small Set's table when its
 * last entry leaves (and rehashes it under add/delete churn).
 */
class LiveTimers {
  head: GuardedTimer | undefined;
  tail: GuardedTimer | undefined;
  size = 0;

  add(t: GuardedTimer): void {
    t.linked = true;
    t.prev = this.tail;
    if (this.tail) this.tail.next = t;
    else this.head = t;
    this.tail = t;
    this.size++;
  }

  /** Take `t` out; nothing when it is not pending (fired, cancelled, or never added). */
  delete(t: GuardedTimer): void {
    if (!t.linked) return;
    t.linked = false;
    if (t.prev) t.prev.next = t.next;
    else this.head = t.next;
    if (t.next) t.next.prev = t.prev;
    else this.tail = t.prev;
    t.prev = t.next = undefined;
    this.size--;
  }

  /** The pending timers, oldest first, as an array (what dispose walks while cancelling unlinks them). */
  toArray(): GuardedTimer[] {
    const out: GuardedTimer[] = [];
    for (let t = this.head; t; t = t.next) out.push(t);
    return out;
  }
}

/**
 * The handle a strategy gets for one timer: pending (in `live`) until it fires (timeouts), is cancelled, or the
 * clock is disposed. A class rather than closures made per timer: a throttled strategy schedules one per window.
 */
class GuardedTimer implements TimerHandle {
  inner: TimerHandle | undefined;
  /** In `live`; its neighbours there. */
  linked = false;
  prev: GuardedTimer | undefined;
  next: GuardedTimer | undefined;
  constructor(private readonly live: LiveTimers) {}

  cancel(): void {
    this.live.delete(this);
    this.inner?.cancel();
  }
}

/**
 * Wrap `clock` for one strategy: callbacks that throw are reported to `onError` (which must not throw), and
 * {@link GuardedClock.dispose} cancels what is still scheduled. Given the strategy's name, its callbacks run in its
 * scope (strategy-scope.ts).
 *
 * @example
 * const clock = guardClock(runtimeClock, (err) => runner.fail(err));
 * clock.setInterval(() => { throw new Error('bug') }, 1000); // reported to onError, the process lives on
 * clock.dispose(); // the interval is cancelled
 */
export function guardClock(clock: Clock, onError: (err: unknown) => void, strategy?: string): GuardedClock {
  const live = new LiveTimers();
  let disposed = false;

  // A callback that throws is the strategy's failure, never an uncaught exception; none runs once disposed.
  function run(fn: () => void): void {
    if (disposed) return;
    const outer = strategy === undefined ? currentStrategy() : enterStrategy(strategy);
    try {
      fn();
    } catch (err) {
      onError(err);
    } finally {
      leaveStrategy(outer);
    }
  }

  return {
    now: () => clock.now(),
    setTimeout(fn, ms) {
      if (disposed) return NOOP_HANDLE;
      const timer = new GuardedTimer(live);
      timer.inner = clock.setTimeout(() => {
        // A timeout that fired is no longer pending.
        live.delete(timer);
        run(fn);
      }, ms);
      live.add(timer);
      return timer;
    },
    setInterval(fn, ms) {
      if (disposed) return NOOP_HANDLE;
      const timer = new GuardedTimer(live);
      timer.inner = clock.setInterval(() => run(fn), ms);
      live.add(timer);
      return timer;
    },
    sleep(ms) {
      // Routed through setTimeout so a disposed strategy's sleep is cancelled with its other timers (the
      // promise then never settles, which is what "the strategy stopped" means to code awaiting it).
      return new Promise<void>((resolve) => {
        this.setTimeout(resolve, ms);
      });
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const t of live.toArray()) t.cancel();
    },
    get disposed() {
      return disposed;
    },
    get pendingTimers() {
      return live.size;
    },
  };
}
