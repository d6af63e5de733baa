/** What the order tracker needs and what it tells the order manager (see order-tracker.ts). */
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { ExchangeGateway } from '../gateway/exchange-gateway.js';
import type { FillTracker } from './fill-tracker.js';
import type { InFlightConditional } from './in-flight-conditional.js';
import type { InFlightRegistry } from './in-flight-registry.js';
import type { InFlightOrder } from './in-flight.js';
import type { Journal } from './journal.js';
import type { OrderEvent } from './order-events.js';
import type { PortfolioPort, ReadonlyAccountStore } from './order-manager-deps.js';
import type { RetryPolicy } from './retry-policy.js';

/** What the tracker tells the manager. */
export interface TrackerHooks {
  /** An order or conditional order got its exchange id while a cancel was waiting for it. */
  cancelRequested(entry: InFlightOrder | InFlightConditional): void;
  /** An order is done: closed with every fill reported (or failed / lost). */
  finished(entry: InFlightOrder): void;
  /** Something changed for (strategy, intentKey): deferred intents of the key may run now. */
  keyChanged(strategy: string, intentKey: string): void;
}

/** Dependencies of {@link OrderTracker}. */
export interface OrderTrackerDeps {
  registry: InFlightRegistry;
  fills: FillTracker;
  journal: Journal;
  clock: Clock;
  gateway: ExchangeGateway;
  account: ReadonlyAccountStore;
  portfolio: PortfolioPort | undefined;
  policy: RetryPolicy;
  log: Logger;
  emit: (event: OrderEvent) => void;
  /** Keep a background promise for drain(). */
  track: (p: Promise<unknown>) => void;
  hooks: TrackerHooks;
}
