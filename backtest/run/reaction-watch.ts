/**
 * {@link ReactionWatch}: whether code run while watching left anything for later — a promise job, a
 * `queueMicrotask` callback or a `process.nextTick` callback — so the backtest loop knows when the bot's reactions
 * to an event are already complete and it may apply the next event without a turn of the event loop.
 *
 * The loop's guarantee is that the bot's reactions to an event run to the end before time moves on; it used to
 * wait a turn (drainMicrotasks) after every event that delivered something. A reaction that queued nothing has
 * nothing left to run, so waiting changes nothing but costs about as much as the rest of the event. What can queue
 * work is seen through async_hooks: `init` fires for every new promise (a `then`, an `await`, an async call), every
 * `queueMicrotask` and every `nextTick`; `promiseResolve` for every promise settled (whose waiting `then`s become
 * jobs). One case escapes both: a promise made before watching, resolved while watching with another promise or
 * thenable also made before (its adoption job fires no hook); the bot's own code does not do this in its synchronous
 * reactions to market data (test/backtest/reaction-watch.test.ts pins what is seen).
 */
import { type AsyncHook, createHook } from 'node:async_hooks';

/** Watches for queued work while {@link ReactionWatch.watching} is true (see the module note). */
export class ReactionWatch {
  /** Set to watch; cleared by the caller after. */
  watching = false;
  /** Something was queued while watching, since the last {@link reset}. */
  saw = false;
  readonly #hook: AsyncHook;

  constructor() {
    const seen = (): void => {
      if (this.watching) this.saw = true;
    };
    this.#hook = createHook({ init: seen, promiseResolve: seen });
  }

  /** Start observing the process (hooks cost a little on every promise while enabled). */
  enable(): this {
    this.#hook.enable();
    return this;
  }

  /** Stop observing. */
  disable(): void {
    this.#hook.disable();
    this.watching = false;
  }

  /** Forget what was seen. */
  reset(): void {
    this.saw = false;
  }
}
