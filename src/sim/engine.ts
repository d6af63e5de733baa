/**
 * The simulated exchange as one object: catalog, ledger, sequences, idempotency and the event bus shared by the
 * funds side ({@link Funds}), trading ({@link Trading}), market data ({@link MarketData}) and conditional orders
 * ({@link ConditionalOrders}), wired together. The REST and hub servers and in-process gateways (backtests)
 * talk to this facade; every method takes the ACTING account id first (already resolved from the API key and
 * Api-Subaccount-Id) and answers model objects or throws {@link SimError}.
 *
 * Wiring: trading reports each operation to market data (top of book, trades), then to conditional orders
 * (trades for triggers, first fills of linked orders), then to funds (account volume); conditional orders place
 * and cancel through trading's OrderPort; trading asks funds' permissions before accepting an order.
 *
 * Market participants (liquidity providers, replay drivers) are ordinary accounts: {@link SimEngine.createParticipant}
 * creates one through the account registry and funds it with completed deposits, so nothing in the engine treats
 * them specially and the ledger's conservation audit covers them.
 *
 * @example
 * const engine = createSimEngine({ clock: new VirtualClock(Date.parse('2021-06-14T00:00:00Z')) });
 * const lp = engine.createParticipant({ BTC: dec('10') });
 * engine.placeOrder(lp, { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED',
 *   quantity: dec('1'), limit: dec('30000') });
 * engine.orderBook('BTC-USD', 1); // { data: { bid: [], ask: [{ quantity: 1, rate: 30000 }] }, sequence: 1 }
 */
import type { Clock } from '../core/clock.js';
import type { Decimal } from '../core/decimal.js';
import type { ConditionalOrder, NewConditionalOrder } from '../model/conditional-order.js';
import type { CandleInterval, CandleType } from '../model/enums.js';
import type { Candle, Currency, Market, MarketSummary, OrderBook, Ticker, Trade } from '../model/market.js';
import type { BatchResponse, BulkCancelResult, Execution, ExecutionLastId, NewOrder, Order } from '../model/order.js';
import { Catalog } from './catalog.js';
import { type ClosedConditionalQuery, ConditionalOrders } from './conditional-orders/conditional-orders.js';
import { type SimConfig, defaultSimConfig } from './config.js';
import type { EngineDeps } from './engine-deps.js';
import { currencyView, liveUsdRates, marketView } from './engine-views.js';
import { SimEventBus } from './events.js';
import { Funds } from './funds.js';
import { IdempotencyIndex } from './idempotency.js';
import { Ledger } from './ledger.js';
import { MarketData, type MarketDataOptions } from './market-data/market-data.js';
import { type Sequenced, SequenceCounters } from './sequences.js';
import { type PlaceOptions, Trading } from './trading.js';
import type { BatchItem } from './trading-batch.js';
import type { MarketPageQuery } from './trading-reads.js';

/** Options of {@link createSimEngine}. */
export interface SimEngineOptions {
  /** Time source: a VirtualClock for tests and backtests, systemClock for paper trading. */
  clock: Clock;
  /** Default: {@link defaultSimConfig}(). */
  config?: SimConfig;
  /** Id generator for orders, executions and trades (default a random uuid, core/uuid.ts); a seeded one makes runs reproducible. */
  newId?: () => string;
  /** Market-data tuning (recent trades length, candle retention). */
  marketData?: MarketDataOptions;
}

/** Create a simulated exchange. */
export function createSimEngine(opts: SimEngineOptions): SimEngine {
  return new SimEngine(opts);
}

/** The simulated exchange (see the module note). */
export class SimEngine {
  readonly clock: Clock;
  readonly config: SimConfig;
  readonly catalog: Catalog;
  readonly ledger: Ledger;
  readonly bus: SimEventBus;
  readonly sequences: SequenceCounters;
  readonly idempotency: IdempotencyIndex;
  readonly funds: Funds;
  readonly trading: Trading;
  readonly marketData: MarketData;
  readonly conditionalOrders: ConditionalOrders;

  constructor(opts: SimEngineOptions) {
    const clock = (this.clock = opts.clock);
    const config = (this.config = opts.config ?? defaultSimConfig());
    const catalog = (this.catalog = new Catalog(config));
    const ledger = (this.ledger = new Ledger(clock));
    const bus = (this.bus = new SimEventBus());
    const sequences = (this.sequences = new SequenceCounters());
    const idempotency = (this.idempotency = new IdempotencyIndex(clock));
    // Funds and trading share one set of foundations: one ledger, one event order, one set of sequences.
    const deps: EngineDeps = { clock, ledger, catalog, bus, sequences, idempotency, config };
    this.funds = new Funds(deps);
    const permissions = this.funds.permissions;
    this.trading = new Trading({
      ...deps,
      ...(opts.newId ? { newId: opts.newId } : {}),
      permits: (accountId, market, direction) => permissions.canTrade(accountId, market, direction),
    });
    this.marketData = new MarketData({ clock, bus, sequences, catalog }, opts.marketData);
    this.conditionalOrders = new ConditionalOrders({ clock, bus, sequences, idempotency, catalog, orders: this.trading, config });
    this.trading.connect({
      marketData: this.marketData,
      conditionalOrders: this.conditionalOrders,
      onFill: (f) => this.funds.recordVolume(f.accountId, f.quote, f.quoteCurrency, f.execution.executedAt),
    });
    this.funds.setUsdRateSource(liveUsdRates(catalog, config, (m) => this.trading.referenceRate(m)));
  }

  /** Current value of a sequence counter (see `seqKey`); what a HEAD endpoint answers. */
  sequence(key: string): number {
    return this.sequences.current(key);
  }

  // ---- orders ----------------------------------------------------------------------------------------------

  /** POST /orders (201). `opts` is for recorded liquidity only: backtests and the replay driver (see {@link PlaceOptions}). */
  placeOrder(accountId: string, n: NewOrder, opts?: PlaceOptions): Order {
    return this.trading.placeOrder(accountId, n, opts);
  }

  /** DELETE /orders/{id}. */
  cancelOrder(accountId: string, orderId: string): Order {
    return this.trading.cancelOrder(accountId, orderId);
  }

  /** DELETE /orders/open[?marketSymbol]. */
  cancelAll(accountId: string, marketSymbol?: string): BulkCancelResult[] {
    return this.trading.cancelAll(accountId, marketSymbol);
  }

  /** GET /orders/{id}. */
  getOrder(accountId: string, orderId: string): Order {
    return this.trading.getOrder(accountId, orderId);
  }

  /** GET /orders/open with its Sequence (HEAD /orders/open). */
  openOrders(accountId: string, marketSymbol?: string): Sequenced<Order[]> {
    return this.trading.reads.openOrders(accountId, marketSymbol);
  }

  /** GET /orders/closed. */
  closedOrders(accountId: string, q: MarketPageQuery = {}): Order[] {
    return this.trading.reads.closedOrders(accountId, q);
  }

  /** GET /orders/{id}/executions. */
  orderExecutions(accountId: string, orderId: string): Execution[] {
    return this.trading.reads.orderExecutions(accountId, orderId);
  }

  /** GET /executions. */
  executions(accountId: string, q: MarketPageQuery = {}): Execution[] {
    return this.trading.reads.executions(accountId, q);
  }

  /** GET /executions/{id}. */
  execution(accountId: string, executionId: string): Execution {
    return this.trading.reads.execution(accountId, executionId);
  }

  /** GET /executions/last-id with its Sequence (HEAD /executions/last-id). */
  lastExecution(accountId: string): Sequenced<ExecutionLastId> {
    return this.trading.reads.lastExecution(accountId);
  }

  /**
   * Placements and cancellations `fn` makes on one market, published as ONE operation (one orderBook delta per
   * depth, no intermediate book): how drivers re-enact one recorded message. See {@link Trading.transact}.
   */
  transact<T>(marketSymbol: string, fn: () => T): T {
    return this.trading.transact(marketSymbol, fn);
  }

  /** POST /batch. */
  batch(accountId: string, items: readonly BatchItem[]): BatchResponse[] {
    return this.trading.batch(accountId, items);
  }

  // ---- conditional orders ----------------------------------------------------------------------------------

  /** POST /conditional-orders (201). */
  createConditionalOrder(accountId: string, n: NewConditionalOrder): ConditionalOrder {
    return this.conditionalOrders.create(accountId, n);
  }

  /** GET /conditional-orders/{id}. */
  getConditionalOrder(accountId: string, id: string): ConditionalOrder {
    return this.conditionalOrders.get(accountId, id);
  }

  /** DELETE /conditional-orders/{id}. */
  cancelConditionalOrder(accountId: string, id: string): ConditionalOrder {
    return this.conditionalOrders.cancel(accountId, id);
  }

  /** GET /conditional-orders/open with its Sequence (HEAD /conditional-orders/open). */
  openConditionalOrders(accountId: string, marketSymbol?: string): Sequenced<ConditionalOrder[]> {
    return this.conditionalOrders.listOpen(accountId, marketSymbol);
  }

  /** GET /conditional-orders/closed. */
  closedConditionalOrders(accountId: string, q: ClosedConditionalQuery = {}): ConditionalOrder[] {
    return this.conditionalOrders.listClosed(accountId, q);
  }

  // ---- public market data ----------------------------------------------------------------------------------

  /** GET /markets. */
  markets(): Market[] {
    return this.catalog.markets().map(marketView);
  }

  /** GET /markets/{symbol}. */
  market(symbol: string): Market {
    return marketView(this.catalog.market(symbol));
  }

  /** GET /currencies. */
  currencies(): Currency[] {
    return this.catalog.currencies().map(currencyView);
  }

  /** GET /currencies/{symbol}. */
  currency(symbol: string): Currency {
    return currencyView(this.catalog.currency(symbol));
  }

  /** GET /markets/{m}/orderbook?depth= with that depth's Sequence. */
  orderBook(marketSymbol: string, depth = 25): Sequenced<OrderBook> {
    return this.trading.reads.orderBook(marketSymbol, depth);
  }

  /** GET /markets/{m}/trades with its Sequence. */
  trades(marketSymbol: string): Sequenced<Trade[]> {
    return this.marketData.trades(marketSymbol);
  }

  /** GET /markets/{m}/ticker. */
  ticker(marketSymbol: string): Ticker {
    return this.marketData.ticker(marketSymbol);
  }

  /** GET /markets/tickers with its Sequence. */
  tickers(): Sequenced<Ticker[]> {
    return this.marketData.tickers();
  }

  /** GET /markets/{m}/summary. */
  summary(marketSymbol: string): MarketSummary {
    return this.marketData.summary(marketSymbol);
  }

  /** GET /markets/summaries with its Sequence. */
  summaries(): Sequenced<MarketSummary[]> {
    return this.marketData.summaries();
  }

  /** GET /markets/{m}/candles/{type}/{interval}/recent with its Sequence. */
  candles(marketSymbol: string, type: CandleType, interval: CandleInterval): Sequenced<Candle[]> {
    return this.marketData.candles(marketSymbol, type, interval);
  }

  /** GET /markets/{m}/candles/{type}/{interval}/historical/{year}[/{month}[/{day}]]. */
  historicalCandles(marketSymbol: string, type: CandleType, interval: CandleInterval, year: number, month?: number, day?: number): Candle[] {
    return this.marketData.historicalCandles(marketSymbol, type, interval, year, month, day);
  }

  // ---- participants (market drivers, demos, tests) ---------------------------------------------------------

  /**
   * Create an ordinary master account and fund it with completed deposits; returns its id. Drivers then trade
   * through {@link placeOrder} / {@link cancelOrder} like any user.
   */
  createParticipant(funding: Record<string, Decimal> = {}, opts: { accountId?: string } = {}): string {
    const { accountId } = this.funds.accounts.createMasterAccount(opts);
    for (const [currency, amount] of Object.entries(funding)) this.fund(accountId, currency, amount);
    return accountId;
  }

  /** Credit `amount` of `currency` to an account as a completed deposit. */
  fund(accountId: string, currency: string, amount: Decimal): void {
    if (amount.gt(0)) this.funds.creditDeposit(accountId, currency, amount);
  }

  /** Stop the engine's listeners (the balance feed's ledger subscription). */
  dispose(): void {
    this.funds.dispose();
  }
}
