/**
 * What the order manager needs from the rest of the kernel, as narrow structural types: any AccountStore (or
 * the strategies' read-only view of one) is a {@link ReadonlyAccountStore}, the RiskEngine is a
 * {@link RiskPort}, the Portfolio a {@link PortfolioPort}.
 */
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { Decimal } from '../core/decimal.js';
import type { ExchangeGateway } from '../gateway/exchange-gateway.js';
import type { ProposedOrder, RiskVerdict } from '../model/intent.js';
import type { Market } from '../model/market.js';
import type { AccountStore } from '../store/account-store.js';
import type { ReadonlyMarketStore } from '../store/market-store.js';
import type { Metrics } from '../telemetry/metrics.js';
import type { PositionSnapshot } from '../portfolio/position.js';
import type { Journal } from './journal.js';
import type { OrderEvent } from './order-events.js';
import type { RetryPolicy } from './retry-policy.js';

/** The account reads the manager uses: the change feed and lookups by client id. */
export type ReadonlyAccountStore = Pick<
  AccountStore,
  'changes$' | 'openOrders' | 'order' | 'orderByClientOrderId' | 'conditionalOrder' | 'conditionalOrderByClientId'
>;

/** The market reads the manager uses (best prices for reservations and target-position pricing). */
export type MarketPrices = Pick<ReadonlyMarketStore, 'bestBid' | 'bestAsk'>;

/** A fill event. */
export type FillEvent = Extract<OrderEvent, { type: 'fill' }>;

/** The risk engine as the manager uses it. */
export interface RiskPort {
  evaluate(order: ProposedOrder): RiskVerdict;
  /**
   * When the submit-rate brake admits `orders` more orders (undefined: now). Without it, a wish the brake turned
   * away waits for its strategy's next intent.
   */
  submitSlotAt?(orders?: number): number | undefined;
  /**
   * Run `fn`, the evaluations of one plan made one after another with nothing else in between, with the engine's
   * limits re-evaluated once for all of them (see RiskEngine.together). Without it, each evaluation does its own.
   */
  together?<T>(fn: () => T): T;
}

/** The portfolio as the manager uses it: fills in, positions out. */
export interface PortfolioPort {
  onFill(fill: FillEvent): void;
  /** Replace a position with the journal's snapshot of it (at start, before any fill is reported). */
  restorePosition(snapshot: PositionSnapshot): void;
  position(marketSymbol: string, strategy?: string): Decimal;
}

/** Dependencies of the {@link OrderManager}. */
export interface OrderManagerDeps {
  gateway: ExchangeGateway;
  risk: RiskPort;
  journal: Journal;
  clock: Clock;
  account: ReadonlyAccountStore;
  marketStore: MarketPrices;
  markets: (symbol: string) => Market | undefined;
  portfolio?: PortfolioPort | undefined;
  logger?: Logger | undefined;
  metrics?: Metrics | undefined;
  /** Overrides of {@link DEFAULT_RETRY_POLICY}. */
  retry?: Partial<RetryPolicy> | undefined;
  /** Operations per POST /batch (default 50); larger ladders are sent as several batches. */
  batchSize?: number | undefined;
  /** clientOrderId generator (default `randomUUID`). */
  newId?: (() => string) | undefined;
}
