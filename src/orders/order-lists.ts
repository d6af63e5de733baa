/**
 * The lists of orders a plan hands down to the requests (placements, cancels, a batch's operations), built the one
 * way V8 keeps fast.
 *
 * ORDER_LISTS. These lists are built by a loop into an array literal, not by map() or filter(). V8 keeps an empty
 * array made by map or filter with the elements kind of small integers and a filled one with that of objects: two
 * shapes of list then reach every function they pass through (the manager's #execute, batch, batchChunks,
 * #batchChunk, the retry closures), and each one's optimized code was thrown away, and the function compiled again,
 * when the other shape first came (--trace-deopt: 'wrong map' at a `.length` or a builtin call, one deopt per
 * function in a market maker's backtest, where a ladder whose orders were all refused by the submit-rate brake is an
 * empty list). A literal's allocation site learns the objects' kind from its first filled list, so its empty lists
 * are made with it too.
 */
import type { BatchOperation } from '../model/order.js';
import type { InFlightOrder } from './in-flight.js';

/** The orders of `entries` a cancel can be sent for now: open or partly filled, with an exchange id. */
export function cancellableOrders(entries: readonly InFlightOrder[]): InFlightOrder[] {
  const out: InFlightOrder[] = [];
  for (const e of entries) {
    if ((e.state === 'OPEN' || e.state === 'PARTIALLY_FILLED') && e.orderId !== undefined) out.push(e);
  }
  return out;
}

/** The orders of `entries` still waiting for their cancel (one that closed meanwhile, by the stream, needs none). */
export function cancelsStillPending(entries: readonly InFlightOrder[]): InFlightOrder[] {
  const out: InFlightOrder[] = [];
  for (const e of entries) {
    if (e.state === 'CANCEL_PENDING') out.push(e);
  }
  return out;
}

/**
 * The operations of one `POST /batch`: the cancels first (they free funds), then the placements. One loop per kind,
 * not two mapped lists spread into a third: the spread was deoptimized, and its caller recompiled, four times in a
 * market maker's backtest.
 */
export function batchOperations(cancels: readonly InFlightOrder[], places: readonly InFlightOrder[]): BatchOperation[] {
  const operations: BatchOperation[] = [];
  for (const c of cancels) operations.push({ resource: 'ORDER', operation: 'DELETE', payload: { id: c.orderId! } });
  for (const p of places) operations.push({ resource: 'ORDER', operation: 'POST', payload: p.request! });
  return operations;
}
