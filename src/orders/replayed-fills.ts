/**
 * The fills a restarted bot finds in its journal, per client id: what they add up to and their execution ids, so
 * an order re-created at start is credited with them and never reports the same execution twice.
 */
import { type Decimal, ZERO } from '../core/decimal.js';
import type { InFlightOrder } from './in-flight.js';
import type { FillRecord } from './journal-records.js';

/** Journaled fills by client id (the order's, or the conditional order's that created it). */
export class ReplayedFills {
  readonly #byId = new Map<string, { quantity: Decimal; executions: string[] }>();

  /** Count one journaled fill (the caller has already de-duplicated it by execution id). */
  add(record: FillRecord): void {
    const r = this.#byId.get(record.id) ?? { quantity: ZERO, executions: [] };
    r.quantity = r.quantity.add(record.quantity);
    r.executions.push(record.executionId);
    this.#byId.set(record.id, r);
  }

  /** Credit `entry` with the fills journaled for its client id. */
  restore(entry: InFlightOrder): void {
    const r = this.#byId.get(entry.clientOrderId);
    if (!r) return;
    entry.filledByExecutions = r.quantity;
    for (const id of r.executions) entry.executions.add(id);
  }
}
