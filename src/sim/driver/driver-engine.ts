/**
 * The part of the simulator engine a market driver uses: the same public operations any user has (place, cancel
 * and read orders), transactions that publish several of them as one operation (a recorded message re-enacted),
 * ordinary account creation, and funding by completed deposits (money entering the exchange, so
 * the ledger's conservation audit covers it). Declared structurally so the driver depends on capabilities rather
 * than on the whole facade; `SimEngine` satisfies it.
 */
import type { Decimal } from '../../core/decimal.js';
import type { Trade } from '../../model/market.js';
import type { NewOrder, Order } from '../../model/order.js';
import type { Catalog } from '../catalog.js';
import type { SimEventBus } from '../events.js';
import type { LedgerBalance } from '../ledger.js';
import type { PlaceOptions } from '../trading.js';

/** What a driver needs from the engine. */
export interface DriverEngine {
  readonly catalog: Catalog;
  readonly bus: SimEventBus;
  readonly ledger: { get(accountId: string, currency: string): LedgerBalance };
  /** Open an ordinary master account; returns its id. */
  createParticipant(): string;
  /** Credit `amount` of `currency` to an account as a completed deposit. */
  fund(accountId: string, currency: string, amount: Decimal): void;
  /** `opts.recordedLiquidity` for replayed levels: the venue that recorded them had accepted them already. */
  placeOrder(accountId: string, order: NewOrder, opts?: PlaceOptions): Order;
  cancelOrder(accountId: string, orderId: string): Order;
  /** GET /orders/{id}: the order's state now (also inside a transaction, before its events are published). */
  getOrder(accountId: string, orderId: string): Order;
  /** Run `fn`'s placements and cancellations on one market as one published operation (see `SimEngine.transact`). */
  transact<T>(marketSymbol: string, fn: () => T): T;
  /** Where generated history goes (the engine's market data); without it the driver starts with no history. */
  readonly marketData?: { seedHistory(marketSymbol: string, trades: readonly Trade[]): void };
}
