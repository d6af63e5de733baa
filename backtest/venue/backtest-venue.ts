/**
 * The backtest venue: recorded market data as the market, the simulator engine as the exchange that settles our
 * orders. One VirtualClock; nothing here reads real time.
 *
 * How an order of ours meets the recording, without the recording ever changing and without re-implementing
 * settlement (so balances, fees, precision, minTradeSize and dust rules are the engine's, to the last 1e-8):
 * - The engine's books hold only our orders. The recorded book lives in {@link RecordedBook}s.
 * - A marketable order (on arrival at the venue): the recorded opposite levels it can reach, less what we already
 *   consumed there, are placed for the moment as resting orders of a "recorded liquidity" account; our order is
 *   then placed in the engine as any order would be, matches them (taker fees, walk, rules, refusals all the
 *   engine's), and whatever of them is left is cancelled at once. What we took is marked consumed.
 * - A resting order: the engine rests it; {@link RestingQueues} follows its place in the recorded queue. When the
 *   recording implies a fill, the liquidity account sends an IMMEDIATE_OR_CANCEL order at our price for that
 *   quantity, which the engine matches against our order (maker fees) like any taker's.
 * The liquidity account is exempt from the size rules only (the real venue had accepted the recorded orders).
 *
 * Conditional orders are the engine's own {@link ConditionalOrders} (its trigger, trailing, delay and OCO rules)
 * with two changes of wiring: they observe the RECORDED trades (not the engine's, which are only ours), and the
 * orders they create and cancel go through this venue, so a triggered order meets the recorded book too.
 */
import type { VirtualClock } from '../../src/core/clock.js';
import { type Decimal, ONE } from '../../src/core/decimal.js';
import { dsub } from '../../src/core/decimal-fast.js';
import type { OrderBookMessage, StreamMessage } from '../../src/bittrex/hub/messages.js';
import type { BatchResponse, BulkCancelResult, NewOrder, Order } from '../../src/model/order.js';
import { ConditionalOrders } from '../../src/sim/conditional-orders/conditional-orders.js';
import type { SimEngine } from '../../src/sim/engine.js';
import type { SimEvent } from '../../src/sim/events.js';
import { type BatchItem, runBatch } from '../../src/sim/trading-batch.js';
import type { ReplayOrderBookDelta, ReplaySnapshot } from '../../src/sim/driver/replay-events.js';
import type { MarketEvent } from '../readers/reader.js';
import { MarketFeed } from './market-feed.js';
import type { QueueModel } from './queue-model.js';
import { BookSequences } from './book-sequences.js';
import { type VenueStats, venueStats } from './venue-stats.js';

export type { VenueStats } from './venue-stats.js';
import { type BookSide, RecordedBook } from './recorded-book.js';
import { privateMessage } from './private-messages.js';
import { channelOf } from './message-channels.js';
import { type BarLimitFill, barDecisions } from './bar-fills.js';
import { RestingQueues } from './resting-queues.js';
import { RecordedLiquidity } from './recorded-liquidity.js';

/** Options of {@link BacktestVenue}. */
export interface BacktestVenueOptions {
  engine: SimEngine;
  clock: VirtualClock;
  /** Our account (funded by the caller). */
  accountId: string;
  /** Markets listed (their events are applied; others are counted and left out). */
  markets: readonly string[];
  queueModel: QueueModel;
  /** Bar-level data: when a resting limit fills (default `trade-through`). */
  barLimitFill?: BarLimitFill | undefined;
}

/**
 * A subscriber to what the venue publishes (market data and our private events), in publication order, each with
 * the hub channel it travels on (`channelOf(message)`, message-channels.ts).
 */
export type VenueSink = (message: StreamMessage, channel: string) => void;

/** One listed market: its public feed and our resting orders there (one lookup per recorded event). */
interface VenueMarket {
  feed: MarketFeed;
  queues: RestingQueues;
}

/** The engine events {@link BacktestVenue} acts on: those {@link privateMessage} forwards (and `order`, which it tracks). */
function isPrivateKind(kind: SimEvent['kind']): boolean {
  return kind === 'order' || kind === 'execution' || kind === 'balance' || kind === 'conditionalOrder';
}

/** The venue (see the module note). */
export class BacktestVenue {
  readonly engine: SimEngine;
  readonly clock: VirtualClock;
  readonly accountId: string;
  /** Sequence of each market's recorded book (rule 4 of the stream: a snapshot's Sequence, then each delta's). */
  readonly #bookSeq = new BookSequences();
  readonly stats: VenueStats = venueStats(this.#bookSeq);
  /** The account that stands for the recording's side of our trades. */
  readonly #liquidity: RecordedLiquidity;
  /** Each listed market's feed and queues. */
  readonly #markets = new Map<string, VenueMarket>();
  /** The market of the last event applied: the next is most often of the same one (no hashing of its name). */
  #lastMarket: VenueMarket | undefined;
  readonly #sinks: VenueSink[] = [];
  readonly #offBus: () => void;
  readonly #barRule: BarLimitFill;
  /** Last bar close of markets traded on bar data (no book): where marketable orders fill. */
  readonly #barClose = new Map<string, Decimal>();
  /** Our conditional orders (see the module note). */
  readonly conditionalOrders: ConditionalOrders;

  constructor(opts: BacktestVenueOptions) {
    this.engine = opts.engine;
    this.clock = opts.clock;
    this.accountId = opts.accountId;
    this.#barRule = opts.barLimitFill ?? 'trade-through';
    for (const m of opts.markets) {
      const market = this.engine.catalog.market(m);
      const book = new RecordedBook();
      this.#markets.set(market.symbol, { feed: new MarketFeed(market.symbol, book), queues: new RestingQueues(book, opts.queueModel) });
    }
    this.#liquidity = new RecordedLiquidity(this.engine, this.accountId, opts.markets, this.stats);
    // Only our private events are acted on (see #onEngineEvent): saying so lets the engine skip building the
    // book deltas and public messages of each of our operations, which nobody here would read.
    this.#offBus = this.engine.bus.on((e) => this.#onEngineEvent(e), isPrivateKind);
    const engine = this.engine;
    this.conditionalOrders = new ConditionalOrders({
      clock: engine.clock,
      bus: engine.bus,
      sequences: engine.sequences,
      idempotency: engine.idempotency,
      catalog: engine.catalog,
      config: engine.config,
      orders: {
        placeOrder: (_a, o) => this.placeOrder(o),
        cancelOrder: (_a, id) => this.cancelOrder(id),
        getOrder: (a, id) => engine.trading.getOrder(a, id),
        linkOrderToCancel: (a, id, link) => engine.trading.linkOrderToCancel(a, id, link),
        validateOrder: (a, o) => engine.trading.validateOrder(a, o),
      },
    });
    // The engine reports our linked orders' first fills (OCO); its own trades (ours) are not the market. Nor is its
    // public market data (trades, ticker, summaries, candles of the operations on its book): the feed serves the
    // recording, so the engine keeps none (it cost a few percent of a market maker's run, read by nobody).
    engine.trading.connect({
      marketData: undefined,
      conditionalOrders: { onTrades: () => undefined, onOrderExecuted: (a, id) => this.conditionalOrders.onOrderExecuted(a, id) },
    });
  }

  /** The recorded liquidity account (for tests and audits). */
  get liquidityAccountId(): string {
    return this.#liquidity.id;
  }

  /** Receive every published message. */
  subscribe(sink: VenueSink): () => void {
    this.#sinks.push(sink);
    return () => this.#sinks.splice(this.#sinks.indexOf(sink), 1);
  }

  feed(marketSymbol: string): MarketFeed | undefined {
    return this.#markets.get(marketSymbol.toUpperCase())?.feed;
  }

  queues(marketSymbol: string): RestingQueues | undefined {
    return this.#markets.get(marketSymbol.toUpperCase())?.queues;
  }

  /** Markets traded on bar data (closed candles, no recorded book). */
  get barMarkets(): string[] {
    return [...this.#barClose.keys()].sort();
  }

  get marketSymbols(): string[] {
    return [...this.#markets.keys()];
  }

  /** Queue statistics summed over markets. */
  queueStats(): { queueFills: number; tradeThroughFills: number; crossFills: number; cancellations: number } {
    const s = { queueFills: 0, tradeThroughFills: 0, crossFills: 0, cancellations: 0 };
    for (const { queues: q } of this.#markets.values()) {
      s.queueFills += q.stats.queueFills;
      s.tradeThroughFills += q.stats.tradeThroughFills;
      s.crossFills += q.stats.crossFills;
      s.cancellations += q.stats.cancellations;
    }
    return s;
  }

  /** A snapshot or an accepted delta changes the recorded book: queues move, crossed orders fill, the book is shown. */
  #applyBook(feed: MarketFeed, queues: RestingQueues, e: ReplaySnapshot | ReplayOrderBookDelta): void {
    if (e.kind === 'orderBookDelta') {
      if (queues.size === 0) {
        // No order of ours rests here: no queue to move, so only whether the book changed matters.
        if (feed.book.update(e.bidDeltas, e.askDeltas)) this.#publishBook(feed);
        return;
      }
      // Only the changes of levels where we rest move a queue (onLevelChanges passes over the others).
      const changes = feed.book.applyWatched(e.bidDeltas, e.askDeltas, queues);
      if (changes === undefined) return;
      this.#liquidity.execute(feed.symbol, queues, queues.onLevelChanges(changes, e.at));
      this.#publishBook(feed);
      return;
    }
    const changes = feed.book.reset(e.bid, e.ask);
    if (changes.length === 0) return;
    if (queues.size > 0) this.#liquidity.execute(feed.symbol, queues, queues.onLevelChanges(changes, e.at));
    this.#publishBook(feed);
  }

  /** Apply one recorded event at the clock's current time: the book or trades change, our orders may fill. */
  apply(e: MarketEvent): void {
    let market = this.#lastMarket;
    if (market === undefined || e.marketSymbol !== market.feed.symbol) {
      market = this.#markets.get(e.marketSymbol);
      if (!market) {
        this.stats.unknownMarket++;
        return;
      }
      this.#lastMarket = market;
    }
    this.stats.events++;
    const { feed, queues } = market;
    switch (e.kind) {
      case 'snapshot':
      case 'orderBookDelta': {
        if (this.#bookSeq.accept(e) !== 'apply') return;
        this.#applyBook(feed, queues, e);
        if (e.kind === 'snapshot') for (const d of this.#bookSeq.release()) this.#applyBook(feed, queues, { ...d, at: e.at });
        return;
      }
      case 'trade': {
        const sequence = feed.addTrades(e.trades);
        this.#publish({ name: 'trade', data: { sequence, marketSymbol: feed.symbol, deltas: e.trades } }, feed.tradeChannel);
        this.conditionalOrders.onTrades(feed.symbol, e.trades);
        if (queues.size > 0) {
          this.#liquidity.execute(feed.symbol, queues, queues.onTrades(e.trades, e.at));
          this.#publishBook(feed);
        }
        return;
      }
      case 'candle': {
        const sequence = feed.addCandle(e.interval, e.candle);
        const candle: StreamMessage = { name: 'candle', data: { sequence, marketSymbol: feed.symbol, interval: e.interval, delta: e.candle, candleType: 'TRADE' } };
        this.#publish(candle, channelOf(candle));
        // A closed bar of a market without a recorded book: bar-level fills (a forming candle, or a market with an
        // L2 book, fills from the book and trades instead).
        const bars = this.#barClose.has(feed.symbol) || (feed.book.bid.size === 0 && feed.book.ask.size === 0);
        if (e.final !== false && bars) {
          if (queues.size > 0) this.#liquidity.execute(feed.symbol, queues, barDecisions(queues.orders(), e.candle, this.#barRule));
          this.#barClose.set(feed.symbol, e.candle.close);
          // The book shown: both sides at the close, the bar's volume as an indication (fills are not limited by
          // it), so book-reading code (risk's price band, order value) works on bar data too.
          const shown = [{ rate: e.candle.close, quantity: e.candle.volume.gt(0) ? e.candle.volume : ONE }];
          feed.book.reset(shown, shown);
          this.#publishBook(feed);
        }
        return;
      }
      case 'ticker':
        // The bot's stores do not follow tickers; valuation uses the book.
        return;
    }
  }

  /** POST /orders arriving at the venue now. Throws the engine's SimError when refused. */
  placeOrder(n: NewOrder): Order {
    const market = this.engine.catalog.market(n.marketSymbol);
    const listed = this.#markets.get(market.symbol);
    if (!listed) return this.engine.placeOrder(this.accountId, n);
    const { feed, queues } = listed;
    try {
      return this.#place(market.symbol, feed, queues, n);
    } finally {
      this.#publishBook(feed);
    }
  }

  #place(symbol: string, feed: MarketFeed, queues: RestingQueues, n: NewOrder): Order {
    const side: BookSide = n.direction === 'BUY' ? 'ask' : 'bid';
    const placed = this.#liquidity.offer(symbol, feed.book.side(side), side, n, this.#barClose.get(symbol));
    let order: Order;
    try {
      order = this.engine.placeOrder(this.accountId, n);
    } finally {
      this.#liquidity.withdraw(placed, feed.book.side(side));
    }
    if (order.status === 'OPEN' && order.limit !== undefined) {
      queues.add(order.id, side === 'ask' ? 'bid' : 'ask', order.limit, dsub(order.quantity!, order.fillQuantity));
      this.#liquidity.execute(symbol, queues, queues.crossings());
    }
    return order;
  }

  /** DELETE /orders/{id} arriving at the venue now. */
  cancelOrder(orderId: string): Order {
    const order = this.engine.cancelOrder(this.accountId, orderId);
    const listed = this.#markets.get(order.marketSymbol);
    listed?.queues.remove(order.id);
    if (listed) this.#publishBook(listed.feed);
    return order;
  }

  /** DELETE /orders/open arriving now. */
  cancelAll(marketSymbol?: string): BulkCancelResult[] {
    const out = this.engine.cancelAll(this.accountId, marketSymbol);
    for (const r of out) if (r.result) this.#markets.get(r.result.marketSymbol)?.queues.remove(r.id);
    for (const m of this.#markets.values()) this.#publishBook(m.feed);
    return out;
  }

  /** POST /batch arriving now: each item as its own request, in order (the engine's batch rules). */
  batch(items: readonly BatchItem[]): BatchResponse[] {
    return runBatch(this.#batchOps, this.accountId, items);
  }

  /** What {@link batch} runs each item through, made once (a market maker sends a batch on most of its ticks). */
  readonly #batchOps: Parameters<typeof runBatch>[0] = {
    placeOrder: (_a, o) => this.placeOrder(o),
    cancelOrder: (_a, id) => this.cancelOrder(id),
  };

  /** Stop listening to the engine. */
  close(): void {
    this.#offBus();
  }

  #onEngineEvent(e: SimEvent): void {
    if (e.kind === 'order' && e.accountId === this.accountId) {
      const listed = this.#markets.get(e.delta.marketSymbol);
      listed?.feed.trackOrder(e.delta);
      if (e.delta.status === 'CLOSED') listed?.queues.remove(e.delta.id);
    }
    const m = privateMessage(e, this.accountId);
    if (m) this.#publish(m, channelOf(m));
  }

  /** Publish the depth deltas of a market's book (recorded + ours), if it changed. */
  #publishBook(feed: MarketFeed): void {
    feed.eachBookDelta(this.#publishDepth);
  }

  /** One depth's `orderBook` message from {@link #publishBook}, made once (a book changes on most events). */
  readonly #publishDepth = (data: OrderBookMessage, channel: string): void => this.#publish({ name: 'orderBook', data }, channel);

  #publish(m: StreamMessage, channel: string): void {
    const sinks = this.#sinks;
    for (let i = 0; i < sinks.length; i++) sinks[i]!(m, channel);
  }
}

