import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { A, B, DELAY, refusal, setup, stop } from './harness.js';

describe('OCO: conditional order paired with an order on the book', () => {
  it('links both ways: the conditional names the order, the order gets the reciprocal link', () => {
    const { co, orders } = setup();
    const o = orders.open(A);
    const c = co.create(A, stop('90', { orderToCancel: { type: 'ORDER', id: o.id } }));
    expect(c.orderToCancel).toEqual({ type: 'ORDER', id: o.id });
    expect(orders.calls).toEqual([`link:${o.id}:CONDITIONAL_ORDER:${c.id}`]);
    expect(orders.getOrder(A, o.id).orderToCancel).toEqual({ type: 'CONDITIONAL_ORDER', id: c.id });
  });

  it('on trigger cancels the order first (freeing its funds), then places orderToCreate', async () => {
    const { co, orders, clock, trade } = setup();
    const o = orders.open(A);
    const c = co.create(A, stop('90', { orderToCancel: { type: 'ORDER', id: o.id } }));
    orders.calls.length = 0;
    trade('BTC-USD', '90');
    await clock.advance(DELAY);
    expect(orders.calls).toEqual([`cancel:${o.id}`, 'place:BTC-USD:SELL']);
    expect(orders.getOrder(A, o.id).status).toBe('CLOSED');
    expect(co.get(A, c.id).status).toBe('COMPLETED');
  });

  it('still places when the paired order is already closed', async () => {
    const { co, orders, clock, trade } = setup();
    const o = orders.open(A);
    const c = co.create(A, stop('90', { orderToCancel: { type: 'ORDER', id: o.id } }));
    orders.cancelOrder(A, o.id); // the user cancelled the order: nothing else happens
    expect(co.get(A, c.id).status).toBe('OPEN');
    trade('BTC-USD', '90');
    await clock.advance(DELAY);
    expect(co.get(A, c.id).status).toBe('COMPLETED');
  });

  it('is cancelled when the paired order executes, also while its own action is pending', async () => {
    const { co, orders, clock, trade } = setup();
    const o1 = orders.open(A);
    const o2 = orders.open(A);
    const c1 = co.create(A, stop('90', { orderToCancel: { type: 'ORDER', id: o1.id } }));
    const c2 = co.create(A, stop('90', { orderToCancel: { type: 'ORDER', id: o2.id } }));
    co.onOrderExecuted(A, orders.open(A).id); // an unpaired order: nothing
    co.onOrderExecuted(B, o1.id); // not B's order: nothing
    expect(co.get(A, c1.id).status).toBe('OPEN');
    co.onOrderExecuted(A, o1.id);
    expect(co.get(A, c1.id)).toMatchObject({ status: 'CANCELLED' });
    trade('BTC-USD', '85'); // c2 fires, then its order executes before the delay ends
    co.onOrderExecuted(A, o2.id);
    orders.calls.length = 0;
    await clock.advance(DELAY);
    expect(co.get(A, c2.id).status).toBe('CANCELLED');
    expect(orders.calls).toEqual([]);
    co.onOrderExecuted(A, o1.id); // a second fill: already cancelled, nothing changes
    expect(co.listClosed(A)).toHaveLength(2);
  });

  it('refuses targets that are unknown, another account’s, closed or already paired', () => {
    const { co, orders } = setup();
    const closed = orders.open(A);
    orders.cancelOrder(A, closed.id);
    const mine = orders.open(A);
    const theirs = orders.open(B);
    const e1 = refusal(() => co.create(A, stop('90', { orderToCancel: { type: 'ORDER', id: theirs.id } })));
    expect([e1.status, e1.code]).toEqual([404, 'NOT_FOUND']);
    const e2 = refusal(() => co.create(A, stop('90', { orderToCancel: { type: 'ORDER', id: closed.id } })));
    expect([e2.status, e2.code]).toEqual([409, 'ORDER_NOT_OPEN']);
    co.create(A, stop('90', { orderToCancel: { type: 'ORDER', id: mine.id } }));
    const e3 = refusal(() => co.create(A, stop('80', { orderToCancel: { type: 'ORDER', id: mine.id } })));
    expect([e3.status, e3.code]).toEqual([409, 'NOT_ALLOWED']);
    expect(co.listOpen(A).data).toHaveLength(1);
  });
});

describe('OCO: two paired conditional orders', () => {
  it('pairs reciprocally and publishes the modified partner', () => {
    const { co, events } = setup();
    const tp = co.create(A, stop('110', { operand: 'GTE' }));
    const sl = co.create(A, stop('90', { orderToCancel: { type: 'CONDITIONAL_ORDER', id: tp.id.toUpperCase() } }));
    expect(sl.orderToCancel).toEqual({ type: 'CONDITIONAL_ORDER', id: tp.id });
    expect(co.get(A, tp.id).orderToCancel).toEqual({ type: 'CONDITIONAL_ORDER', id: sl.id });
    expect(events.map((e) => [e.sequence, e.delta.id])).toEqual([
      [1, tp.id],
      [2, sl.id],
      [3, tp.id],
    ]);
  });

  it('allows no more than two linked, and only open targets of the same account', () => {
    const { co } = setup();
    const a = co.create(A, stop('110', { operand: 'GTE' }));
    const b = co.create(A, stop('90', { orderToCancel: { type: 'CONDITIONAL_ORDER', id: a.id } }));
    for (const id of [a.id, b.id]) {
      const e = refusal(() => co.create(A, stop('80', { orderToCancel: { type: 'CONDITIONAL_ORDER', id } })));
      expect([e.status, e.code]).toEqual([409, 'NOT_ALLOWED']);
    }
    const cancelled = co.create(A, stop('70'));
    co.cancel(A, cancelled.id);
    const e1 = refusal(() => co.create(A, stop('80', { orderToCancel: { type: 'CONDITIONAL_ORDER', id: cancelled.id } })));
    expect([e1.status, e1.code]).toEqual([409, 'CONDITIONAL_ORDER_NOT_OPEN']);
    const theirs = co.create(B, stop('70'));
    const e2 = refusal(() => co.create(A, stop('80', { orderToCancel: { type: 'CONDITIONAL_ORDER', id: theirs.id } })));
    expect([e2.status, e2.code]).toEqual([404, 'NOT_FOUND']);
    const e3 = refusal(() => co.create(A, stop('80', { orderToCancel: { type: 'CONDITIONAL_ORDER', id: '00000000-0000-4000-8000-000000000000' } })));
    expect([e3.status, e3.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('the triggered one cancels its partner before placing its own order', async () => {
    const { co, orders, clock, trade, events } = setup();
    const tp = co.create(A, stop('110', { operand: 'GTE' }));
    const sl = co.create(A, stop('90', { orderToCancel: { type: 'CONDITIONAL_ORDER', id: tp.id } }));
    let partnerAtPlacement = '';
    orders.onPlace = () => {
      partnerAtPlacement = co.get(A, tp.id).status;
    };
    trade('BTC-USD', '89');
    await clock.advance(DELAY);
    expect(partnerAtPlacement).toBe('CANCELLED');
    expect(co.get(A, sl.id)).toMatchObject({ status: 'COMPLETED' });
    expect(co.get(A, tp.id).closedAt?.getTime()).toBe(co.get(A, sl.id).closedAt?.getTime());
    expect(events.slice(-2).map((e) => [e.delta.id, e.delta.status])).toEqual([
      [tp.id, 'CANCELLED'],
      [sl.id, 'COMPLETED'],
    ]);
    // The cancelled partner never acts.
    trade('BTC-USD', '120');
    await clock.advance(DELAY);
    expect(orders.calls).toEqual(['place:BTC-USD:SELL']);
  });

  for (const firstIsLower of [true, false]) {
    it(`when one trade meets both conditions only the first placed triggers (${firstIsLower ? 'first' : 'second'} has the lower trigger)`, async () => {
      const { co, orders, clock, trade } = setup();
      const first = co.create(A, stop(firstIsLower ? '100' : '105', { operand: 'GTE', orderToCreate: { ...stop('1').orderToCreate!, direction: 'BUY' } }));
      const second = co.create(A, stop(firstIsLower ? '105' : '100', { operand: 'GTE', orderToCancel: { type: 'CONDITIONAL_ORDER', id: first.id } }));
      trade('BTC-USD', '106');
      await clock.advance(DELAY);
      expect(co.get(A, first.id).status).toBe('COMPLETED');
      expect(co.get(A, second.id).status).toBe('CANCELLED');
      expect(orders.calls).toEqual(['place:BTC-USD:BUY']);
    });
  }

  it('a partner whose condition is met while the other is pending does not trigger', async () => {
    const { co, orders, clock, trade } = setup();
    const a = co.create(A, stop('100', { operand: 'GTE', orderToCreate: { ...stop('1').orderToCreate!, direction: 'BUY' } }));
    const b = co.create(A, stop('90', { orderToCancel: { type: 'CONDITIONAL_ORDER', id: a.id } }));
    trade('BTC-USD', '100'); // a fires
    await clock.advance(DELAY / 2);
    trade('BTC-USD', '80'); // b's condition, during a's delay
    await clock.advance(DELAY * 2);
    expect(co.get(A, a.id).status).toBe('COMPLETED');
    expect(co.get(A, b.id).status).toBe('CANCELLED');
    expect(orders.calls).toEqual(['place:BTC-USD:BUY']);
  });

  it('cancelling one leaves the partner open and still paired (the pairing is never broken)', async () => {
    const { co, orders, clock, trade } = setup();
    const a = co.create(A, stop('110', { operand: 'GTE' }));
    const b = co.create(A, stop('90', { orderToCancel: { type: 'CONDITIONAL_ORDER', id: a.id } }));
    co.cancel(A, a.id);
    expect(co.get(A, b.id)).toMatchObject({ status: 'OPEN', orderToCancel: { type: 'CONDITIONAL_ORDER', id: a.id } });
    expect(refusal(() => co.create(A, stop('80', { orderToCancel: { type: 'CONDITIONAL_ORDER', id: b.id } }))).code).toBe('NOT_ALLOWED');
    trade('BTC-USD', '85');
    await clock.advance(DELAY);
    expect(co.get(A, b.id).status).toBe('COMPLETED');
    expect(co.get(A, a.id).status).toBe('CANCELLED');
    expect(orders.calls).toEqual(['place:BTC-USD:SELL']);
  });

  it('a trailing conditional can be paired too, and its moves are published', async () => {
    const { co, clock, trade } = setup();
    trade('BTC-USD', '100');
    const tp = co.create(A, stop('130', { operand: 'GTE' }));
    const trail = co.create(A, { ...stop('1'), triggerPrice: undefined, trailingStopPercent: dec('10'), orderToCancel: { type: 'CONDITIONAL_ORDER', id: tp.id } });
    trade('BTC-USD', '125', '112.5');
    await clock.advance(DELAY);
    expect(co.get(A, trail.id)).toMatchObject({ status: 'COMPLETED' });
    expect(co.get(A, trail.id).triggerPrice?.toString()).toBe('112.5');
    expect(co.get(A, tp.id).status).toBe('CANCELLED');
  });
});
