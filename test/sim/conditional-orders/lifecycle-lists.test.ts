import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { IDEMPOTENCY_WINDOW_MS } from '../../../src/sim/idempotency.js';
import { A, B, DELAY, T0, refusal, setup, stop } from './harness.js';

const KEY = '6f0e5c1a-2b3c-4d5e-8f90-123456789abc';

describe('cancel', () => {
  it('OPEN -> CANCELLED with closedAt; cancelling again answers 409 CONDITIONAL_ORDER_NOT_OPEN', async () => {
    const { co, clock } = setup();
    const c = co.create(A, stop('90'));
    await clock.advance(5000);
    const x = co.cancel(A, c.id);
    expect(x).toMatchObject({ status: 'CANCELLED' });
    expect(x.closedAt?.getTime()).toBe(T0 + 5000);
    const again = refusal(() => co.cancel(A, c.id));
    expect([again.status, again.code]).toEqual([409, 'CONDITIONAL_ORDER_NOT_OPEN']);
  });

  it('answers 404 NOT_FOUND for unknown ids and other accounts’ orders', () => {
    const { co } = setup();
    const c = co.create(A, stop('90'));
    for (const fn of [() => co.cancel(B, c.id), () => co.get(B, c.id), () => co.get(A, '00000000-0000-4000-8000-000000000000')]) {
      const e = refusal(fn);
      expect([e.status, e.code]).toEqual([404, 'NOT_FOUND']);
    }
    expect(co.get(A, c.id).status).toBe('OPEN');
  });

  it('a cancel during the trigger delay wins: nothing is placed', async () => {
    const { co, orders, clock, trade } = setup();
    const c = co.create(A, stop('90'));
    trade('BTC-USD', '85');
    co.cancel(A, c.id);
    await clock.advance(DELAY * 2);
    expect(orders.calls).toEqual([]);
    expect(co.get(A, c.id).status).toBe('CANCELLED');
  });

  it('a completed or failed order cannot be cancelled', async () => {
    const { co, clock, trade } = setup();
    const c = co.create(A, stop('90'));
    trade('BTC-USD', '85');
    await clock.advance(DELAY);
    expect(refusal(() => co.cancel(A, c.id)).code).toBe('CONDITIONAL_ORDER_NOT_OPEN');
  });
});

describe('clientConditionalOrderId idempotency', () => {
  it('a repeat within 24 h answers 409 with the existing id and creates nothing; later it is accepted again', async () => {
    const { co, clock, events } = setup();
    const first = co.create(A, stop('90', { clientConditionalOrderId: KEY }));
    expect(first.clientConditionalOrderId).toBe(KEY);
    await clock.advance(IDEMPOTENCY_WINDOW_MS - 1);
    const dup = refusal(() => co.create(A, stop('90', { clientConditionalOrderId: KEY.toUpperCase() })));
    expect([dup.status, dup.code, dup.data]).toEqual([409, 'CLIENTCONDITIONALORDERID_ALREADY_EXISTS', { existingConditionalOrderId: first.id }]);
    expect(events).toHaveLength(1);
    // Still answered after the original closed.
    co.cancel(A, first.id);
    expect(refusal(() => co.create(A, stop('90', { clientConditionalOrderId: KEY }))).data).toEqual({ existingConditionalOrderId: first.id });
    await clock.advance(1);
    const second = co.create(A, stop('90', { clientConditionalOrderId: KEY }));
    expect(second.id).not.toBe(first.id);
  });

  it('is scoped per account and never collides with a clientOrderId of the same value', () => {
    const { co, idempotency } = setup();
    idempotency.remember(A, KEY, 'some-order-id'); // how an order's clientOrderId may be registered
    const a = co.create(A, stop('90', { clientConditionalOrderId: KEY }));
    const b = co.create(B, stop('90', { clientConditionalOrderId: KEY }));
    expect(a.id).not.toBe(b.id);
  });

  it('a retry of a paired creation answers ALREADY_EXISTS, not a pairing error', () => {
    const { co, orders } = setup();
    const o = orders.open(A);
    const n = stop('90', { clientConditionalOrderId: KEY, orderToCancel: { type: 'ORDER' as const, id: o.id } });
    const c = co.create(A, n);
    expect(refusal(() => co.create(A, n)).data).toEqual({ existingConditionalOrderId: c.id });
  });
});

describe('events and sequences', () => {
  it('are contiguous per account across create, modify, trigger and cancel, and match the snapshot', async () => {
    const { co, clock, trade, events } = setup();
    trade('BTC-USD', '100');
    const trail = co.create(A, { ...stop('1'), triggerPrice: undefined, trailingStopPercent: dec('10') }); // 1
    const other = co.create(B, stop('50')); // B:1
    const tp = co.create(A, stop('200', { operand: 'GTE' })); // 2
    trade('BTC-USD', '110'); // trail moves: 3
    trade('BTC-USD', '98'); // trail fires
    await clock.advance(DELAY); // COMPLETED: 4
    co.cancel(A, tp.id); // 5
    co.cancel(B, other.id); // B:2
    const a = events.filter((e) => e.accountId === A);
    expect(a.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5]);
    expect(a.map((e) => [e.delta.id, e.delta.status])).toEqual([
      [trail.id, 'OPEN'],
      [tp.id, 'OPEN'],
      [trail.id, 'OPEN'],
      [trail.id, 'COMPLETED'],
      [tp.id, 'CANCELLED'],
    ]);
    expect(events.filter((e) => e.accountId === B).map((e) => e.sequence)).toEqual([1, 2]);
    expect(co.listOpen(A).sequence).toBe(5);
    expect(co.openSequence(B)).toBe(2);
  });
});

describe('lists', () => {
  it('open: newest first, filtered by market (canonical, validated)', async () => {
    const { co, clock } = setup();
    const a = co.create(A, stop('90'));
    await clock.advance(1000);
    const b = co.create(A, { marketSymbol: 'ETH-BTC', operand: 'GTE', triggerPrice: dec('0.1') });
    await clock.advance(1000);
    const c = co.create(A, stop('80'));
    co.create(B, stop('70'));
    expect(co.listOpen(A).data.map((x) => x.id)).toEqual([c.id, b.id, a.id]);
    expect(co.listOpen(A, 'btc-usd').data.map((x) => x.id)).toEqual([c.id, a.id]);
    expect(refusal(() => co.listOpen(A, 'NOPE-BTC')).code).toBe('MARKET_DOES_NOT_EXIST');
  });

  it('closed: by closedAt descending, with market filter, pagination and dates on closedAt', async () => {
    const { co, clock } = setup();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const c = co.create(A, i === 2 ? { marketSymbol: 'ETH-BTC', operand: 'GTE', triggerPrice: dec('0.1') } : stop('90'));
      ids.push(c.id);
    }
    co.create(A, stop('10')); // stays open
    // Close in reverse creation order, one minute apart: closedAt order differs from createdAt order.
    for (let i = 4; i >= 0; i--) {
      await clock.advance(60_000);
      co.cancel(A, ids[i]!);
    }
    const closedOrder = [ids[0], ids[1], ids[2], ids[3], ids[4]];
    expect(co.listClosed(A).map((c) => c.id)).toEqual(closedOrder);
    expect(co.listClosed(A, { marketSymbol: 'ETH-BTC' }).map((c) => c.id)).toEqual([ids[2]]);
    expect(co.listClosed(A, { pageSize: 2 }).map((c) => c.id)).toEqual([ids[0], ids[1]]);
    expect(co.listClosed(A, { pageSize: 2, nextPageToken: ids[1] }).map((c) => c.id)).toEqual([ids[2], ids[3]]);
    expect(co.listClosed(A, { pageSize: 2, previousPageToken: ids[4] }).map((c) => c.id)).toEqual([ids[2], ids[3]]);
    const from = new Date(T0 + 2 * 60_000);
    const to = new Date(T0 + 4 * 60_000);
    expect(co.listClosed(A, { startDate: from, endDate: to }).map((c) => c.id)).toEqual([ids[1], ids[2], ids[3]]);
    expect(refusal(() => co.listClosed(A, { nextPageToken: 'nope' })).code).toBe('INVALID_NEXT_PAGE_TOKEN');
    expect(refusal(() => co.listClosed(A, { pageSize: 0 })).status).toBe(400);
    expect(co.listClosed(B)).toEqual([]);
  });
});
