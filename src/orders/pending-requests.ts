/**
 * {@link PendingRequests}: the order manager's requests, retries and lookups still running, so that
 * `OrderManager.drain()` can wait for them, and a failure nobody awaited is still logged.
 */
import type { Logger } from 'pino';

/** The promises of work still in flight, each forgotten as it settles. */
export class PendingRequests {
  readonly #set = new Set<Promise<unknown>>();
  readonly #log: Logger;

  constructor(log: Logger) {
    this.#log = log;
  }

  /** How many are still running. */
  get size(): number {
    return this.#set.size;
  }

  /** The ones still running, for waiting on them. */
  list(): Promise<unknown>[] {
    return [...this.#set];
  }

  /** Follow `p` until it settles; a rejection is logged, never thrown. */
  track(p: Promise<unknown>): void {
    // One reaction that forgets it (and logs a failure), not catch + finally: those made four promises and three
    // microtask jobs for every request the manager sends (a backtest's market maker sends tens of thousands). The
    // callbacks are written inline, not as a named `const forget = () => ...`: run under tsx (keepNames), every
    // named closure is given its name by a defineProperty each time it is made, here once per request.
    const guarded: Promise<unknown> = p.then(
      () => this.#set.delete(guarded),
      (err: unknown) => {
        this.#set.delete(guarded);
        this.#log.error({ err }, 'order request failed unexpectedly');
      },
    );
    this.#set.add(guarded);
  }
}
