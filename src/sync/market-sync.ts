/**
 * Binds rule-4 synchronizers to the {@link MarketStore}: one per order book (market, depth), per trade and
 * candle stream, and one each for `tickers` and `market_summaries`. `ticker_*` and `market_summary_*` carry no
 * sequence (each message is a full snapshot), so they are written straight to the store.
 *
 * {@link MarketSync.route} takes every decoded stream message (from any number of connections) and hands it
 * to the right synchronizer, creating and starting it on first sight; call the accessors (`orderBook(...)`)
 * right after subscribing to start a quiet stream's snapshot without waiting for its first message.
 */
import { map, merge, type Observable } from 'rxjs';
import type { Candle, CandleInterval, MarketSummary, OrderBook, OrderBookDepth, Ticker, Trade } from '../model/index.js';
import {
  channelName,
  parseChannelName,
  type CandleMessage,
  type MarketSummariesMessage,
  type OrderBookMessage,
  type StreamMessage,
  type TickersMessage,
  type TradeMessage,
} from '../bittrex/hub/messages.js';
import type { MarketStore } from '../store/market-store.js';
import { KeyedSynchronizers } from './keyed-synchronizer.js';
import { Synchronizer, tuningOf as tuning, type SequencedSnapshot, type SyncStatus, type SyncTuning } from './synchronizer.js';

/**
 * Keep `store.book(marketSymbol, depth)` in step with `orderbook_{marketSymbol}_{depth}`. The snapshot must
 * come from GET /markets/{marketSymbol}/orderbook?depth={depth} (rule 1: sequences differ per depth).
 *
 * @example
 * const sync = syncOrderBook({ store, marketSymbol: 'BTC-USD', depth: 25, clock,
 *   fetchSnapshot: () => rest.getOrderBook('BTC-USD', 25) });
 */
export function syncOrderBook(
  opts: SyncTuning & {
    store: MarketStore;
    marketSymbol: string;
    depth: OrderBookDepth;
    fetchSnapshot: () => Promise<SequencedSnapshot<OrderBook>>;
  },
): Synchronizer<OrderBook, OrderBookMessage> {
  const { store, marketSymbol, depth } = opts;
  const name = channelName.orderBook(marketSymbol, depth);
  return new Synchronizer<OrderBook, OrderBookMessage>({
    ...tuning(opts),
    name,
    fetchSnapshot: opts.fetchSnapshot,
    applier: {
      reset: (snapshot, sequence) => store.resetBook(marketSymbol, depth, snapshot, sequence),
      apply: (m) => {
        if (m.marketSymbol !== marketSymbol || m.depth !== depth) {
          throw new Error(`${name}: got a message of ${channelName.orderBook(m.marketSymbol, m.depth)}`);
        }
        store.applyBookDeltas(marketSymbol, depth, m.bidDeltas, m.askDeltas, m.sequence);
      },
    },
  });
}

/** Keep all tickers in step with `tickers` (snapshot: GET /markets/tickers). */
export function syncTickers(
  opts: SyncTuning & { store: MarketStore; fetchSnapshot: () => Promise<SequencedSnapshot<Ticker[]>> },
): Synchronizer<Ticker[], TickersMessage> {
  return new Synchronizer<Ticker[], TickersMessage>({
    ...tuning(opts),
    name: 'tickers',
    fetchSnapshot: opts.fetchSnapshot,
    applier: { reset: (s) => opts.store.setTickers(s, true), apply: (m) => opts.store.setTickers(m.deltas) },
  });
}

/** Keep all summaries in step with `market_summaries` (snapshot: GET /markets/summaries). */
export function syncMarketSummaries(
  opts: SyncTuning & { store: MarketStore; fetchSnapshot: () => Promise<SequencedSnapshot<MarketSummary[]>> },
): Synchronizer<MarketSummary[], MarketSummariesMessage> {
  return new Synchronizer<MarketSummary[], MarketSummariesMessage>({
    ...tuning(opts),
    name: 'market_summaries',
    fetchSnapshot: opts.fetchSnapshot,
    applier: { reset: (s) => opts.store.setSummaries(s, true), apply: (m) => opts.store.setSummaries(m.deltas) },
  });
}

/** Keep a market's recent trades in step with `trade_{marketSymbol}` (snapshot: GET /markets/{m}/trades). */
export function syncTrades(
  opts: SyncTuning & { store: MarketStore; marketSymbol: string; fetchSnapshot: () => Promise<SequencedSnapshot<Trade[]>> },
): Synchronizer<Trade[], TradeMessage> {
  const { store, marketSymbol } = opts;
  return new Synchronizer<Trade[], TradeMessage>({
    ...tuning(opts),
    name: channelName.trade(marketSymbol),
    fetchSnapshot: opts.fetchSnapshot,
    applier: { reset: (s) => store.addTrades(marketSymbol, s, true), apply: (m) => store.addTrades(marketSymbol, m.deltas) },
  });
}

/** Keep a candle series in step with `candle_{marketSymbol}_{interval}` (snapshot: GET .../candles/{interval}/recent). */
export function syncCandles(
  opts: SyncTuning & {
    store: MarketStore;
    marketSymbol: string;
    interval: CandleInterval;
    fetchSnapshot: () => Promise<SequencedSnapshot<Candle[]>>;
  },
): Synchronizer<Candle[], CandleMessage> {
  const { store, marketSymbol, interval } = opts;
  return new Synchronizer<Candle[], CandleMessage>({
    ...tuning(opts),
    name: channelName.candle(marketSymbol, interval),
    fetchSnapshot: opts.fetchSnapshot,
    applier: {
      reset: (s) => store.upsertCandles(marketSymbol, interval, s, true),
      apply: (m) => store.upsertCandles(marketSymbol, interval, [m.delta]),
    },
  });
}

/** The REST snapshots (with their Sequence header) behind the market streams. */
export interface MarketSnapshotSource {
  orderBook(marketSymbol: string, depth: OrderBookDepth): Promise<SequencedSnapshot<OrderBook>>;
  tickers(): Promise<SequencedSnapshot<Ticker[]>>;
  marketSummaries(): Promise<SequencedSnapshot<MarketSummary[]>>;
  trades(marketSymbol: string): Promise<SequencedSnapshot<Trade[]>>;
  candles(marketSymbol: string, interval: CandleInterval): Promise<SequencedSnapshot<Candle[]>>;
}

/** A status of the synchronizer of one channel. */
export interface ChannelSyncStatus {
  channel: string;
  status: SyncStatus;
}

/**
 * Every market-data synchronizer of one {@link MarketStore}.
 *
 * @example
 * const sync = new MarketSync({ store, snapshots: restSnapshots, clock });
 * await hub.subscribe([channelName.orderBook('BTC-USD', 25)]);
 * sync.orderBook('BTC-USD', 25);                   // starts the snapshot now
 * hub.messages$.subscribe((m) => sync.route(m));   // every decoded StreamMessage
 */
export class MarketSync {
  readonly #books: KeyedSynchronizers<string, OrderBook, OrderBookMessage>;
  readonly #trades: KeyedSynchronizers<string, Trade[], TradeMessage>;
  readonly #candles: KeyedSynchronizers<string, Candle[], CandleMessage>;
  readonly #tickers: KeyedSynchronizers<string, Ticker[], TickersMessage>;
  readonly #summaries: KeyedSynchronizers<string, MarketSummary[], MarketSummariesMessage>;
  readonly #store: MarketStore;

  constructor(opts: SyncTuning & { store: MarketStore; snapshots: MarketSnapshotSource }) {
    const { store, snapshots } = opts;
    const t = tuning(opts);
    this.#store = store;
    // Keys are channel names; the factories parse them back, so a key can never disagree with its stream.
    this.#books = new KeyedSynchronizers(
      (m) => channelName.orderBook(m.marketSymbol, m.depth),
      (key) => {
        const c = parseChannelName(key) as { marketSymbol: string; depth: OrderBookDepth };
        return syncOrderBook({ ...t, store, ...c, fetchSnapshot: () => snapshots.orderBook(c.marketSymbol, c.depth) });
      },
    );
    this.#trades = new KeyedSynchronizers(
      (m) => channelName.trade(m.marketSymbol),
      (key) => {
        const { marketSymbol } = parseChannelName(key) as { marketSymbol: string };
        return syncTrades({ ...t, store, marketSymbol, fetchSnapshot: () => snapshots.trades(marketSymbol) });
      },
    );
    this.#candles = new KeyedSynchronizers(
      (m) => channelName.candle(m.marketSymbol, m.interval),
      (key) => {
        const c = parseChannelName(key) as { marketSymbol: string; interval: CandleInterval };
        return syncCandles({ ...t, store, ...c, fetchSnapshot: () => snapshots.candles(c.marketSymbol, c.interval) });
      },
    );
    this.#tickers = new KeyedSynchronizers(
      () => 'tickers',
      () => syncTickers({ ...t, store, fetchSnapshot: () => snapshots.tickers() }),
    );
    this.#summaries = new KeyedSynchronizers(
      () => 'market_summaries',
      () => syncMarketSummaries({ ...t, store, fetchSnapshot: () => snapshots.marketSummaries() }),
    );
  }

  /** The synchronizer of `orderbook_{marketSymbol}_{depth}`, started on first use. */
  orderBook(marketSymbol: string, depth: OrderBookDepth): Synchronizer<OrderBook, OrderBookMessage> {
    return this.#books.get(channelName.orderBook(marketSymbol, depth));
  }
  /** The synchronizer of `trade_{marketSymbol}`. */
  trades(marketSymbol: string): Synchronizer<Trade[], TradeMessage> {
    return this.#trades.get(channelName.trade(marketSymbol));
  }
  /** The synchronizer of `candle_{marketSymbol}_{interval}`. */
  candles(marketSymbol: string, interval: CandleInterval): Synchronizer<Candle[], CandleMessage> {
    return this.#candles.get(channelName.candle(marketSymbol, interval));
  }
  /** The synchronizer of `tickers`. */
  tickers(): Synchronizer<Ticker[], TickersMessage> {
    return this.#tickers.get('tickers');
  }
  /** The synchronizer of `market_summaries`. */
  marketSummaries(): Synchronizer<MarketSummary[], MarketSummariesMessage> {
    return this.#summaries.get('market_summaries');
  }

  /** Hand one decoded message to its synchronizer (or the store). False when it is not market data. */
  route(message: StreamMessage): boolean {
    switch (message.name) {
      case 'orderBook':
        this.#books.push(message.data);
        return true;
      case 'trade':
        this.#trades.push(message.data);
        return true;
      case 'candle':
        this.#candles.push(message.data);
        return true;
      case 'tickers':
        this.#tickers.push(message.data);
        return true;
      case 'marketSummaries':
        this.#summaries.push(message.data);
        return true;
      case 'ticker':
        this.#store.setTickers([message.data]);
        return true;
      case 'marketSummary':
        this.#store.setSummaries([message.data]);
        return true;
      default:
        return false;
    }
  }

  /** Status transitions of every channel's synchronizer. */
  get status$(): Observable<ChannelSyncStatus> {
    return merge(this.#books.status$, this.#trades.status$, this.#candles.status$, this.#tickers.status$, this.#summaries.status$).pipe(
      map(({ key, status }) => ({ channel: key, status })),
    );
  }

  /** The transport reconnected: resync every channel. */
  reconnect(): void {
    for (const k of [this.#books, this.#trades, this.#candles, this.#tickers, this.#summaries]) k.reconnect();
  }

  /** Stop every synchronizer. */
  stop(): void {
    for (const k of [this.#books, this.#trades, this.#candles, this.#tickers, this.#summaries]) k.stop();
  }
}
