/**
 * Orders through the real server: every row of the seed's type × timeInForce table (allowed combinations with
 * the project's REST client, refused ones as raw signed requests, since the client will not send them), the
 * refusal codes with their statuses, the lifecycle (read, list with Sequence, cancel, executions) and closed
 * orders walked page by page with the client's iterator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { OrderType, TimeInForce } from '../../src/model/enums.js';
import type { NewOrder } from '../../src/model/order.js';
import { apiError, type SimFixture, startFixture, type TestAccount } from './sim-fixture.js';

const M = 'BTC-USD';
const TYPES: OrderType[] = ['LIMIT', 'MARKET', 'CEILING_LIMIT', 'CEILING_MARKET'];
const TIFS: TimeInForce[] = ['GOOD_TIL_CANCELLED', 'IMMEDIATE_OR_CANCEL', 'FILL_OR_KILL', 'POST_ONLY_GOOD_TIL_CANCELLED'];
/** The seed's table: which timeInForce each type allows (both directions alike). */
const ALLOWED: Record<OrderType, TimeInForce[]> = {
  LIMIT: TIFS,
  MARKET: ['IMMEDIATE_OR_CANCEL', 'FILL_OR_KILL'],
  CEILING_LIMIT: ['IMMEDIATE_OR_CANCEL', 'FILL_OR_KILL'],
  CEILING_MARKET: ['IMMEDIATE_OR_CANCEL', 'FILL_OR_KILL'],
};

/** An order of `type`/`tif`: resting ones sit away from the book (29000/31000), takers cross the 29990/30010 quotes. */
function orderOf(type: OrderType, tif: TimeInForce, direction: 'BUY' | 'SELL'): NewOrder {
  const buy = direction === 'BUY';
  const rests = tif === 'GOOD_TIL_CANCELLED' || tif === 'POST_ONLY_GOOD_TIL_CANCELLED';
  const o: NewOrder = { marketSymbol: M, direction, type, timeInForce: tif };
  if (type === 'LIMIT' || type === 'MARKET') o.quantity = dec('0.01');
  else o.ceiling = dec('300');
  if (type === 'LIMIT' || type === 'CEILING_LIMIT') o.limit = dec(rests ? (buy ? '29000' : '31000') : buy ? '30010' : '29990');
  return o;
}

describe('REST orders end to end', () => {
  let fx: SimFixture;
  let maker: TestAccount;
  let trader: TestAccount;

  beforeAll(async () => {
    fx = await startFixture();
    maker = await fx.account({ USD: '1000000', BTC: '50' });
    trader = await fx.account({ USD: '100000', BTC: '5' });
    await maker.client.orders.create({ marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('10'), limit: dec('29990') });
    await maker.client.orders.create({ marketSymbol: M, direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('10'), limit: dec('30010') });
  });
  afterAll(async () => {
    await fx.close();
  });

  it('accepts every allowed type × timeInForce row in both directions', async () => {
    for (const type of TYPES) {
      for (const tif of ALLOWED[type]) {
        for (const direction of ['BUY', 'SELL'] as const) {
          const o = await trader.client.orders.create(orderOf(type, tif, direction));
          const row = `${type} ${tif} ${direction}`;
          expect({ type: o.type, timeInForce: o.timeInForce, direction: o.direction, market: o.marketSymbol }, row).toEqual({ type, timeInForce: tif, direction, market: M });
          if (tif === 'GOOD_TIL_CANCELLED' || tif === 'POST_ONLY_GOOD_TIL_CANCELLED') {
            expect(o.status, row).toBe('OPEN');
            expect(o.fillQuantity.isZero(), row).toBe(true);
            await trader.client.orders.cancel(o.id);
            continue;
          }
          expect(o.status, row).toBe('CLOSED');
          expect(o.closedAt, row).toBeInstanceOf(Date);
          expect(o.fillQuantity.gt(0), row).toBe(true);
          expect(o.commission.eq(o.proceeds.times('0.0035').toDecimalPlaces(8, 1)), row).toBe(true);
          const rate = direction === 'BUY' ? '30010' : '29990';
          expect(o.proceeds.eq(o.fillQuantity.times(rate).toDecimalPlaces(8, 1)), row).toBe(true);
          if (type.startsWith('CEILING') && direction === 'BUY') expect(o.proceeds.plus(o.commission).lte(300), row).toBe(true);
          if (!type.startsWith('CEILING')) expect(o.fillQuantity.toString(), row).toBe('0.01');
        }
      }
    }
    const audit = await fx.control('GET', '/audit');
    expect(audit.json.every((a: { discrepancy: string }) => dec(a.discrepancy).isZero())).toBe(true);
  });

  it('refuses every combination the table does not allow, with the seed code and no order', async () => {
    const before = (await trader.client.orders.listClosed({ pageSize: 200 })).length;
    for (const type of TYPES) {
      for (const tif of [...TIFS, 'BUY_NOW', 'INSTANT'] as TimeInForce[]) {
        if (ALLOWED[type].includes(tif)) continue;
        for (const direction of ['BUY', 'SELL'] as const) {
          const r = await fx.post(trader, '/orders', orderOf(type, tif, direction));
          const code = tif === 'BUY_NOW' || tif === 'INSTANT' || type === 'CEILING_LIMIT' ? 'INVALID_ORDER_TYPE' : 'INVALID_MARKET_ORDER';
          expect({ status: r.status, code: r.json.code }, `${type} ${tif} ${direction}`).toEqual({ status: 400, code });
        }
      }
    }
    // A limit on a market order, a quantity on a ceiling order: the type conflicts with the options.
    for (const body of [
      { marketSymbol: M, direction: 'BUY', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: '0.01', limit: '30010' },
      { marketSymbol: M, direction: 'BUY', type: 'CEILING_MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: '0.01', ceiling: '300' },
    ]) {
      const r = await fx.post(trader, '/orders', body);
      expect({ status: r.status, code: r.json.code }).toEqual({ status: 400, code: 'INVALID_ORDER_TYPE' });
    }
    expect((await trader.client.orders.listOpen()).data).toEqual([]);
    expect(await trader.client.orders.listClosed({ pageSize: 200 })).toHaveLength(before);
  });

  it('answers each refusal code with its status', async () => {
    const lim = (over: Partial<NewOrder>): NewOrder => ({ marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('29000'), ...over });
    const c = trader.client.orders;
    await apiError(c.create(lim({ quantity: dec('100') })), 409, 'INSUFFICIENT_FUNDS');
    await apiError(c.create(lim({ quantity: dec('0.00001') })), 400, 'MIN_TRADE_REQUIREMENT_NOT_MET');
    await apiError(c.create(lim({ quantity: dec('0.0001'), limit: dec('100') })), 400, 'DUST_TRADE_DISALLOWED_MIN_VALUE');
    await apiError(c.create(lim({ limit: dec('29000.1234') })), 400, 'RATE_PRECISION_NOT_ALLOWED');
    await apiError(c.create(lim({ marketSymbol: 'USD-BTC' })), 400, 'MARKET_NAME_REVERSED');
    await apiError(c.create(lim({ marketSymbol: 'DOGE-USD' })), 404, 'MARKET_DOES_NOT_EXIST');
    await apiError(c.create(lim({ timeInForce: 'POST_ONLY_GOOD_TIL_CANCELLED', limit: dec('30010') })), 409, 'POST_ONLY');
    await apiError(c.create(lim({ timeInForce: 'FILL_OR_KILL', quantity: dec('11'), limit: dec('30010') })), 409, 'FILL_OR_KILL');
    // The maker taking its own resting order.
    await apiError(maker.client.orders.create(lim({ limit: dec('30010'), timeInForce: 'IMMEDIATE_OR_CANCEL' })), 409, 'SELF_TRADE');

    expect((await fx.control('POST', `/markets/${M}/status`, { status: 'OFFLINE' })).status).toBe(200);
    expect((await trader.client.markets.get(M)).status).toBe('OFFLINE');
    await apiError(c.create(lim({})), 503, 'MARKET_OFFLINE');
    expect((await fx.control('POST', `/markets/${M}/status`, { status: 'ONLINE' })).status).toBe(200);

    expect((await c.listOpen()).data).toEqual([]);
    const book = await trader.client.markets.orderBook(M, { depth: 500 });
    expect(book.data.bid.map((e) => e.rate.toString())).toEqual(['29990']);
  });

  it('reads, lists, cancels and explains an order', async () => {
    const c = trader.client.orders;
    const seq0 = await c.openSequence();
    const o = await c.create({ marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.02'), limit: dec('29995.5') });
    expect(o.status).toBe('OPEN');
    expect(o.limit!.toString()).toBe('29995.5');
    expect(await c.get(o.id)).toEqual(o);
    const open = await c.listOpen({ marketSymbol: M });
    expect(open.data.map((x) => x.id)).toEqual([o.id]);
    expect(open.sequence).toBeGreaterThan(seq0);
    expect(await c.openSequence()).toBe(open.sequence);
    expect((await c.listOpen({ marketSymbol: 'ETH-BTC' })).data).toEqual([]);
    expect(await c.executions(o.id)).toEqual([]);

    // Another account cannot see or cancel it.
    await apiError(maker.client.orders.get(o.id), 404, 'NOT_FOUND');
    await apiError(maker.client.orders.cancel(o.id), 404, 'NOT_FOUND');

    // Half of it fills when someone sells into it (it is the best bid).
    const seller = await fx.account({ BTC: '1' });
    await seller.client.orders.create({ marketSymbol: M, direction: 'SELL', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.01'), limit: dec('29995') });
    const partial = await c.get(o.id);
    expect(partial.fillQuantity.toString()).toBe('0.01');
    const execs = await c.executions(o.id);
    expect(execs).toHaveLength(1);
    expect(execs[0]).toMatchObject({ orderId: o.id, marketSymbol: M, isTaker: false });
    expect(execs[0]!.rate.toString()).toBe('29995.5');

    await fx.advance(1000);
    const cancelled = await c.cancel(o.id);
    expect(cancelled.status).toBe('CLOSED');
    expect(cancelled.closedAt!.getTime()).toBe(fx.clock.now());
    expect(cancelled.fillQuantity.toString()).toBe('0.01');
    await apiError(c.cancel(o.id), 409, 'ORDER_NOT_OPEN');
    await apiError(c.get('6f2b1c1e-1111-4111-8111-111111111111'), 404, 'NOT_FOUND');
    expect((await c.listOpen()).data).toEqual([]);
    expect((await c.listClosed({ marketSymbol: M, pageSize: 1 }))[0]!.id).toBe(o.id);
  });

  it('walks closed orders page by page, forwards and backwards, with dates', async () => {
    const acct = await fx.account({ USD: '100000' });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      await fx.advance(1000);
      const o = await acct.client.orders.create({ marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.001'), limit: dec('29000') });
      ids.push(o.id);
    }
    const newestFirst = [...ids].reverse();
    const all = await acct.client.orders.listClosed();
    expect(all.map((o) => o.id)).toEqual(newestFirst);

    const walked: string[] = [];
    for await (const o of acct.client.orders.iterateClosed({ marketSymbol: M }, { pageSize: 3 })) walked.push(o.id);
    expect(walked).toEqual(newestFirst);

    const page = await acct.client.orders.listClosed({ pageSize: 2, nextPageToken: ids[4] });
    expect(page.map((o) => o.id)).toEqual([ids[3], ids[2]]);
    const back: string[] = [];
    for await (const o of acct.client.orders.iterateClosed({ previousPageToken: ids[0] }, { pageSize: 2, direction: 'previous' })) back.push(o.id);
    expect(back).toEqual(newestFirst.slice(0, 6).reverse());

    const closedAt = all[3]!.closedAt!;
    const since = await acct.client.orders.listClosed({ startDate: closedAt });
    expect(since.map((o) => o.id)).toEqual(newestFirst.slice(0, 4));

    await apiError(acct.client.orders.listClosed({ nextPageToken: '6f2b1c1e-1111-4111-8111-111111111111' }), 400, 'INVALID_NEXT_PAGE_TOKEN');
    const bad = await fx.signed(acct, 'GET', '/orders/closed?pageSize=500');
    expect({ status: bad.status, code: bad.json.code }).toEqual({ status: 400, code: 'BAD_REQUEST' });
  });
});
