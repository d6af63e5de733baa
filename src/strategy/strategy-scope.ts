/**
 * Which strategy's code is running now: set while the runner calls a strategy's `setup()` and subscribes to its
 * intents, while a value the strategy's context hands out reaches the strategy's operators, and while one of its
 * clock callbacks runs; `undefined` outside all of them. Code a strategy calls synchronously from there — RxJS
 * operators, and whatever they call — runs in its scope, so a watcher can tell whose call it sees without reading
 * stacks: `rexbot validate`'s rehearsal names the strategy that starts a wall-clock timer (real-timer-watch.ts).
 *
 * Scopes nest: a strategy's intent reaches the order manager in its scope, whose events may reach another
 * strategy, which then runs in its own; leaving restores the scope before.
 */

let current: string | undefined;
/** How many watchers want scopes kept (see {@link trackStrategyScopes}). */
let trackers = 0;

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
  trackers++;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    trackers--;
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
  return current;
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
  const outer = current;
  current = name;
  return outer;
}

/** Leave the scope {@link enterStrategy} entered, back to `outer`. */
export function leaveStrategy(outer: string | undefined): void {
  current = outer;
}
