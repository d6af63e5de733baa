import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { InFlightOrder } from '../../src/orders/in-flight.js';
import { batchOperations, cancellableOrders, cancelsStillPending } from '../../src/orders/order-lists.js';
import { exchangeOrder } from './harness.js';

const request = { marketSymbol: 'BTC-USD', direction: 'BUY' as const, type: 'LIMIT' as const, timeInForce: 'GOOD_TIL_CANCELLED' as const, quantity: dec('1'), limit: dec('100') };
/** An entry the exchange acknowledged as `id` (OPEN, or PARTIALLY_FILLED with a fill). */
const acked = (id: string, filled = '0') => {
  const e = new InFlightOrder({ clientOrderId: `c-${id}`, strategy: 's', intentKey: 'k', role: 'order', request, createdAt: 0 });
  e.transition('SUBMITTED');
  e.applyOrder(exchangeOrder(e, { id, fillQuantity: dec(filled) }));
  return e;
};
const unsent = (id: string) => new InFlightOrder({ clientOrderId: `c-${id}`, strategy: 's', intentKey: 'k', role: 'order', request, createdAt: 0 });

describe('order lists', () => {
  it('cancellableOrders keeps the open and partly filled orders with an exchange id, in order', () => {
    const open = acked('o1');
    const partly = acked('o2', '0.5');
    const pending = acked('o3');
    pending.transition('CANCEL_PENDING');
    const closed = acked('o4');
    closed.applyOrder(exchangeOrder(closed, { id: 'o4', status: 'CLOSED', fillQuantity: dec('1') }));
    expect(partly.state).toBe('PARTIALLY_FILLED');
    expect(cancellableOrders([unsent('u1'), open, pending, partly, closed])).toEqual([open, partly]);
    expect(cancellableOrders([])).toEqual([]);
  });

  it('cancelsStillPending drops the cancels whose order closed meanwhile', () => {
    const a = acked('o1');
    const b = acked('o2');
    a.transition('CANCEL_PENDING');
    b.transition('CANCEL_PENDING');
    b.applyOrder(exchangeOrder(b, { id: 'o2', status: 'CLOSED' }));
    expect(cancelsStillPending([a, b])).toEqual([a]);
  });

  it('batchOperations puts the cancels first (they free funds), then the placements, each in its order', () => {
    const c1 = acked('o1');
    const c2 = acked('o2');
    const p1 = unsent('n1');
    const p2 = unsent('n2');
    expect(batchOperations([c1, c2], [p1, p2])).toEqual([
      { resource: 'ORDER', operation: 'DELETE', payload: { id: 'o1' } },
      { resource: 'ORDER', operation: 'DELETE', payload: { id: 'o2' } },
      { resource: 'ORDER', operation: 'POST', payload: p1.request },
      { resource: 'ORDER', operation: 'POST', payload: p2.request },
    ]);
    expect(batchOperations([], [])).toEqual([]);
  });
});
