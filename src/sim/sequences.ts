/**
 * Per-stream sequence counters. The REST `Sequence` header and the hub's `sequence` field must come from the same
 * counter, or no client can synchronize (seed rule 4). Keys:
 * - `orderbook:<market>:<depth>` — one per market and depth (1, 25, 500), bumped only when that depth's view changes;
 * - `trade:<market>`, `candle:<market>:<type>:<interval>`, `tickers`, `summaries`;
 * - `<stream>:<accountId>` for private streams (`balance`, `order`, `execution`, `conditionalOrder`, `deposit`),
 *   independent per account and per stream (rule 2).
 *
 * Counters are bumped on the matching hot path (several times per order: order, execution, book and balance
 * events), so each counter is a mutable cell found with one map lookup, and {@link seqKey} hands out the same
 * string object for the same key every time: a key built afresh would have to be concatenated, flattened and
 * hashed on every event, which profiled as the costliest part of numbering an event.
 */
export class SequenceCounters {
  readonly #values = new Map<string, { value: number }>();

  /** Current value (0 before the first event; a snapshot taken then says 0). */
  current(key: string): number {
    return this.#values.get(key)?.value ?? 0;
  }

  /** Increment and return the new value (the sequence of the event being published). */
  next(key: string): number {
    const cell = this.#values.get(key);
    if (cell) return ++cell.value;
    this.#values.set(key, { value: 1 });
    return 1;
  }

  /**
   * The counter of `key` itself (created at 0, which reads as an untouched key does): `++counter.value` is
   * `next(key)`. For a producer that numbers the same few keys on every trade (a market's candles, its trades) and
   * keeps their counters, instead of finding the key's string and then its counter for every event. A counter is
   * never replaced, so a kept one stays the key's for the life of these counters.
   */
  counter(key: string): SequenceCounter {
    let cell = this.#values.get(key);
    if (!cell) this.#values.set(key, (cell = { value: 0 }));
    return cell;
  }

  /**
   * The counters of one private stream, by account, each found once and then kept: `next(accountId)` is
   * `next(seqKey.account(stream, accountId))` without the key's two memo lookups and the counters' lookup per event
   * (balance, order and execution events are numbered several times per order).
   */
  accountCounters(stream: PrivateStream): AccountCounters {
    return new AccountCounters(this, stream);
  }
}

/** See {@link SequenceCounters.accountCounters}. */
export class AccountCounters {
  readonly #kept = new Map<string, SequenceCounter>();

  constructor(
    private readonly counters: SequenceCounters,
    private readonly stream: PrivateStream,
  ) {}

  /** Increment `accountId`'s counter of this stream and return the new value. */
  next(accountId: string): number {
    let counter = this.#kept.get(accountId);
    if (counter === undefined) this.#kept.set(accountId, (counter = this.counters.counter(seqKey.account(this.stream, accountId))));
    return ++counter.value;
  }
}

/** One stream's counter (see {@link SequenceCounters.counter}): its current value, incremented per event. */
export interface SequenceCounter {
  value: number;
}

/** Memoized keys kept at most, per helper; beyond it the memo starts over (keys are compared by content anyway). */
const MEMO_LIMIT = 1 << 16;

/** `build(a, b)` memoized per (a, b): the same string object for the same arguments. */
function memo2<A, B>(build: (a: A, b: B) => string): (a: A, b: B) => string {
  const outer = new Map<A, Map<B, string>>();
  let size = 0;
  return (a, b) => {
    let inner = outer.get(a);
    if (!inner) outer.set(a, (inner = new Map()));
    let key = inner.get(b);
    if (key === undefined) {
      // Processes that create many engines (test runs, backtests) would otherwise keep every account's keys.
      if (++size > MEMO_LIMIT) {
        outer.clear();
        outer.set(a, (inner = new Map()));
        size = 1;
      }
      inner.set(b, (key = build(a, b)));
    }
    return key;
  };
}

const orderBookKey = memo2((market: string, depth: number) => `orderbook:${market}:${depth}`);
const tradeKey = memo2((stream: 'trade', market: string) => `${stream}:${market}`);
const candleKey = memo2((market: string, typeInterval: string) => `candle:${market}:${typeInterval}`);
const typeIntervalKey = memo2((type: string, interval: string) => `${type}:${interval}`);
const accountKey = memo2((stream: PrivateStream, accountId: string) => `${stream}:${accountId}`);

/**
 * Counter key helpers, so producers and the REST layer never spell keys differently. Keys are memoized (see the
 * module note); the memo holds one string per distinct key (as the counters themselves do), up to a bound.
 */
export const seqKey = {
  orderBook: (market: string, depth: number): string => orderBookKey(market, depth),
  trade: (market: string): string => tradeKey('trade', market),
  candle: (market: string, type: string, interval: string): string => candleKey(market, typeIntervalKey(type, interval)),
  tickers: (): string => 'tickers',
  summaries: (): string => 'summaries',
  account: (stream: PrivateStream, accountId: string): string => accountKey(stream, accountId),
};

/** Private streams that carry a per-account sequence. */
export type PrivateStream = 'balance' | 'order' | 'execution' | 'conditionalOrder' | 'deposit';

/**
 * A snapshot with the value its stream's counter had when it was taken: what REST serves as the `Sequence`
 * header, so a client can join the snapshot to the stream (seed rule 4).
 */
export interface Sequenced<T> {
  data: T;
  sequence: number;
}
