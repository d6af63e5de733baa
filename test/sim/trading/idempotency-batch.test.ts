import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { badRequest } from '../../../src/sim/sim-error.js';
import { checkInvariants, refusal, setup } from './harness.js';

const CID = '6a1f7c1e-3b0f-4c52-9a53-0f4d6f9d8a11';

function funded() {
  const h = setup();
  for (const a of ['me', 'other']) {
    h.fund(a, 'BTC', '1');
    h.fund(a, 'USD', '50000');
  }
  return h;
}

describe('clientOrderId idempotency', () => {
  it('answers 409 CLIENTORDERID_ALREADY_EXISTS with data.existingOrderId within 24 h, and creates nothing', () => {
    const h = funded();
    const first = h.place('me', { quantity: dec('0.01'), limit: dec('30000'), clientOrderId: CID });
    expect(first.clientOrderId).toBe(CID);
    const e = refusal(() => h.place('me', { quantity: dec('0.02'), limit: dec('29000'), clientOrderId: CID.toUpperCase() }));
    expect(e).toMatchObject({ status: 409, code: 'CLIENTORDERID_ALREADY_EXISTS', data: { existingOrderId: first.id } });
    expect(h.trading.reads.openOrders('me').data).toHaveLength(1);
    // Another account may use the same id.
    expect(h.place('other', { quantity: dec('0.01'), limit: dec('30000'), clientOrderId: CID }).status).toBe('OPEN');
  });

  it('still answers ALREADY_EXISTS after the order closed, and stops checking after 24 hours (virtual time)', async () => {
    const h = funded();
    const first = h.place('me', { quantity: dec('0.01'), limit: dec('30000'), clientOrderId: CID });
    h.trading.cancelOrder('me', first.id);
    await h.clock.advance(24 * 3600_000 - 1);
    expect(refusal(() => h.place('me', { quantity: dec('0.01'), limit: dec('30000'), clientOrderId: CID })).code).toBe('CLIENTORDERID_ALREADY_EXISTS');
    await h.clock.advance(1);
    const second = h.place('me', { quantity: dec('0.01'), limit: dec('30000'), clientOrderId: CID });
    expect(second.id).not.toBe(first.id);
    // The old order keeps its clientOrderId as metadata.
    expect(h.trading.getOrder('me', first.id).clientOrderId).toBe(CID);
  });

  it('does not consume the clientOrderId when the placement is refused', () => {
    const h = funded();
    expect(refusal(() => h.place('me', { quantity: dec('5'), limit: dec('30000'), clientOrderId: CID })).code).toBe('INSUFFICIENT_FUNDS');
    expect(h.place('me', { quantity: dec('0.01'), limit: dec('30000'), clientOrderId: CID }).status).toBe('OPEN');
  });
});

describe('batch', () => {
  it('runs operations in order, each with the status and payload of the individual request', () => {
    const h = funded();
    const resting = h.place('me', { quantity: dec('0.01'), limit: dec('20000') });
    const closed = h.place('me', { quantity: dec('0.01'), limit: dec('20001') });
    h.trading.cancelOrder('me', closed.id);
    const res = h.trading.batch('me', [
      { resource: 'ORDER', operation: 'POST', payload: { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('20000') } },
      { resource: 'ORDER', operation: 'POST', payload: { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('100'), limit: dec('20050') } },
      { resource: 'ORDER', operation: 'DELETE', payload: { id: resting.id } },
      { resource: 'ORDER', operation: 'DELETE', payload: { id: closed.id } },
      badRequest('BAD_REQUEST', 'payload could not be decoded'),
      { resource: 'order' as 'ORDER', operation: 'delete' as 'DELETE', payload: { id: '00000000-0000-0000-0000-000000000000' } },
    ]);
    expect(res.map((r) => [r.status, r.ok, r.ok ? r.payload.status : r.payload.code])).toEqual([
      [201, true, 'OPEN'],
      [409, false, 'INSUFFICIENT_FUNDS'],
      [200, true, 'CLOSED'],
      [409, false, 'ORDER_NOT_OPEN'],
      [400, false, 'BAD_REQUEST'],
      [404, false, 'NOT_FOUND'],
    ]);
    expect(h.trading.reads.openOrders('me').data.map((o) => o.id)).toEqual([res[0]!.ok ? res[0]!.payload.id : '']);
    checkInvariants(h, ['me']);
  });

  it('later operations see the effects of earlier ones (sequential)', () => {
    const h = funded();
    const res = h.trading.batch('me', [
      { resource: 'ORDER', operation: 'POST', payload: { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('1.6'), limit: dec('30000') } },
      { resource: 'ORDER', operation: 'POST', payload: { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.1'), limit: dec('30000') } },
    ]);
    expect(res.map((r) => r.status)).toEqual([201, 409]);
  });
});

describe('cancel all', () => {
  it('cancels every open order of the account, or only those of one market', () => {
    const h = funded();
    h.fund('me', 'BTC', '1');
    const a = h.place('me', { quantity: dec('0.01'), limit: dec('20000') });
    const b = h.place('me', { direction: 'SELL', quantity: dec('0.01'), limit: dec('40000') });
    const c = h.place('me', { marketSymbol: 'ETH-BTC', quantity: dec('0.1'), limit: dec('0.06') });
    h.place('other', { quantity: dec('0.01'), limit: dec('20000') });
    const one = h.trading.cancelAll('me', 'eth-btc');
    expect(one.map((r) => [r.id, r.statusCode, r.result?.status])).toEqual([[c.id, 'SUCCESS', 'CLOSED']]);
    const rest = h.trading.cancelAll('me');
    expect(rest.map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
    expect(h.trading.reads.openOrders('me').data).toEqual([]);
    expect(h.trading.reads.openOrders('other').data).toHaveLength(1);
    expect(refusal(() => h.trading.cancelAll('me', 'NOPE-BTC')).code).toBe('MARKET_DOES_NOT_EXIST');
    checkInvariants(h, ['me', 'other']);
  });
});

describe('closed orders and executions lists', () => {
  it('lists closed orders most recently closed first, paginated, with date filters on closedAt', async () => {
    const h = funded();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const o = h.place('me', { quantity: dec('0.01'), limit: dec(String(20000 + i)) });
      await h.clock.advance(1000);
      h.trading.cancelOrder('me', o.id);
      ids.push(o.id);
    }
    const all = h.trading.reads.closedOrders('me');
    expect(all.map((o) => o.id)).toEqual([...ids].reverse());
    const page1 = h.trading.reads.closedOrders('me', { pageSize: 2 });
    const page2 = h.trading.reads.closedOrders('me', { pageSize: 2, nextPageToken: page1[1]!.id });
    expect([...page1, ...page2].map((o) => o.id)).toEqual([...ids].reverse().slice(0, 4));
    const since = h.trading.reads.closedOrders('me', { startDate: new Date(all[1]!.closedAt!) });
    expect(since.map((o) => o.id)).toEqual([ids[4], ids[3]]);
    expect(h.trading.reads.closedOrders('me', { marketSymbol: 'ETH-BTC' })).toEqual([]);
    expect(refusal(() => h.trading.reads.closedOrders('me', { pageSize: 500 })).status).toBe(400);
  });

  it('lists executions newest first with market filter and pagination', () => {
    const h = funded();
    for (let i = 0; i < 3; i++) {
      h.place('other', { direction: 'SELL', quantity: dec('0.01'), limit: dec('30000') });
      h.place('me', { direction: 'BUY', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.01'), limit: dec('30000') });
    }
    const all = h.trading.reads.executions('me');
    expect(all).toHaveLength(3);
    expect(h.trading.reads.executions('me', { pageSize: 1, nextPageToken: all[0]!.id }).map((e) => e.id)).toEqual([all[1]!.id]);
    expect(h.trading.reads.executions('me', { marketSymbol: 'ETH-BTC' })).toEqual([]);
    const last = h.trading.reads.lastExecution('me');
    expect(last.data.lastId).toBe(all[0]!.id);
    expect(last.sequence).toBe(3);
    expect(h.trading.reads.lastExecution('nobody')).toEqual({ data: {}, sequence: 0 });
  });
});
