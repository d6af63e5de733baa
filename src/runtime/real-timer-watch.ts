/**
 * Wall-clock timers started by strategies during `rexbot validate`'s rehearsal. The rehearsal, like a backtest, runs
 * on virtual time; a strategy that times itself with `setTimeout`/`setInterval`, or with RxJS operators on their
 * default scheduler (`interval(1000)`, `timer`, `delay`, `throttleTime` without `ctx.scheduler`), waits for the
 * wall instead: fifteen simulated seconds pass in a fraction of a real one, so its timers fire late or never, and
 * a backtest of it tells nothing about what it does live. Nothing fails; the strategy just does less, so the
 * rehearsal watches the global timer functions while it runs and says whose timers they were.
 *
 * A call is a strategy's when it is made in that strategy's scope (strategy-scope.ts: its setup, its operators,
 * its clock callbacks, and what they started past an `await` or a `then`) and not by rexbot's own code directly, or
 * when its stack passes through the strategy's plugin file (its top-level code, run at import: `rexbot validate`
 * starts the watch before it loads the plugins). Calls of anything else (a test runner, a library working
 * on its own behalf) are let through unrecorded. Every call still reaches the real function; the callback of a
 * strategy's timer runs in the strategy's scope, so the timers it starts are the strategy's too. When the watch
 * stops, the strategies' timers still pending are cleared: the rehearsal is over, and a timer left behind would
 * keep `rexbot validate` from exiting.
 */
import { fileURLToPath } from 'node:url';
import { callerFrames, isNodeInternal, isOwn, libraryOf, type Frame } from './caller-frames.js';
import { currentStrategy, enterStrategy, leaveStrategy, trackStrategyScopes } from '../strategy/strategy-scope.js';

/** The wall-clock timers one strategy started: how many, and the first one. */
export interface RealTimerUse {
  count: number;
  /** The first one's function and delay. */
  api: 'setTimeout' | 'setInterval';
  ms: number;
  /** Whether RxJS started it (an operator or creation function on its default scheduler) or the plugin itself. */
  via: 'rxjs' | 'plugin';
  /** The first frame of the plugin's own code on its stack (`/home/ann/bot/mine.ts:12:5`), when there is one. */
  at?: string | undefined;
}

/** A running watch; see {@link watchRealTimers}. */
export interface RealTimerWatch {
  /** The wall-clock timers seen so far, by strategy name. */
  readonly uses: ReadonlyMap<string, RealTimerUse>;
  /** Put the real functions back and clear the strategies' timers still pending. Idempotent. */
  stop(): void;
}

/** This file: its frames (the wrappers) are not the caller's. */
const SELF = new Set([fileURLToPath(import.meta.url)]);

/** The frames of the current stack below the watch's own, Node's own modules left out. */
const frameList = (): Frame[] => callerFrames(SELF).filter((f) => !isNodeInternal(f.file));

const isLibrary = (file: string): boolean => libraryOf(file) !== undefined;

/**
 * Watch `setTimeout` and `setInterval` until `stop()`. `plugins` maps each strategy plugin file to the name of the
 * strategy that runs it, for calls made outside every scope.
 *
 * @example
 * const watch = watchRealTimers(new Map([['/home/ann/bot/mine.ts', 'mine']]));
 * try { await rehearse(); } finally { watch.stop(); }
 * watch.uses.get('mine'); // { count: 1, api: 'setInterval', ms: 1000, via: 'rxjs' }
 */
export function watchRealTimers(plugins: ReadonlyMap<string, string>): RealTimerWatch {
  const uses = new Map<string, RealTimerUse>();
  const untrack = trackStrategyScopes();
  const pending = new Set<{ handle: NodeJS.Timeout; api: RealTimerUse['api'] }>();
  const realSetTimeout = globalThis.setTimeout;
  const realSetInterval = globalThis.setInterval;

  /** The strategy a call is made for, and what to say about it; undefined when it is none of theirs. */
  const attribute = (api: RealTimerUse['api'], ms: number): string | undefined => {
    const frames = frameList();
    const caller = frames[0];
    // rexbot's own timers, whoever's code it is running for.
    if (caller && isOwn(caller.file)) return undefined;
    const plugin = frames.find((f) => plugins.has(f.file));
    const strategy = currentStrategy() ?? (plugin ? plugins.get(plugin.file) : undefined);
    if (strategy === undefined) return undefined;
    const seen = uses.get(strategy);
    if (seen) seen.count++;
    else {
      const via = caller && isLibrary(caller.file) ? 'rxjs' : 'plugin';
      const at = plugin?.at ?? frames.find((f) => !isOwn(f.file) && !isLibrary(f.file))?.at;
      uses.set(strategy, { count: 1, api, ms, via, ...(at === undefined ? {} : { at }) });
    }
    return strategy;
  };

  /** `fn` run in `strategy`'s scope: the timers it starts are the strategy's too. */
  const scoped = (strategy: string, fn: unknown): unknown => {
    if (typeof fn !== 'function') return fn;
    return function (this: unknown, ...args: unknown[]): unknown {
      const outer = enterStrategy(strategy);
      try {
        return Reflect.apply(fn, this, args);
      } finally {
        leaveStrategy(outer);
      }
    };
  };

  const wrap = (api: RealTimerUse['api'], real: (...args: never[]) => NodeJS.Timeout) =>
    function (this: unknown, fn: unknown, ms?: unknown, ...rest: unknown[]): NodeJS.Timeout {
      const strategy = attribute(api, typeof ms === 'number' ? ms : Number(ms ?? 0) || 0);
      if (strategy === undefined) return Reflect.apply(real, this, [fn, ms, ...rest]) as NodeJS.Timeout;
      const entry = { handle: undefined as unknown as NodeJS.Timeout, api };
      const callback = scoped(strategy, fn);
      const once =
        api === 'setTimeout' && typeof callback === 'function'
          ? function (this: unknown, ...args: unknown[]): unknown {
              pending.delete(entry);
              return Reflect.apply(callback, this, args);
            }
          : callback;
      entry.handle = Reflect.apply(real, this, [once, ms, ...rest]) as NodeJS.Timeout;
      pending.add(entry);
      return entry.handle;
    };

  globalThis.setTimeout = wrap('setTimeout', realSetTimeout as never) as unknown as typeof setTimeout;
  globalThis.setInterval = wrap('setInterval', realSetInterval as never) as unknown as typeof setInterval;

  let stopped = false;
  return {
    uses,
    stop() {
      if (stopped) return;
      stopped = true;
      untrack();
      globalThis.setTimeout = realSetTimeout;
      globalThis.setInterval = realSetInterval;
      for (const { handle, api } of pending) {
        if (api === 'setTimeout') clearTimeout(handle);
        else clearInterval(handle);
      }
      pending.clear();
    },
  };
}
