/**
 * POST /batch: operations run sequentially, in request order, each answering exactly the status and payload the
 * individual request would have (seed): 201 with the Order for a placement, 200 with the Order for a
 * cancellation, or the refusal's status with its Error body — and a refusal does not stop the operations after
 * it. (The official example shows 200 for placements; the seed's "creating calls answer 201" and "same status
 * as the individual request" win.)
 *
 * An entry the REST layer could not decode is passed in as the {@link SimError} it produced, so it answers in
 * its place without disturbing the others. `resource` and `operation` are matched case-insensitively, since the
 * official example sends them in lower case.
 */
import type { BatchOperation, BatchResponse, NewOrder, Order } from '../model/order.js';
import { SimError, badRequest } from './sim-error.js';

/** One batch entry: a decoded operation, or the error decoding it produced. */
export type BatchItem = BatchOperation | SimError;

/** The two operations a batch may carry. */
export interface BatchTarget {
  placeOrder(accountId: string, o: NewOrder): Order;
  cancelOrder(accountId: string, orderId: string): Order;
}

/** Run `items` for `accountId` against `target`; one response per item, in order. */
export function runBatch(target: BatchTarget, accountId: string, items: readonly BatchItem[]): BatchResponse[] {
  return items.map((item) => {
    try {
      if (item instanceof SimError) throw item;
      const resource = String(item.resource).toUpperCase();
      const operation = String(item.operation).toUpperCase();
      if (resource !== 'ORDER') throw badRequest('BAD_REQUEST', `unsupported batch resource ${String(item.resource)}`);
      if (operation === 'POST') return { status: 201, ok: true, payload: target.placeOrder(accountId, item.payload as NewOrder) };
      if (operation === 'DELETE') {
        const id = (item.payload as { id?: unknown } | undefined)?.id;
        if (typeof id !== 'string') throw badRequest('BAD_REQUEST', 'DELETE payload needs an order id', { invalidRequestParameters: ['id'] });
        return { status: 200, ok: true, payload: target.cancelOrder(accountId, id) };
      }
      throw badRequest('BAD_REQUEST', `unsupported batch operation ${String(item.operation)}`);
    } catch (e) {
      if (e instanceof SimError) return { status: e.status, ok: false, payload: e.toBody() };
      throw e;
    }
  });
}
