/**
 * Conditional orders through the real server with the project's REST client: create, read, list with Sequence,
 * cancel, clientConditionalOrderId idempotency, closed ones walked page by page, and triggering by trading
 * through the price — the action runs config.conditionalTriggerDelayMs later, so the test advances the virtual
 * clock through POST /control/clock/advance and reads the outcome (placed order, paired order cancelled, or
 * FAILED with the refusal's code).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { NewConditionalOrder } from '../../src/model/conditional-order.js';
import { apiError, type SimFixture, startFixture, type TestAccount } from './sim-fixture.js';

const M = 'BTC-USD';
const stop = (trigger: string, over: Partial<NewConditionalOrder> = {}): NewConditionalOrder => ({
  marketSymbol: M,
  operand: 'LTE',
  triggerPrice: dec(trigger),
  orderToCreate: { marketSymbol: M, direction: 'SELL', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.01') },
  ...over,
});

describe('REST conditional orders end to end', () => {
  let fx: SimFixture;
  let maker: TestAccount;
  let trader: TestAccount;
  let seller: TestAccount;
  const delay = () => fx.engine.config.conditionalTriggerDelayMs;

  beforeAll(async () => {
    fx = await startFixture();
    maker = await fx.account({ USD: '10000000', BTC: '50' });
    trader = await fx.account({ USD: '100000', BTC: '1' });
    seller = await fx.account({ BTC: '50' });
    await maker.client.orders.create({ marketSymbol: M, direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('10'), limit: dec('30010') });
  });
  afterAll(async () => {
    await fx.close();
  });

  /** Sell 0.1 at market into maker bids at 29990 (0.05) and `low`: the last trade happens at `low`. Returns the `low` bid. */
  async function tradeDownTo(low: string): Promise<string> {
    await maker.client.orders.create({ marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.05'), limit: dec('29990') });
    const floor = await maker.client.orders.create({ marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('5'), limit: dec(low) });
    const o = await seller.client.orders.create({ marketSymbol: M, direction: 'SELL', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.1') });
    expect(o.fillQuantity.toString()).toBe('0.1');
    expect((await seller.client.markets.ticker(M)).lastTradeRate.toString()).toBe(low);
    return floor.id;
  }

  it('creates, reads, lists and cancels conditional orders; a repeated client id answers 409', async () => {
    const c = trader.client.conditionalOrders;
    const seq0 = await c.openSequence();
    const cid = randomUUID();
    const a = await c.create(stop('25000', { clientConditionalOrderId: cid }));
    expect(a).toMatchObject({ marketSymbol: M, operand: 'LTE', status: 'OPEN', clientConditionalOrderId: cid });
    expect(a.triggerPrice!.toString()).toBe('25000');
    expect(a.orderToCreate).toMatchObject({ direction: 'SELL', type: 'MARKET' });
    const b = await c.create(stop('40000', { operand: 'GTE' }));
    expect(await c.get(a.id)).toEqual(a);

    const open = await c.listOpen();
    expect(open.data.map((x) => x.id).sort()).toEqual([a.id, b.id].sort());
    expect(open.sequence).toBeGreaterThan(seq0);
    expect(await c.openSequence()).toBe(open.sequence);
    expect((await c.listOpen({ marketSymbol: 'ETH-BTC' })).data).toEqual([]);

    const e = await apiError(c.create(stop('24000', { clientConditionalOrderId: cid })), 409, 'CLIENTCONDITIONALORDERID_ALREADY_EXISTS');
    expect(e.data).toEqual({ existingConditionalOrderId: a.id });
    await apiError(maker.client.conditionalOrders.get(a.id), 404, 'NOT_FOUND');
    await apiError(c.create(stop('25000', { marketSymbol: 'NOPE-USD' })), 404, 'MARKET_DOES_NOT_EXIST');

    await fx.advance(1000);
    const cancelled = await c.cancel(a.id);
    expect(cancelled).toMatchObject({ id: a.id, status: 'CANCELLED' });
    expect(cancelled.closedAt!.getTime()).toBe(fx.clock.now());
    await apiError(c.cancel(a.id), 409, 'CONDITIONAL_ORDER_NOT_OPEN');
    await c.cancel(b.id);
    expect((await c.listOpen()).data).toEqual([]);
    expect((await c.listClosed()).map((x) => x.id)).toEqual([b.id, a.id]);
  });

  it('walks closed conditional orders page by page', async () => {
    const acct = await fx.account({ BTC: '1' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const x = await acct.client.conditionalOrders.create(stop(String(20_000 + i)));
      await fx.advance(1000);
      await acct.client.conditionalOrders.cancel(x.id);
      ids.push(x.id);
    }
    const walked: string[] = [];
    for await (const x of acct.client.conditionalOrders.iterateClosed({ marketSymbol: M }, { pageSize: 2 })) walked.push(x.id);
    expect(walked).toEqual([...ids].reverse());
  });

  it('triggers when a trade goes through the price, after the trigger delay, and cancels its paired order', async () => {
    // A take-profit resting on the book, paired with a stop: whichever acts first removes the other.
    const takeProfit = await trader.client.orders.create({ marketSymbol: M, direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('35000') });
    const sl = await trader.client.conditionalOrders.create(stop('29500', { orderToCancel: { type: 'ORDER', id: takeProfit.id } }));
    expect(sl.orderToCancel).toEqual({ type: 'ORDER', id: takeProfit.id });
    expect((await trader.client.orders.get(takeProfit.id)).orderToCancel).toEqual({ type: 'CONDITIONAL_ORDER', id: sl.id });
    // A GTE one that must not fire on a falling price.
    const up = await trader.client.conditionalOrders.create(stop('31000', { operand: 'GTE' }));
    const btcBefore = await trader.client.balances.get('BTC');

    const floor = await tradeDownTo('29400');
    // Condition met, action pending: nothing happened yet.
    expect((await trader.client.conditionalOrders.get(sl.id)).status).toBe('OPEN');
    expect((await trader.client.orders.get(takeProfit.id)).status).toBe('OPEN');

    await fx.advance(delay());
    const done = await trader.client.conditionalOrders.get(sl.id);
    expect(done.status).toBe('COMPLETED');
    expect(done.closedAt).toBeInstanceOf(Date);
    const created = await trader.client.orders.get(done.createdOrderId!);
    expect(created).toMatchObject({ marketSymbol: M, direction: 'SELL', type: 'MARKET', status: 'CLOSED' });
    expect(created.fillQuantity.toString()).toBe('0.01');
    expect(created.proceeds.toString()).toBe('294');
    const tp = await trader.client.orders.get(takeProfit.id);
    expect(tp.status).toBe('CLOSED');
    expect(tp.fillQuantity.isZero()).toBe(true);
    expect((await trader.client.balances.get('BTC')).total.toString()).toBe(btcBefore.total.minus('0.01').toString());

    expect((await trader.client.conditionalOrders.get(up.id)).status).toBe('OPEN');
    expect((await trader.client.conditionalOrders.listOpen()).data.map((x) => x.id)).toEqual([up.id]);
    expect((await trader.client.conditionalOrders.listClosed({ pageSize: 1 }))[0]!.id).toBe(sl.id);
    await trader.client.conditionalOrders.cancel(up.id);
    await maker.client.orders.cancel(floor);
  });

  it('trails a trailing stop behind the highest trade and reports the current trigger price', async () => {
    const buyer = await fx.account({ USD: '100000' });
    // The stop floats 10 % below the last trade price at placement.
    const last = (await trader.client.markets.ticker(M)).lastTradeRate;
    expect(last.lt(30010)).toBe(true);
    const ts = await trader.client.conditionalOrders.create(stop('1', { triggerPrice: undefined, trailingStopPercent: dec('10') }));
    expect(ts.trailingStopPercent!.toString()).toBe('10');
    expect(ts.triggerPrice!.toString()).toBe(last.times('0.9').toString());
    // A trade up at 30010 drags it up.
    await buyer.client.orders.create({ marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.01'), limit: dec('30010') });
    expect((await trader.client.conditionalOrders.get(ts.id)).triggerPrice!.toString()).toBe('27009');
    // A fall to 27000 goes through it.
    const floor = await tradeDownTo('27000');
    await fx.advance(delay());
    const done = await trader.client.conditionalOrders.get(ts.id);
    expect(done.status).toBe('COMPLETED');
    expect((await trader.client.orders.get(done.createdOrderId!)).fillQuantity.toString()).toBe('0.01');
    await maker.client.orders.cancel(floor);
  });

  it('ends FAILED with the refusal code when its order cannot be placed (balance is not reserved)', async () => {
    const poor = await fx.account({ BTC: '0.001' });
    const x = await poor.client.conditionalOrders.create(stop('29000'));
    await tradeDownTo('28900');
    await fx.advance(delay());
    const after = await poor.client.conditionalOrders.get(x.id);
    expect(after).toMatchObject({ status: 'FAILED', orderCreationErrorCode: 'INSUFFICIENT_FUNDS' });
    expect(after.createdOrderId).toBeUndefined();
    expect((await poor.client.balances.get('BTC')).total.toString()).toBe('0.001');
  });
});
