/**
 * Types shared by the trading modules: the engine's record of an order and the narrow views of the market-data
 * and conditional-order modules that trading feeds. (The port conditional orders use to place and cancel orders,
 * `OrderPort`, is declared by the conditional-orders module; {@link Trading} implements it.)
 */
import type { Decimal } from '../core/decimal.js';
import type { Execution, Order } from '../model/order.js';
import type { Trade } from '../model/market.js';
import type { RestingOrder } from './book/price-level.js';

/** Endpoints cap these lists at their first 1000 items (seed section 8). */
export const LIST_CAP = 1000;

/** The engine's record of one order. `order` is mutated in place and copied on the way out. */
export interface OrderRecord {
  readonly accountId: string;
  readonly order: Order;
  readonly baseCurrency: string;
  readonly quoteCurrency: string;
  /** Currency this order keeps reserved in the ledger (quote for a buy, base for a sell). */
  readonly reserveCurrency: string;
  /** Amount still reserved by this order; zero once closed. */
  reserved: Decimal;
  /** Base quantity not yet filled, for orders with a quantity (LIMIT, MARKET). */
  remaining: Decimal | undefined;
  /** The book entry while the order rests. */
  resting: RestingOrder | undefined;
  /**
   * This order's newest executions, oldest first: GET /orders/{id}/executions answers at most the newest
   * {@link LIST_CAP}, so no more than twice that are kept (a maker order resting for days otherwise kept every
   * partial fill it ever had).
   */
  readonly executions: Execution[];
  /** Monotonic number of the order's closing, to order closed orders closed in the same millisecond. */
  closeSeq: number;
}

/** What trading tells market data (implemented by `MarketData`). */
export interface MarketDataSink {
  /** All fills of one taker order, after the book changed. */
  recordTrades(marketSymbol: string, trades: Trade[]): void;
  /** Best bid and/or ask of a market changed. */
  updateTop(marketSymbol: string, bid: Decimal | undefined, ask: Decimal | undefined): void;
}

/** What trading tells conditional orders (implemented by `ConditionalOrders`). */
export interface ConditionalOrderSink {
  /** Trades of a market, after market data recorded them; triggers are evaluated here. */
  onTrades(marketSymbol: string, trades: Trade[]): void;
  /** An order linked to a conditional order (orderToCancel) got its first fill. */
  onOrderExecuted(accountId: string, orderId: string): void;
}

/** One fill as seen by one side, for listeners such as account volume. */
export interface FillNotice {
  accountId: string;
  marketSymbol: string;
  quoteCurrency: string;
  /** Quote amount of the fill (before commission). */
  quote: Decimal;
  execution: Execution;
}

/** Modules trading reports to; all optional so trading runs (and is tested) alone. */
export interface TradingHooks {
  marketData?: MarketDataSink | undefined;
  conditionalOrders?: ConditionalOrderSink | undefined;
  /** Called once per execution (each side of each fill), after the operation's state is complete. */
  onFill?: ((fill: FillNotice) => void) | undefined;
}
