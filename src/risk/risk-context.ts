/**
 * What the risk engine reads, and what each check is: the ports between risk and the rest of the kernel.
 * The runtime builds the {@link RiskContext} from the stores, the synchronizers and the order manager.
 */
import type { Clock } from '../core/clock.js';
import type { Decimal } from '../core/decimal.js';
import type { Market } from '../model/market.js';
import type { ProposedOrder, RiskReason } from '../model/intent.js';
import type { Portfolio } from '../portfolio/portfolio.js';
import type { ReadonlyMarketStore } from '../store/market-store.js';
import type { FillEstimate } from './order-value.js';
import type { PendingOrder } from './order-reserve.js';
import type { RiskCheckName, RiskConfig } from './risk-config.js';

/**
 * The trading state: ACTIVE trades normally; REDUCING only lets orders through that shrink a position;
 * HALTED stops every risk-increasing order (and, unless configured otherwise, lets reducing ones through).
 */
export type TradingState = 'ACTIVE' | 'REDUCING' | 'HALTED';

/** What the engine reads. The runtime provides it; the order manager supplies the in-flight figures. */
export interface RiskContext {
  clock: Clock;
  /** Reference data (status, precision, minTradeSize); undefined for an unknown symbol. */
  market(symbol: string): Market | undefined;
  /** Mid, best bid, best ask and book levels. */
  marketStore: ReadonlyMarketStore;
  /** True while the market's book and the account streams are synchronized (live). */
  streamLive(symbol: string): boolean;
  /** Available balance of a currency (AccountStore). */
  available(currency: string): Decimal;
  /** Open orders of the account, including placements in flight. */
  openOrderCount(): number;
  /**
   * Funds reserved by placements sent but not yet acknowledged (not yet reflected in `available`). Used only
   * without {@link RiskContext.pendingOrders}, which lets the engine value them by its own rule instead.
   */
  inFlightReserved(currency: string): Decimal;
  /**
   * The account's live orders — resting, or sent and not yet acknowledged — each with what it can still trade.
   * With it, max position and REDUCING count them at their worst case, and unacknowledged placements are
   * reserved exactly as the exchange will hold them (src/risk/order-reserve.ts).
   */
  pendingOrders?(): Iterable<PendingOrder>;
  /** Positions and PnL. */
  portfolio: Portfolio;
  /** BTC value of `amount` of `currency` (for the dust rule); undefined when no rate is known. */
  btcValue?(currency: string, amount: Decimal): Decimal | undefined;
  /**
   * True only when `btcValue(currency, amount)` is surely at least `min` (false: not sure, ask btcValue). Lets the
   * dust rule pass an order without converting its value (a division through an inverse market such as BTC-USD).
   */
  btcAtLeast?(currency: string, amount: Decimal, min: Decimal): boolean;
}

/** What a check sees besides the order: the engine's context plus the engine's own state. */
export interface CheckContext extends RiskContext {
  /** The trading state at this evaluation (after re-evaluating the limits). */
  readonly tradingState: TradingState;
  /** Orders approved within the submit-rate window ending now. */
  readonly approvalsInWindow: number;
  /**
   * Estimated full fill of `order` (see order-value.ts). The engine memoizes it per evaluation, so the checks
   * that value a market order share one walk of the book.
   */
  estimate(order: ProposedOrder): FillEstimate | undefined;
}

/**
 * A check's answer: the reasons it refuses the order (empty = fine), or a corrected (rounded) order, possibly
 * with reasons too. Later checks see the corrected order.
 */
export type CheckResult = readonly RiskReason[] | { readonly order: ProposedOrder; readonly reasons?: readonly RiskReason[] };

/**
 * One risk check: a small object with a stable name and a pure function of the order, the context and the config.
 *
 * @example
 * export const maxOpenOrdersCheck: RiskCheck = {
 *   name: 'max-open-orders',
 *   check: (order, ctx, config) => (ctx.openOrderCount() >= config.maxOpenOrders ? [reason('MAX_OPEN_ORDERS', '...')] : []),
 * };
 */
export interface RiskCheck {
  readonly name: RiskCheckName;
  check(order: ProposedOrder, ctx: CheckContext, config: RiskConfig): CheckResult;
}
