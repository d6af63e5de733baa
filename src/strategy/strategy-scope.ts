/**
 * Which strategy's code is running now: set while the runner calls a strategy's `setup()` and subscribes to its
 * intents, while a value the strategy's context hands out reaches the strategy's operators, and while one of its
 * clock callbacks runs; `undefined` outside all of them. Code a strategy calls synchronously from there — RxJS
 * operators, and whatever they call — runs in its scope, so a watcher can tell whose call it sees without reading
 * stacks: `rexbot validate`'s rehearsal names the strategy that starts a wall-clock timer (real-timer-watch.ts).
 *
 * Scopes nest: a strategy's intent reaches the order manager in its scope, whose events may reach another
 * strategy, which then runs in its own; leaving restores the scope before.
 *
 * While a watcher tracks scopes, a scope also follows the work started in it past an `await` or a promise's `then`
 * (an AsyncLocalStorage): a strategy's `mergeMap(async ...)` resumes in its scope, and so do the RxJS operators that
 * its promise's value reaches (`timestamp()` after it) and a helper module's code after its own `await`, none of
 * which has a frame of the plugin's on its stack. Without a tracker nothing of that runs: a backtest or a live bot
 * pays neither the async hooks nor a wrapper per value.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

let current: string | undefined;
/** How many watchers want scopes kept (see {@link trackStrategyScopes}). */
let trackers = 0;
/** The scope carried across `await` and `then`, while tracked; undefined otherwise. */
let carried: AsyncLocalStorage<string | undefined> | undefined;

/**
 * Ask for scopes on what strategies' contexts deliver from now on, until the returned function is called. Without a
 * tracker (a backtest, a live bot) a context hands values straight to the strategy: the scope would cost every
 * market event a wrapper that nobody reads. A context decides when the strategy subscribes, so start tracking
 * before the strategies start (as `rexbot validate`'s rehearsal does).
 *
 * @example
 * const untrack = trackStrategyScopes();
 * try { await rehearse(); } finally { untrack(); }
 */
export function trackStrategyScopes(): () => void {
  if (trackers++ === 0) carried = new AsyncLocalStorage();
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--trackers > 0) return;
    // The last tracker gone: Node's async hooks off again, and the scope is the synchronous one (none, between
    // callbacks, where the watches stop).
    carried?.disable();
    carried = undefined;
    current = undefined;
  };
}

/** True while some watcher tracks scopes ({@link trackStrategyScopes}). */
export function strategyScopesTracked(): boolean {
  return trackers > 0;
}

/**
 * The strategy whose code is running, or undefined.
 *
 * @example
 * currentStrategy(); // 'mm-btc' inside that strategy's operators, undefined in the bot's own code between them
 */
export function currentStrategy(): string | undefined {
  return carried === undefined ? current : carried.getStore();
}

/**
 * Enter strategy `name`'s scope; returns the scope to give back to {@link leaveStrategy} (in a `finally`). A pair of
 * calls rather than a callback: this runs on every value a strategy receives, and a closure per value would cost
 * more than the scope itself.
 *
 * @example
 * const outer = enterStrategy('mm-btc');
 * try { subscriber.next(book); } finally { leaveStrategy(outer); }
 */
export function enterStrategy(name: string): string | undefined {
  const outer = carried === undefined ? current : carried.getStore();
  current = name;
  // Tracked: what the code started from here on (promises, their continuations) carries the scope too.
  carried?.enterWith(name);
  return outer;
}

/** Leave the scope {@link enterStrategy} entered, back to `outer`. */
export function leaveStrategy(outer: string | undefined): void {
  current = outer;
  carried?.enterWith(outer);
}
