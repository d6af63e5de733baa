/**
 * The wall-clock timers a sweep job leaves behind on its worker thread. A pool thread runs job after job (a
 * `rexbot worker` for days); a strategy plugin that starts a `setInterval` of its own and never clears it (instead
 * of `ctx.every`, `ctx.clock` or `ctx.scheduler`, which end with the run) would leave it ticking on the thread after
 * its job, holding that job's whole run (its context, stores, data) in memory, and the next job's would join it: a
 * worker thread slowly filling with the runs of past jobs.
 *
 * A backtest runs on virtual time and rexbot starts no wall-clock timer of its own during one, so a timer started
 * while a job runs and still pending when it is done is left over: {@link trackJobTimers} remembers the timers
 * started through the global `setTimeout`/`setInterval` while the job runs (what a plugin calls, RxJS's default
 * scheduler included) and clears those left when it ends. A thread runs one job at a time, so whatever starts one
 * then is that job's. It costs a set entry per timer started, nothing per market event.
 */

/** A running tracker; see {@link trackJobTimers}. */
export interface JobTimers {
  /** Put the global timer functions back, clear the job's timers still pending, and say how many there were. */
  stop(): number;
}

type TimerFn = (fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => NodeJS.Timeout;
type ClearFn = (handle: NodeJS.Timeout | string | number | undefined) => void;

/**
 * Track the wall-clock timers started from now until `stop()`.
 *
 * @example
 * const timers = trackJobTimers();
 * let left = 0;
 * try { result = await runSweepJob(job, runBacktest); } finally { left = timers.stop(); }
 */
export function trackJobTimers(): JobTimers {
  const g = globalThis as unknown as { setTimeout: TimerFn; setInterval: TimerFn; clearTimeout: ClearFn; clearInterval: ClearFn };
  const real = { setTimeout: g.setTimeout, setInterval: g.setInterval, clearTimeout: g.clearTimeout, clearInterval: g.clearInterval };
  const pending = new Set<NodeJS.Timeout>();
  let stopped = false;
  // Cleared by the job's code: Node leaves such a timeout cleared even when refresh() is called on it afterwards.
  const cleared = new WeakSet<NodeJS.Timeout>();

  g.setTimeout = function (this: unknown, fn, ms, ...args) {
    if (typeof fn !== 'function') return Reflect.apply(real.setTimeout, this, [fn, ms, ...args]) as NodeJS.Timeout;
    const handle: NodeJS.Timeout = Reflect.apply(real.setTimeout, this, [
      function (this: unknown, ...a: unknown[]) {
        pending.delete(handle);
        return Reflect.apply(fn, this, a) as void;
      },
      ms,
      ...args,
    ]) as NodeJS.Timeout;
    pending.add(handle);
    // A one-shot that fired is forgotten, but Node re-arms it on refresh() (a watchdog's pattern): pending again.
    const refresh = handle.refresh;
    handle.refresh = function (this: NodeJS.Timeout) {
      if (!stopped && !cleared.has(handle)) pending.add(handle);
      return Reflect.apply(refresh, this, []) as NodeJS.Timeout;
    };
    return handle;
  };
  g.setInterval = function (this: unknown, ...a) {
    const handle = Reflect.apply(real.setInterval, this, a) as NodeJS.Timeout;
    pending.add(handle);
    return handle;
  };
  // Node's clearTimeout and clearInterval clear either kind; a number or string is a timer's id (`+handle`); null
  // and undefined are no timer.
  const forget = (clear: ClearFn): ClearFn =>
    function (this: unknown, handle) {
      if (handle !== null && typeof handle === 'object') {
        pending.delete(handle);
        cleared.add(handle);
      } else if (handle !== undefined) {
        for (const h of pending) if (+h === +handle) (pending.delete(h), cleared.add(h));
      }
      Reflect.apply(clear, this, [handle]);
    };
  g.clearTimeout = forget(real.clearTimeout);
  g.clearInterval = forget(real.clearInterval);

  let left = 0;
  return {
    stop() {
      if (stopped) return left;
      stopped = true;
      Object.assign(g, real);
      left = pending.size;
      for (const h of pending) real.clearTimeout(h);
      pending.clear();
      return left;
    },
  };
}

/**
 * What a sweep says of a job that left `count` timers: how many, that they were cleared, and how to find the
 * strategy (with `rexbot validate` on `config`, when known).
 *
 * @example
 * leftTimersText(1, 'bt.yaml'); // 'its strategies left 1 wall-clock timer running after the run (...); rexbot validate bt.yaml names the strategy'
 */
export function leftTimersText(count: number, config?: string): string {
  return (
    `its strategies left ${count} wall-clock timer${count === 1 ? '' : 's'} running after the run (a setInterval or setTimeout never cleared; ` +
    `cleared before the thread's next job): a strategy times itself with ctx.every, ctx.clock or ctx.scheduler, which stop with the run; ` +
    `rexbot validate ${config ?? 'on the config'} names the strategy`
  );
}
