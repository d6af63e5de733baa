/**
 * {@link ReactionWatch}: whether code run while watching left anything for later — a promise job, a
 * `queueMicrotask` callback or a `process.nextTick` callback — so the backtest loop knows when the bot's reactions
 * to an event are already complete and it may apply the next event without a turn of the event loop.
 *
 * The loop's guarantee is that the bot's reactions to an event run to the end before time moves on; it used to
 * wait a turn (drainMicrotasks) after every event that delivered something. A reaction that queued nothing has
 * nothing left to run, so waiting changes nothing but costs about as much as the rest of the event. What can queue
 * work is seen through V8's promise hooks (`node:v8` promiseHooks): `init` fires for every new promise (a `then`, an
 * `await`, an async call), `settled` for every promise resolved or rejected (whose waiting `then`s become jobs).
 * `queueMicrotask` and `process.nextTick` queue work without a promise: while enabled, the watch puts a wrapper in
 * front of each that notes the call. One case escapes: a promise made before watching, resolved while watching
 * with another promise or thenable also made before (its adoption job fires no hook); the bot's own code does not
 * do this in its synchronous reactions to market data (test/backtest/reaction-watch.test.ts pins what is seen).
 *
 * Why not async_hooks (what this used before): an enabled async hook also installs V8's before/after hooks, so
 * every promise job of the run — the reader's, the bot's — paid for async-context bookkeeping that nobody read,
 * and every promise was given async ids. The promise hooks here cost one call per promise made or settled.
 */
import { promiseHooks } from 'node:v8';

/** Watches for queued work while {@link ReactionWatch.watching} is true (see the module note). */
export class ReactionWatch {
  /** Set to watch; cleared by the caller after. */
  watching = false;
  /** Something was queued while watching, since the last {@link reset}. */
  saw = false;
  /** Undoes what {@link ReactionWatch.enable} did; undefined while disabled. */
  #off: (() => void) | undefined;

  /** Start observing the process (hooks cost a little on every promise while enabled). */
  enable(): this {
    if (this.#off) return this;
    const seen = (): void => {
      if (this.watching) this.saw = true;
    };
    const stopInit = promiseHooks.onInit(seen);
    const stopSettled = promiseHooks.onSettled(seen);
    // Looked up at call time by every caller (global and property): the wrappers see them all.
    const microtask = globalThis.queueMicrotask;
    const tick = process.nextTick;
    globalThis.queueMicrotask = (cb) => {
      seen();
      microtask(cb);
    };
    process.nextTick = (...args: Parameters<typeof tick>) => {
      seen();
      tick(...args);
    };
    this.#off = () => {
      stopInit();
      stopSettled();
      globalThis.queueMicrotask = microtask;
      process.nextTick = tick;
    };
    return this;
  }

  /** Stop observing. */
  disable(): void {
    this.#off?.();
    this.#off = undefined;
    this.watching = false;
  }

  /** Forget what was seen. */
  reset(): void {
    this.saw = false;
  }
}
