/**
 * The part of the simulator engine a market driver uses: the same public operations any user has (place and
 * cancel orders), ordinary account creation, and funding by completed deposits (money entering the exchange, so
 * the ledger's conservation audit covers it). Declared structurally so the driver depends on capabilities rather
 * than on the whole facade; `SimEngine` satisfies it.
 */
import type { Decimal } from '../../core/decimal.js';
import type { Trade } from '../../model/market.js';
import type { NewOrder, Order } from '../../model/order.js';
import type { Catalog } from '../catalog.js';
import type { SimEventBus } from '../events.js';
import type { LedgerBalance } from '../ledger.js';

/** What a driver needs from the engine. */
export interface DriverEngine {
  readonly catalog: Catalog;
  readonly bus: SimEventBus;
  readonly ledger: { get(accountId: string, currency: string): LedgerBalance };
  /** Open an ordinary master account; returns its id. */
  createParticipant(): string;
  /** Credit `amount` of `currency` to an account as a completed deposit. */
  fund(accountId: string, currency: string, amount: Decimal): void;
  placeOrder(accountId: string, order: NewOrder): Order;
  cancelOrder(accountId: string, orderId: string): Order;
  /** Where generated history goes (the engine's market data); without it the driver starts with no history. */
  readonly marketData?: { seedHistory(marketSymbol: string, trades: readonly Trade[]): void };
}
