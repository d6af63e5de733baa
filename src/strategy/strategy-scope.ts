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
