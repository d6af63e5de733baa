/**
 * The port between rexbot's kernel (sync, stores, strategies, risk, orders) and a venue. Live and paper trading
 * use the Bittrex gateway (REST + hub over the network, to the real interface or rexbot's simulator server);
 * backtests use the simulator engine in-process. Strategy, risk and order code only ever see this interface, so
 * the three environments cannot drift apart — one conformance suite runs against every implementation.
 *
 * Failures are {@link ApiError}s carrying the service's codes (`INSUFFICIENT_FUNDS`,
 * `CLIENTORDERID_ALREADY_EXISTS`, ...) whatever the implementation, plus {@link NetworkError} /
 * {@link TimeoutError} from network gateways, which say whether a request may have reached the venue.
 */
import type { Observable } from 'rxjs';
import type { StreamMessage } from '../bittrex/hub/messages.js';
import type { ConditionalOrder, NewConditionalOrder } from '../model/conditional-order.js';
import type { Candle, Currency, Market, OrderBook, Ticker, Trade } from '../model/market.js';
import type { BatchOperation, BatchResponse, BulkCancelResult, Execution, ExecutionLastId, NewOrder, Order } from '../model/order.js';
import type { CandleInterval, OrderBookDepth } from '../model/enums.js';
import type { VenueLacks } from '../model/venue-features.js';
import type { Balance } from '../model/wallet.js';

/** A snapshot with the stream sequence it corresponds to (the REST `Sequence` header). */
export interface Snapshot<T> {
  data: T;
  sequence: number;
}

/** Page of a list endpoint (same rules as the v3 interface). */
export interface GatewayPage {
  marketSymbol?: string | undefined;
  pageSize?: number | undefined;
  nextPageToken?: string | undefined;
  previousPageToken?: string | undefined;
  startDate?: Date | undefined;
  endDate?: Date | undefined;
}

/**
 * A moment when subscribed streams may have missed messages without a sequence gap showing it (a quiet stream
 * would reveal the gap only at its next message): synchronizers of the affected channels resync.
 */
export interface StreamResyncNotice {
  /** The affected channels; undefined means every subscribed channel (a new connection). */
  channels?: readonly string[] | undefined;
  /** Why, e.g. `closed` or `watchdog` (the connection was lost and made again), `auth-lapsed`. */
  reason: string;
  /** The connection epoch the streams continue on. */
  epoch: number;
}

/** Live stream access: subscribe to channel names of the v3 hub (`orderbook_BTC-USD_25`, `order`, ...). */
export interface GatewayStreams {
  /** Decoded messages of every subscribed channel (hot). */
  readonly messages$: Observable<StreamMessage>;
  /** Increments on every new connection: synchronizers must resync when it changes (messages may be lost). */
  readonly connectionEpoch$: Observable<number>;
  /**
   * Optional and finer than {@link connectionEpoch$}: every moment streams may have missed messages, with the
   * reason, and the channels when only some are affected (private streams resubscribed after authentication
   * lapsed on a live connection). A gateway without it signals through connectionEpoch$ only.
   */
  readonly resyncs$?: Observable<StreamResyncNotice> | undefined;
  /** Subscribe; rejects with a typed error naming each channel that failed. Idempotent per channel. */
  subscribe(channels: readonly string[]): Promise<void>;
  unsubscribe(channels: readonly string[]): Promise<void>;
}

/** Everything the kernel needs from a venue. */
export interface ExchangeGateway {
  /** A short name for logs and metrics (`bittrex`, `sim`). */
  readonly venue: string;
  readonly streams: GatewayStreams;
  /**
   * What of the v3 interface this venue cannot do, and why (model/venue-features.ts); absent means nothing. The
   * bot config refuses strategies needing a lacked feature by the same table, and the conformance suite skips
   * the cases of a lacked capability naming it.
   */
  readonly lacks?: VenueLacks | undefined;

  markets(): Promise<Market[]>;
  currencies(): Promise<Currency[]>;

  orderBook(marketSymbol: string, depth: OrderBookDepth): Promise<Snapshot<OrderBook>>;
  tickers(): Promise<Snapshot<Ticker[]>>;
  trades(marketSymbol: string): Promise<Snapshot<Trade[]>>;
  /**
   * Recent TRADE candles of one interval, oldest first, with the Sequence of `candle_{market}_{interval}`: the
   * snapshot behind strategies' candle series. Optional so a venue without candles can still trade; LiveData
   * refuses to follow candles over a gateway that lacks it.
   */
  candles?(marketSymbol: string, interval: CandleInterval): Promise<Snapshot<Candle[]>>;

  balances(): Promise<Snapshot<Balance[]>>;
  openOrders(marketSymbol?: string): Promise<Snapshot<Order[]>>;
  closedOrders(page?: GatewayPage): Promise<Order[]>;
  order(orderId: string): Promise<Order>;
  openConditionalOrders(marketSymbol?: string): Promise<Snapshot<ConditionalOrder[]>>;
  closedConditionalOrders(page?: GatewayPage): Promise<ConditionalOrder[]>;
  conditionalOrder(id: string): Promise<ConditionalOrder>;
  lastExecution(): Promise<Snapshot<ExecutionLastId>>;
  executions(page?: GatewayPage): Promise<Execution[]>;

  placeOrder(order: NewOrder): Promise<Order>;
  cancelOrder(orderId: string): Promise<Order>;
  cancelAllOrders(marketSymbol?: string): Promise<BulkCancelResult[]>;
  batch(operations: readonly BatchOperation[]): Promise<BatchResponse[]>;
  placeConditionalOrder(order: NewConditionalOrder): Promise<ConditionalOrder>;
  cancelConditionalOrder(id: string): Promise<ConditionalOrder>;

  /** Release connections and timers. */
  close(): Promise<void>;
}
