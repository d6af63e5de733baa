/**
 * Time is a port: domain code never reads `Date.now()` or calls `setTimeout` directly; it takes a {@link Clock}.
 * Live and paper runs use {@link systemClock}; backtests and tests use {@link VirtualClock}, which only moves
 * when told to, so they are deterministic and as fast as the CPU allows.
 */

/** A cancellable timer handle. */
export interface TimerHandle {
  /** Cancel the timer; a no-op if it already fired. */
  cancel(): void;
}

/** Source of time and timers for domain code. */
export interface Clock {
  /** Current time as epoch milliseconds. */
  now(): number;
  /** Run `fn` once after `ms` milliseconds of this clock's time. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  /** Run `fn` every `ms` milliseconds of this clock's time. */
  setInterval(fn: () => void, ms: number): TimerHandle;
  /** A promise resolved after `ms` milliseconds of this clock's time. */
  sleep(ms: number): Promise<void>;
}

/**
 * The longest delay a Node timer honours: 2^31-1 ms, about 24.8 days. A longer one (or Infinity) fires after 1 ms
 * with a TimeoutOverflowWarning, so `rexbot record --duration 3000000` stopped at once. {@link systemClock} waits
 * longer delays in steps of at most this.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A Node timer as a {@link TimerHandle}. A class, not `{ cancel: () => clearTimeout(t) }`: the simulator arms a
 * timer per order (market summaries are published once per tick), and under tsx every such named closure costs a
 * defineProperty.
 */
class NodeTimer implements TimerHandle {
  readonly #t: ReturnType<typeof setTimeout>;
  constructor(t: ReturnType<typeof setTimeout>) {
    this.#t = t;
  }
  cancel(): void {
    clearTimeout(this.#t);
  }
}

/**
 * A timer longer than {@link MAX_TIMER_MS}: Node timers of at most that, one after the other, until the whole delay
 * has passed; then `fn`, and for an interval the same again. The steps are counted, not read from `Date.now()`, so
 * a change of the wall clock moves it no more than it moves a Node timer.
 */
class LongTimer implements TimerHandle {
  readonly #fn: () => void;
  readonly #ms: number;
  readonly #repeat: boolean;
  readonly #unref: boolean;
  #left: number;
  #t: ReturnType<typeof setTimeout> | undefined;
  #cancelled = false;

  constructor(fn: () => void, ms: number, repeat: boolean, unref: boolean) {
    this.#fn = fn;
    this.#ms = ms;
    this.#left = ms;
    this.#repeat = repeat;
    this.#unref = unref;
    this.#arm();
  }

  cancel(): void {
    this.#cancelled = true;
    clearTimeout(this.#t);
  }

  #arm(): void {
    const step = Math.min(this.#left, MAX_TIMER_MS);
    this.#left -= step;
    this.#t = setTimeout(() => this.#step(), step);
    if (this.#unref) this.#t.unref?.();
  }

  #step(): void {
    if (this.#left > 0) return this.#arm();
    if (this.#repeat) this.#left = this.#ms;
    this.#fn();
    if (this.#repeat && !this.#cancelled) this.#arm();
  }
}

/**
 * A Node timer running `fn` after `ms` (every `ms` when `repeat`), however long: a plain Node timer up to
 * {@link MAX_TIMER_MS}, a {@link LongTimer} beyond. Unref'd when `unref`, so it does not keep the process alive.
 */
function nodeTimer(fn: () => void, ms: number, repeat: boolean, unref: boolean): TimerHandle {
  if (ms > MAX_TIMER_MS) return new LongTimer(fn, ms, repeat, unref);
  const t = repeat ? setInterval(fn, ms) : setTimeout(fn, ms);
  if (unref) t.unref?.();
  // clearTimeout and clearInterval are interchangeable in Node.
  return new NodeTimer(t);
}

/**
 * The wall clock, backed by `Date.now` and Node timers. Timers are unref'd so they never keep a process alive.
 * Any delay works, also beyond the ~24.8 days a Node timer takes ({@link MAX_TIMER_MS}).
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    return nodeTimer(fn, Math.max(0, ms), false, true);
  },
  setInterval(fn, ms) {
    return nodeTimer(fn, Math.max(1, ms), true, true);
  },
  sleep(ms) {
    // A sleeping caller is waiting on purpose, so this timer keeps the process alive.
    return new Promise((resolve) => nodeTimer(resolve, Math.max(0, ms), false, false));
  },
};

interface VirtualTimer {
  at: number;
  seq: number;
  fn: () => void;
  every: number | undefined;
  cancelled: boolean;
}

/**
 * A {@link VirtualClock}'s pending timers, shared with their handles: the list (in creation order, cancelled ones
 * taken out) and the one due next, kept so that asking for it is not a scan of the list (a backtest asks before
 * every recorded event). `next` is the earliest (time, then creation) of `list`; `null` when it must be found
 * again, `undefined` when the list is empty.
 */
interface TimerSet {
  list: VirtualTimer[];
  next: VirtualTimer | undefined | null;
}

/**
 * The handle of a {@link VirtualClock} timer. A class rather than `{ cancel: () => ... }` for the reason of
 * {@link NodeTimer}: a backtest arms a timer for most market-data deliveries and every strategy throttle.
 */
class VirtualTimerHandle implements TimerHandle {
  readonly #timers: TimerSet;
  readonly #timer: VirtualTimer;
  constructor(timers: TimerSet, timer: VirtualTimer) {
    this.#timers = timers;
    this.#timer = timer;
  }
  cancel(): void {
    this.#timer.cancelled = true;
    const list = this.#timers.list;
    const i = list.indexOf(this.#timer);
    if (i >= 0) list.splice(i, 1);
    // Only the one due next matters to `next`: taking out any other leaves it the earliest.
    if (this.#timers.next === this.#timer) this.#timers.next = null;
  }
}

/**
 * A clock that moves only when {@link VirtualClock.advance} or {@link VirtualClock.advanceTo} is called.
 * Timers fire in time order (ties in creation order), each seeing `now()` equal to its due time.
 *
 * @example
 * const clock = new VirtualClock(Date.parse('2021-06-14T00:00:00Z'));
 * clock.setTimeout(() => console.log('a minute later'), 60_000);
 * await clock.advance(60_000); // logs, and now() moved by exactly 60 s
 */
export class VirtualClock implements Clock {
  #now: number;
  #seq = 0;
  readonly #timers: TimerSet = { list: [], next: undefined };

  constructor(startMs = 0) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    return this.#add(fn, Math.max(0, ms), undefined);
  }

  setInterval(fn: () => void, ms: number): TimerHandle {
    return this.#add(fn, Math.max(1, ms), Math.max(1, ms));
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimeout(resolve, ms));
  }

  /** Number of timers still pending. */
  get pendingTimers(): number {
    return this.#timers.list.filter((t) => !t.cancelled).length;
  }

  /**
   * Move time forward by `ms`, firing due timers in order. Awaits microtasks between timers so promise
   * continuations (e.g. code after `await clock.sleep()`) run at the time they belong to.
   */
  async advance(ms: number): Promise<void> {
    await this.advanceTo(this.#now + ms);
  }

  /**
   * Move time forward to `target` (epoch ms), firing due timers in order. `settle` lets promise continuations run
   * before the first timer, after each timer and at the end (default {@link flushMicrotasks}; a backtest passes
   * {@link drainMicrotasks}, which empties the queue, so its last drain is also the end's).
   */
  async advanceTo(target: number, settle: () => Promise<void> = flushMicrotasks): Promise<void> {
    await settle();
    while (this.fireNext(target)) await settle();
    this.#now = Math.max(this.#now, target);
    // After a complete drain (drainMicrotasks) nothing has run: another would find nothing to do, at the cost of a
    // tick (a backtest with market-data latency comes here for almost every event). A partial flush goes on.
    if (settle !== drainMicrotasks) await settle();
  }

  /**
   * One step of {@link advanceTo}: if the next timer is due at or before `target`, move to its time and run it;
   * returns whether one ran. For a caller that settles between timers only when something was queued (the
   * backtest loop watches for queued work): the same timers, in the same order, at the same times.
   */
  fireNext(target: number): boolean {
    const next = this.#nextDue();
    if (!next || next.at > target) return false;
    const timers = this.#timers;
    this.#now = Math.max(this.#now, next.at);
    timers.list.splice(timers.list.indexOf(next), 1);
    timers.next = null;
    if (next.every !== undefined) {
      next.at += next.every;
      next.seq = this.#seq++;
      timers.list.push(next);
    }
    next.fn();
    return true;
  }

  /** When the next pending timer is due (epoch ms), or undefined when none is pending. */
  nextTimerAt(): number | undefined {
    return this.#nextDue()?.at;
  }

  /** Set the time without firing timers (only forward). Useful for replays that drive time from data. */
  set(target: number): void {
    if (target > this.#now) this.#now = target;
  }

  #add(fn: () => void, ms: number, every: number | undefined): TimerHandle {
    const timer: VirtualTimer = { at: this.#now + ms, seq: this.#seq++, fn, every, cancelled: false };
    const timers = this.#timers;
    timers.list.push(timer);
    // The newest timer is due next only if strictly earlier than the one due next (a tie goes to the older).
    if (timers.next === undefined || (timers.next !== null && timer.at < timers.next.at)) timers.next = timer;
    return new VirtualTimerHandle(timers, timer);
  }

  /** The timer due next: the one kept, or found by a scan when it was let go (see {@link TimerSet}). */
  #nextDue(): VirtualTimer | undefined {
    const timers = this.#timers;
    if (timers.next !== null) return timers.next;
    let best: VirtualTimer | undefined;
    for (const t of timers.list) {
      if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    }
    timers.next = best;
    return best;
  }
}

/** One settled promise for every turn of {@link flushMicrotasks}: awaiting it is one turn, like a fresh one, without the allocation. */
const RESOLVED: Promise<void> = Promise.resolve();

/** Let queued promise continuations run (several turns, since chains of awaits need one turn each). */
export async function flushMicrotasks(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await RESOLVED;
}

/**
 * Let queued promise continuations run until none is left, however long their chains: resolves from a
 * `process.nextTick` callback, which Node runs only once the microtask queue is empty. One tick instead of the
 * twenty turns of {@link flushMicrotasks} (a backtest waits for the bot this way after every event it reacts to).
 */
export function drainMicrotasks(): Promise<void> {
  return new Promise((resolve) => process.nextTick(resolve));
}
