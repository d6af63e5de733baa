/**
 * Public market data held in memory: order books per (market, depth), tickers, 24-hour summaries, recent
 * trades (bounded) and candles per (market, interval).
 *
 * Store, then publish: every write updates the maps first and only then emits on {@link MarketStore.changes$},
 * so a subscriber that reads the store from inside its callback sees the change it is reacting to. Writers are
 * the synchronizers (src/sync); strategies get {@link ReadonlyMarketStore}.
 */
import { BehaviorSubject, defer, filter, map, Observable, startWith } from 'rxjs';
import { IdWindow } from '../core/id-window.js';
import type { Decimal } from '../core/decimal.js';
import type { Candle, CandleInterval, MarketSummary, OrderBook, OrderBookEntry, Ticker, Trade } from '../model/index.js';
import { MarketFanout } from './market-fanout.js';
import { OrderBookState, type ReadonlyOrderBook } from './order-book.js';

/** A change, published after the store holds it. `reset` marks a snapshot that replaced what was there. */
export type MarketEvent =
  | { kind: 'book'; marketSymbol: string; depth: number; book: ReadonlyOrderBook; reset: boolean }
  | { kind: 'tickers'; tickers: readonly Ticker[]; reset: boolean }
  | { kind: 'summaries'; summaries: readonly MarketSummary[]; reset: boolean }
  | { kind: 'trades'; marketSymbol: string; trades: readonly Trade[]; reset: boolean }
  | { kind: 'candles'; marketSymbol: string; interval: CandleInterval; candles: readonly Candle[]; reset: boolean };

/** Synchronous reads and observables; what strategies get. */
export interface ReadonlyMarketStore {
  /** The book of (market, depth), once a snapshot arrived. */
  book(marketSymbol: string, depth: number): ReadonlyOrderBook | undefined;
  /** Best bid from the shallowest synchronized book of the market. */
  bestBid(marketSymbol: string): OrderBookEntry | undefined;
  /** Best ask from the shallowest synchronized book of the market. */
  bestAsk(marketSymbol: string): OrderBookEntry | undefined;
  ticker(marketSymbol: string): Ticker | undefined;
  tickers(): ReadonlyMap<string, Ticker>;
  summary(marketSymbol: string): MarketSummary | undefined;
  summaries(): ReadonlyMap<string, MarketSummary>;
  /** Recent trades, oldest first, at most `maxTrades`. */
  trades(marketSymbol: string): readonly Trade[];
  /** Candles by `startsAt`, oldest first, at most `maxCandles`. */
  candles(marketSymbol: string, interval: CandleInterval): readonly Candle[];
  /** Every change, after the store holds it. */
  readonly changes$: Observable<MarketEvent>;
  /** The store itself: now, then after every change. */
  readonly state$: Observable<ReadonlyMarketStore>;
  /** The book of (market, depth): now (if any), then after each change. */
  book$(marketSymbol: string, depth: number): Observable<ReadonlyOrderBook>;
  ticker$(marketSymbol: string): Observable<Ticker>;
  summary$(marketSymbol: string): Observable<MarketSummary>;
  /** New trades of a market as they are stored (a reset emits the whole snapshot). */
  trades$(marketSymbol: string): Observable<readonly Trade[]>;
  /** The candle series of (market, interval): now, then after each change. */
  candles$(marketSymbol: string, interval: CandleInterval): Observable<readonly Candle[]>;
}

/** Bounds of a {@link MarketStore}. */
export interface MarketStoreOptions {
  /** Recent trades kept per market (default 1,000). */
  maxTrades?: number;
  /** Candles kept per (market, interval) (default 1,440: one day of MINUTE_1). */
  maxCandles?: number;
}

const candleKey = (market: string, interval: CandleInterval): string => `${market}|${interval}`;

/** Recent trades of one market, deduplicated by id. */
interface TradeBuffer {
  list: Trade[];
  /** The ids of `list`, in the same order (see src/core/id-window.ts for why not a Set). */
  ids: IdWindow;
}

/**
 * The market data store.
 *
 * @example
 * const store = new MarketStore();
 * store.book$('BTC-USD', 25).subscribe((b) => console.log(b.bestBid()?.rate.toString()));
 * const bid = store.bestBid('BTC-USD'); // synchronous read
 */
export class MarketStore implements ReadonlyMarketStore {
  /** Books by market, then depth (no key string is built per message or read). */
  readonly #books = new Map<string, Map<number, OrderBookState>>();
  readonly #tickers = new Map<string, Ticker>();
  readonly #summaries = new Map<string, MarketSummary>();
  readonly #trades = new Map<string, TradeBuffer>();
  readonly #candles = new Map<string, Candle[]>();
  /** Every subscriber of changes$, book$ and trades$, in one ordered list (src/store/market-fanout.ts). */
  readonly #fanout = new MarketFanout();
  /** The book the last deltas went to: a run of messages nearly always goes to one book (books are never replaced). */
  #lastBook: OrderBookState | undefined;
  readonly #state: BehaviorSubject<ReadonlyMarketStore> = new BehaviorSubject<ReadonlyMarketStore>(this);
  readonly #maxTrades: number;
  readonly #maxCandles: number;

  readonly changes$: Observable<MarketEvent> = this.#fanout.changes$;
  readonly state$: Observable<ReadonlyMarketStore> = this.#state.asObservable();

  constructor(options: MarketStoreOptions = {}) {
    this.#maxTrades = options.maxTrades ?? 1000;
    this.#maxCandles = options.maxCandles ?? 1440;
  }

  #publish(event: MarketEvent): void {
    this.#fanout.publish(event);
    this.#published();
  }

  #published(): void {
    // Its value is always the store: without a subscriber there is nothing to tell (this runs for every message).
    if (this.#state.observed) this.#state.next(this);
  }

  // ---- writes (synchronizers) ----

  /** Replace the book of (market, depth) with a snapshot at `sequence`. */
  resetBook(marketSymbol: string, depth: number, snapshot: OrderBook, sequence?: number): void {
    let byDepth = this.#books.get(marketSymbol);
    if (!byDepth) this.#books.set(marketSymbol, (byDepth = new Map()));
    let book = byDepth.get(depth);
    if (!book) {
      book = new OrderBookState(marketSymbol, depth);
      byDepth.set(depth, book);
    }
    book.reset(snapshot, sequence);
    this.#fanout.publishBook(marketSymbol, depth, book, true);
    this.#published();
  }

  /** Apply one orderBook message. Throws (leaving the book unchanged) on a bad level or an unknown book. */
  applyBookDeltas(
    marketSymbol: string,
    depth: number,
    bidDeltas: readonly OrderBookEntry[],
    askDeltas: readonly OrderBookEntry[],
    sequence?: number,
  ): void {
    let book = this.#lastBook;
    if (book === undefined || book.marketSymbol !== marketSymbol || book.depth !== depth) {
      book = this.#books.get(marketSymbol)?.get(depth);
      if (!book) throw new Error(`order book ${marketSymbol}/${depth}: deltas before any snapshot`);
      this.#lastBook = book;
    }
    book.applyDeltas(bidDeltas, askDeltas, sequence);
    this.#fanout.publishBook(marketSymbol, depth, book, false);
    this.#published();
  }

  /** Store tickers (one `ticker` message, a `tickers` delta list, or with `reset` the GET /markets/tickers snapshot). */
  setTickers(tickers: readonly Ticker[], reset = false): void {
    if (reset) this.#tickers.clear();
    for (const t of tickers) this.#tickers.set(t.symbol, t);
    this.#publish({ kind: 'tickers', tickers, reset });
  }

  /** Store summaries (same shapes as {@link setTickers}). */
  setSummaries(summaries: readonly MarketSummary[], reset = false): void {
    if (reset) this.#summaries.clear();
    for (const s of summaries) this.#summaries.set(s.symbol, s);
    this.#publish({ kind: 'summaries', summaries, reset });
  }

  /** Add trades (deduplicated by id, bounded); with `reset`, replace the market's recent trades. */
  addTrades(marketSymbol: string, trades: readonly Trade[], reset = false): void {
    let buf = this.#trades.get(marketSymbol);
    if (!buf || reset) {
      buf = { list: [], ids: new IdWindow() };
      this.#trades.set(marketSymbol, buf);
    }
    // REST lists newest first; keep oldest first so appends from the stream stay in time order.
    const incoming = reset ? [...trades].sort((a, b) => a.executedAt.getTime() - b.executedAt.getTime()) : trades;
    // The trades not seen before, in order. Almost every batch (a recorded trade, a live message) holds only new
    // ones: then it is `incoming` itself (only read, as every message's lists), and a copy is made only from the
    // first repeated id on — this runs on every recorded trade of a backtest.
    let added: Trade[] | undefined;
    for (let i = 0; i < incoming.length; i++) {
      const t = incoming[i]!;
      if (!buf.ids.add(t.id)) {
        added ??= incoming.slice(0, i);
        continue;
      }
      buf.list.push(t);
      added?.push(t);
    }
    const fresh = added ?? incoming;
    const excess = buf.list.length - this.#maxTrades;
    // shift() (V8 moves the array's start) rather than splice(0, n), which copies the list and allocates the removed
    // part: once the buffer is full this runs on every trade.
    for (let i = 0; i < excess; i++) {
      buf.list.shift();
      buf.ids.dropOldest();
    }
    if (fresh.length > 0 || reset) {
      this.#fanout.publishTrades(marketSymbol, fresh, reset);
      this.#published();
    }
  }

  /** Insert or replace candles by `startsAt` (a candle message carries the full current candle); `reset` replaces the series. */
  upsertCandles(marketSymbol: string, interval: CandleInterval, candles: readonly Candle[], reset = false): void {
    const key = candleKey(marketSymbol, interval);
    let list = this.#candles.get(key);
    if (!list || reset) {
      list = [];
      this.#candles.set(key, list);
    }
    for (const c of candles) upsertCandle(list, c);
    if (list.length > this.#maxCandles) list.splice(0, list.length - this.#maxCandles);
    this.#publish({ kind: 'candles', marketSymbol, interval, candles, reset });
  }

  // ---- reads ----

  book(marketSymbol: string, depth: number): ReadonlyOrderBook | undefined {
    return this.#books.get(marketSymbol)?.get(depth);
  }

  bestBid(marketSymbol: string): OrderBookEntry | undefined {
    return this.#shallowest(marketSymbol)?.bestBid();
  }

  bestAsk(marketSymbol: string): OrderBookEntry | undefined {
    return this.#shallowest(marketSymbol)?.bestAsk();
  }

  /** Mid price of the shallowest book, when both sides have a level. */
  mid(marketSymbol: string): Decimal | undefined {
    const b = this.bestBid(marketSymbol);
    const a = this.bestAsk(marketSymbol);
    return b && a ? b.rate.plus(a.rate).div(2) : undefined;
  }

  // Every depth shares the top of the book; the shallowest has the least to apply, so it lags least.
  #shallowest(marketSymbol: string): OrderBookState | undefined {
    const byDepth = this.#books.get(marketSymbol);
    return byDepth && (byDepth.get(1) ?? byDepth.get(25) ?? byDepth.get(500));
  }

  ticker(marketSymbol: string): Ticker | undefined {
    return this.#tickers.get(marketSymbol);
  }

  tickers(): ReadonlyMap<string, Ticker> {
    return this.#tickers;
  }

  summary(marketSymbol: string): MarketSummary | undefined {
    return this.#summaries.get(marketSymbol);
  }

  summaries(): ReadonlyMap<string, MarketSummary> {
    return this.#summaries;
  }

  trades(marketSymbol: string): readonly Trade[] {
    return this.#trades.get(marketSymbol)?.list ?? [];
  }

  candles(marketSymbol: string, interval: CandleInterval): readonly Candle[] {
    return this.#candles.get(candleKey(marketSymbol, interval)) ?? [];
  }

  // ---- observables ----

  book$(marketSymbol: string, depth: number): Observable<ReadonlyOrderBook> {
    // As changes$ filtered to this book and mapped to it, with no operator layers (market-fanout.ts).
    return withCurrent(() => this.book(marketSymbol, depth), this.#fanout.book(marketSymbol, depth));
  }

  ticker$(marketSymbol: string): Observable<Ticker> {
    return withCurrent(
      () => this.ticker(marketSymbol),
      this.changes$.pipe(
        filter((e) => e.kind === 'tickers' && (e.reset || e.tickers.some((t) => t.symbol === marketSymbol))),
        map(() => this.ticker(marketSymbol)),
        filter((t): t is Ticker => t !== undefined),
      ),
    );
  }

  summary$(marketSymbol: string): Observable<MarketSummary> {
    return withCurrent(
      () => this.summary(marketSymbol),
      this.changes$.pipe(
        filter((e) => e.kind === 'summaries' && (e.reset || e.summaries.some((s) => s.symbol === marketSymbol))),
        map(() => this.summary(marketSymbol)),
        filter((s): s is MarketSummary => s !== undefined),
      ),
    );
  }

  trades$(marketSymbol: string): Observable<readonly Trade[]> {
    // As changes$ filtered to this market's trades and mapped to them (market-fanout.ts).
    return this.#fanout.trades(marketSymbol);
  }

  candles$(marketSymbol: string, interval: CandleInterval): Observable<readonly Candle[]> {
    const changes = this.changes$.pipe(
      filter((e) => e.kind === 'candles' && e.marketSymbol === marketSymbol && e.interval === interval),
      map(() => this.candles(marketSymbol, interval)),
    );
    return defer(() => (this.#candles.has(candleKey(marketSymbol, interval)) ? changes.pipe(startWith(this.candles(marketSymbol, interval))) : changes));
  }
}

/**
 * The current value (read at subscription time, if any), then the updates: what `defer(() => concat(of(now),
 * updates))` emits, without the layer concat puts between every update and the subscriber (a book changes on
 * nearly every message).
 */
function withCurrent<T>(current: () => T | undefined, updates: Observable<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const now = current();
    if (now !== undefined) {
      subscriber.next(now);
      // As concat: a subscriber that stopped on the current value (take(1)) never subscribes the updates.
      if (subscriber.closed) return undefined;
    }
    return updates.subscribe(subscriber);
  });
}

/** Insert or replace `c` in a list sorted by startsAt; the common case touches the last element. */
function upsertCandle(list: Candle[], c: Candle): void {
  const t = c.startsAt.getTime();
  const last = list[list.length - 1];
  if (!last || last.startsAt.getTime() < t) {
    list.push(c);
    return;
  }
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.startsAt.getTime() < t) lo = mid + 1;
    else hi = mid;
  }
  if (list[lo]!.startsAt.getTime() === t) list[lo] = c;
  else list.splice(lo, 0, c);
}
