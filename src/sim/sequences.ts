/**
 * Per-stream sequence counters. The REST `Sequence` header and the hub's `sequence` field must come from the same
 * counter, or no client can synchronize (seed rule 4). Keys:
 * - `orderbook:<market>:<depth>` — one per market and depth (1, 25, 500), bumped only when that depth's view changes;
 * - `trade:<market>`, `candle:<market>:<type>:<interval>`, `tickers`, `summaries`;
 * - `<stream>:<accountId>` for private streams (`balance`, `order`, `execution`, `conditionalOrder`, `deposit`),
 *   independent per account and per stream (rule 2).
 */
export class SequenceCounters {
  readonly #values = new Map<string, number>();

  /** Current value (0 before the first event; a snapshot taken then says 0). */
  current(key: string): number {
    return this.#values.get(key) ?? 0;
  }

  /** Increment and return the new value (the sequence of the event being published). */
  next(key: string): number {
    const v = (this.#values.get(key) ?? 0) + 1;
    this.#values.set(key, v);
    return v;
  }
}

/** Counter key helpers, so producers and the REST layer never spell keys differently. */
export const seqKey = {
  orderBook: (market: string, depth: number) => `orderbook:${market}:${depth}`,
  trade: (market: string) => `trade:${market}`,
  candle: (market: string, type: string, interval: string) => `candle:${market}:${type}:${interval}`,
  tickers: () => 'tickers',
  summaries: () => 'summaries',
  account: (stream: PrivateStream, accountId: string) => `${stream}:${accountId}`,
};

/** Private streams that carry a per-account sequence. */
export type PrivateStream = 'balance' | 'order' | 'execution' | 'conditionalOrder' | 'deposit';
