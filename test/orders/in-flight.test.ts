import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { Order } from '../../src/model/order.js';
import { canTransition, InFlightOrder, InFlightTransitionError } from '../../src/orders/in-flight.js';

const request = { marketSymbol: 'BTC-USD', direction: 'BUY' as const, type: 'LIMIT' as const, timeInForce: 'GOOD_TIL_CANCELLED' as const, quantity: dec('1'), limit: dec('100') };
const order = (over: Partial<Order>): Order => ({
  id: 'o1',
  marketSymbol: 'BTC-USD',
  direction: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GOOD_TIL_CANCELLED',
  quantity: dec('1'),
  limit: dec('100'),
  fillQuantity: dec('0'),
  commission: dec('0'),
  proceeds: dec('0'),
  status: 'OPEN',
  createdAt: new Date(0),
  ...over,
});
const entry = () => new InFlightOrder({ clientOrderId: 'c1', strategy: 's', intentKey: 'k', role: 'order', request, createdAt: 0 });

describe('InFlightOrder', () => {
  it('follows the exchange: OPEN, PARTIALLY_FILLED, CLOSED; remaining quantity', () => {
    const e = entry();
    e.transition('SUBMITTED');
    expect(e.applyOrder(order({}))).toBe(true);
    expect(e.state).toBe('OPEN');
    e.applyOrder(order({ fillQuantity: dec('0.4') }));
    expect(e.state).toBe('PARTIALLY_FILLED');
    expect(e.remaining?.toFixed()).toBe('0.6');
    e.applyOrder(order({ fillQuantity: dec('1'), status: 'CLOSED' }));
    expect(e.state).toBe('CLOSED');
    expect(e.isFinal).toBe(true);
    expect(e.isDone).toBe(false); // until its fills are reported
    e.closedReported = true;
    expect(e.isDone).toBe(true);
  });

  it('ignores stale updates: less filled, or open after closed', () => {
    const e = entry();
    e.applyOrder(order({ fillQuantity: dec('0.5') }));
    expect(e.applyOrder(order({ fillQuantity: dec('0.2') }))).toBe(false);
    expect(e.order?.fillQuantity.toFixed()).toBe('0.5');
    e.applyOrder(order({ status: 'CLOSED', fillQuantity: dec('0.5') }));
    expect(e.applyOrder(order({ fillQuantity: dec('0.5') }))).toBe(false);
    expect(e.state).toBe('CLOSED');
  });

  it('keeps CANCEL_PENDING until the order is seen closed; ignores another order id', () => {
    const e = entry();
    e.applyOrder(order({}));
    e.transition('CANCEL_PENDING');
    e.applyOrder(order({ fillQuantity: dec('0.1') }));
    expect(e.state).toBe('CANCEL_PENDING');
    expect(e.applyOrder(order({ id: 'other' }))).toBe(false);
    e.applyOrder(order({ status: 'CLOSED', fillQuantity: dec('0.1') }));
    expect(e.state).toBe('CLOSED');
  });

  it('adopts an order that turns up after it was declared lost or failed', () => {
    for (const end of ['LOST', 'FAILED'] as const) {
      const e = entry();
      e.transition('SUBMITTED');
      if (end === 'LOST') e.transition('AMBIGUOUS');
      e.transition(end);
      expect(e.applyOrder(order({}))).toBe(true);
      expect(e.state).toBe('OPEN');
    }
  });

  it('refuses transitions the machine does not have', () => {
    expect(canTransition('CLOSED', 'OPEN')).toBe(false);
    expect(canTransition('OPEN', 'SUBMITTED')).toBe(false);
    const e = entry();
    expect(() => e.transition('CANCEL_PENDING')).toThrow(InFlightTransitionError);
  });
});
