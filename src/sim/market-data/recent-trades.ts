/**
 * The recent public trades of one market: a bounded list answered newest first, as
 * `GET /markets/{marketSymbol}/trades` did (the service kept the last 100).
 */
import type { Trade } from '../../model/market.js';

/** Number of trades `GET /markets/{m}/trades` answers by default. */
export const DEFAULT_RECENT_TRADES = 100;

/**
 * Bounded store of the latest trades.
 *
 * @example
 * const r = new RecentTrades(2);
 * r.add([t1, t2, t3]);
 * r.newestFirst(); // [t3, t2]
 */
export class RecentTrades {
  readonly #limit: number;
  // Oldest first; trimmed in bulk so each add is amortised O(trades added) rather than O(limit).
  #items: Trade[] = [];

  constructor(limit = DEFAULT_RECENT_TRADES) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`recent trades: limit must be a positive integer, got ${limit}`);
    this.#limit = limit;
  }

  /** Append trades in execution order (oldest first). */
  add(trades: readonly Trade[]): void {
    this.#items.push(...trades);
    if (this.#items.length > 2 * this.#limit) this.#items = this.#items.slice(-this.#limit);
  }

  /** The latest trades, newest first, at most the limit. */
  newestFirst(): Trade[] {
    return this.#items.slice(-this.#limit).reverse();
  }
}
