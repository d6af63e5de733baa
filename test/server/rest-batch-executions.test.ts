/**
 * Batch, bulk cancel, clientOrderId idempotency and executions through the real server with the project's REST
 * client: per-operation statuses in request order, the official example's lower-case batch body, DELETE
 * /orders/open with and without a market, executions listed, walked page by page, read by id, and last-id with
 * its Sequence.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { Execution, NewOrder } from '../../src/model/order.js';
import { apiError, type SimFixture, startFixture, type TestAccount } from './sim-fixture.js';

const M = 'BTC-USD';
const rest = (direction: 'BUY' | 'SELL', limit: string, market = M, quantity = '0.01'): NewOrder => ({
  marketSymbol: market, direction, type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec(quantity), limit: dec(limit),
});

describe('REST batch, bulk cancel and executions end to end', () => {
  let fx: SimFixture;
  let maker: TestAccount;
  let trader: TestAccount;

  beforeAll(async () => {
    fx = await startFixture();
    maker = await fx.account({ USD: '1000000', BTC: '50', ETH: '500' });
    trader = await fx.account({ USD: '100000', BTC: '1' });
    await maker.client.orders.create(rest('SELL', '30010', M, '10'));
    await maker.client.orders.create(rest('BUY', '29990', M, '10'));
  });
  afterAll(async () => {
    await fx.close();
  });

  it('runs a batch in order, each operation answering as it would alone', async () => {
    const resting = await trader.client.orders.create(rest('BUY', '29000'));
    const cid = randomUUID();
    const res = await trader.client.batch.submit([
      { resource: 'ORDER', operation: 'POST', payload: { ...rest('BUY', '29100'), clientOrderId: cid } },
      { resource: 'ORDER', operation: 'POST', payload: rest('SELL', '31000', M, '5') },
      { resource: 'ORDER', operation: 'DELETE', payload: { id: resting.id } },
      { resource: 'ORDER', operation: 'DELETE', payload: { id: resting.id } },
      { resource: 'ORDER', operation: 'POST', payload: { ...rest('BUY', '29200'), clientOrderId: cid } },
      { resource: 'ORDER', operation: 'DELETE', payload: { id: randomUUID() } },
    ]);
    expect(res.map((r) => r.status)).toEqual([201, 409, 200, 409, 409, 404]);
    const [placed, poor, cancelled, again, dup, unknown] = res;
    expect(placed!.ok && placed!.payload.clientOrderId).toBe(cid);
    expect(!poor!.ok && poor!.payload.code).toBe('INSUFFICIENT_FUNDS');
    expect(cancelled!.ok && cancelled!.payload).toMatchObject({ id: resting.id, status: 'CLOSED' });
    expect(!again!.ok && again!.payload.code).toBe('ORDER_NOT_OPEN');
    expect(!dup!.ok && dup!.payload).toMatchObject({ code: 'CLIENTORDERID_ALREADY_EXISTS', data: { existingOrderId: placed!.ok ? placed!.payload.id : '' } });
    expect(!unknown!.ok && unknown!.payload.code).toBe('NOT_FOUND');
    const open = await trader.client.orders.listOpen();
    expect(open.data.map((o) => o.id)).toEqual([placed!.ok ? placed!.payload.id : '']);

    // A batch of cancellations only.
    const cancels = await trader.client.batch.submit(open.data.map((o) => ({ resource: 'ORDER' as const, operation: 'DELETE' as const, payload: { id: o.id } })));
    expect(cancels.map((r) => r.status)).toEqual([200]);
    expect((await trader.client.orders.listOpen()).data).toEqual([]);
  });

  it('accepts the official example body (lower-case resource and operation, numbers as JSON numbers)', async () => {
    const body = [
      { resource: 'order', operation: 'post', payload: { marketSymbol: M, direction: 'BUY', type: 'LIMIT', quantity: 0.01, limit: 29000, timeInForce: 'GOOD_TIL_CANCELLED' } },
      { resource: 'order', operation: 'post', payload: { marketSymbol: M, direction: 'BUY', type: 'LIMIT', quantity: 100, limit: 29000, timeInForce: 'GOOD_TIL_CANCELLED' } },
    ];
    const r = await fx.post(trader, '/batch', body);
    expect(r.status, r.text).toBe(200);
    expect(r.json.map((x: { status: number }) => x.status)).toEqual([201, 409]);
    expect(r.json[0].payload).toMatchObject({ marketSymbol: M, status: 'OPEN', limit: '29000.00000000' });
    expect(r.json[1].payload.code).toBe('INSUFFICIENT_FUNDS');
    const del = await fx.post(trader, '/batch', [{ resource: 'order', operation: 'delete', payload: { id: r.json[0].payload.id } }]);
    expect(del.json.map((x: { status: number }) => x.status)).toEqual([200]);
  });

  it('cancels all open orders of one market, then all', async () => {
    const btc = [];
    for (const limit of ['29000', '29100', '29200']) btc.push(await trader.client.orders.create(rest('BUY', limit)));
    const eth = [];
    for (const limit of ['1500', '1600']) eth.push(await trader.client.orders.create(rest('BUY', limit, 'ETH-USD', '0.1')));

    const ethResults = await trader.client.orders.cancelAll({ marketSymbol: 'ETH-USD' });
    expect(ethResults.map((r) => r.id).sort()).toEqual(eth.map((o) => o.id).sort());
    expect(ethResults.every((r) => r.statusCode === 'SUCCESS' && r.result?.status === 'CLOSED')).toBe(true);
    expect((await trader.client.orders.listOpen()).data.map((o) => o.id).sort()).toEqual(btc.map((o) => o.id).sort());

    const rest2 = await trader.client.orders.cancelAll();
    expect(rest2.map((r) => r.id).sort()).toEqual(btc.map((o) => o.id).sort());
    expect((await trader.client.orders.listOpen()).data).toEqual([]);
    expect(await trader.client.orders.cancelAll()).toEqual([]);
    const bal = await trader.client.balances.get('USD');
    expect(bal.available.eq(bal.total)).toBe(true);
    await apiError(trader.client.orders.cancelAll({ marketSymbol: 'USD-BTC' }), 400, 'MARKET_NAME_REVERSED');
  });

  it('answers a repeated clientOrderId with 409 and the existing order id, and nothing else changes', async () => {
    const cid = randomUUID();
    const first = await trader.client.orders.create({ ...rest('BUY', '29000'), clientOrderId: cid });
    expect(first.clientOrderId).toBe(cid);
    const state = await trader.client.balances.list();
    const e = await apiError(trader.client.orders.create({ ...rest('SELL', '31000'), clientOrderId: cid }), 409, 'CLIENTORDERID_ALREADY_EXISTS');
    expect(e.data).toEqual({ existingOrderId: first.id });
    expect((await trader.client.balances.list()).sequence).toBe(state.sequence);
    // Another account may use the same id.
    const other = await maker.client.orders.create({ ...rest('BUY', '28000'), clientOrderId: cid });
    expect(other.id).not.toBe(first.id);
    await trader.client.orders.cancel(first.id);
    await maker.client.orders.cancel(other.id);
  });

  it('lists executions newest first, walks them page by page, reads one, and answers last-id with its Sequence', async () => {
    const acct = await fx.account({ USD: '100000', BTC: '1', ETH: '10' });
    const empty = await acct.client.executions.lastId();
    expect(empty.data.lastId).toBeUndefined();
    expect(await acct.client.executions.lastIdSequence()).toBe(empty.sequence);

    const orderIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      await fx.advance(1000);
      const o = await acct.client.orders.create({ marketSymbol: M, direction: i % 2 ? 'SELL' : 'BUY', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.01') });
      orderIds.push(o.id);
    }
    // One sweep over two maker levels makes two executions of one order.
    await maker.client.orders.create(rest('SELL', '30020', 'ETH-USD', '0.05'));
    await maker.client.orders.create(rest('SELL', '30030', 'ETH-USD', '0.05'));
    await fx.advance(1000);
    const sweep = await acct.client.orders.create({ marketSymbol: 'ETH-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'FILL_OR_KILL', quantity: dec('0.1'), limit: dec('30030') });
    expect(sweep.fillQuantity.toString()).toBe('0.1');

    const all = await acct.client.executions.list();
    expect(all).toHaveLength(7);
    expect(all.every((x) => x.isTaker)).toBe(true);
    const times = all.map((x) => x.executedAt.getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(new Set(all.slice(2).map((x) => x.orderId))).toEqual(new Set(orderIds));
    expect(all.slice(0, 2).every((x) => x.orderId === sweep.id && x.marketSymbol === 'ETH-USD')).toBe(true);

    const walked: Execution[] = [];
    for await (const x of acct.client.executions.iterate({}, { pageSize: 2 })) walked.push(x);
    expect(walked.map((x) => x.id)).toEqual(all.map((x) => x.id));
    const btcOnly = await acct.client.executions.list({ marketSymbol: M });
    expect(btcOnly.map((x) => x.id)).toEqual(all.slice(2).map((x) => x.id));

    const one = await acct.client.executions.get(all[3]!.id);
    expect(one).toEqual(all[3]);
    expect(one.commission.toString()).toBe(one.quantity.times(one.rate).times('0.0035').toDecimalPlaces(8, 1).toString());
    await apiError(trader.client.executions.get(all[3]!.id), 404, 'NOT_FOUND');
    expect((await acct.client.orders.executions(sweep.id)).map((x) => x.id).sort()).toEqual(all.slice(0, 2).map((x) => x.id).sort());

    const last = await acct.client.executions.lastId();
    expect(all.slice(0, 2).map((x) => x.id)).toContain(last.data.lastId);
    expect(last.sequence).toBeGreaterThan(empty.sequence);
    expect(await acct.client.executions.lastIdSequence()).toBe(last.sequence);
    // marketSymbol (official document) narrows it to that market's most recent execution; the Sequence is the stream's.
    const btcLast = await acct.client.executions.lastId({ marketSymbol: M });
    expect(btcLast).toEqual({ data: { lastId: btcOnly[0]!.id }, sequence: last.sequence });
    expect((await acct.client.executions.lastId({ marketSymbol: 'ETH-BTC' })).data).toEqual({});
    await apiError(acct.client.executions.lastId({ marketSymbol: 'USD-BTC' }), 400, 'MARKET_NAME_REVERSED');
  });
});
