/**
 * The foundations the engine's facades are built on. One {@link SimEngine} creates each once and hands the same
 * objects to the funds and the trading side, which is what makes one ledger, one event order and one set of
 * stream sequences across both.
 */
import type { Clock } from '../core/clock.js';
import type { Catalog } from './catalog.js';
import type { SimConfig } from './config.js';
import type { SimEventBus } from './events.js';
import type { IdempotencyIndex } from './idempotency.js';
import type { Ledger } from './ledger.js';
import type { SequenceCounters } from './sequences.js';

/**
 * What {@link Funds} and {@link Trading} need from the engine.
 *
 * @example
 * const deps: EngineDeps = { clock, ledger, catalog, bus, sequences, idempotency, config };
 * const funds = new Funds(deps);
 * const trading = new Trading({ ...deps, permits: (a, m, d) => funds.permissions.canTrade(a, m, d) });
 */
export interface EngineDeps {
  clock: Clock;
  ledger: Ledger;
  catalog: Catalog;
  bus: SimEventBus;
  sequences: SequenceCounters;
  idempotency: IdempotencyIndex;
  config: SimConfig;
}
