import { afterEach, describe, expect, it } from 'vitest';
import type { StreamMessage } from '../../src/bittrex/hub/messages.js';
import { HubSubscriptionError } from '../../src/bittrex/hub/hub-errors.js';
import { VirtualClock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import { ApiError } from '../../src/core/errors.js';
import type { ExchangeGateway } from '../../src/gateway/exchange-gateway.js';
import { createSimGateway } from '../../src/gateway/sim-gateway.js';
import type { NewOrder } from '../../src/model/order.js';
import { createSimEngine, type SimEngine } from '../../src/sim/engine.js';

const M = 'BTC-USD';
let engine: SimEngine;
let gateway: ExchangeGateway;
let me: string;
let other: string;

function setup(): void {
  engine = createSimEngine({ clock: new VirtualClock(Date.parse('2021-06-14T00:00:00Z')) });
  me = engine.createParticipant({ BTC: dec('1'), USD: dec('100000') });
  other = engine.createParticipant({ BTC: dec('1'), USD: dec('100000') });
  gateway = createSimGateway(engine, me);
}
afterEach(async () => {
  await gateway.close();
  engine.dispose();
});

const bid = (over: Partial<NewOrder> = {}): NewOrder => ({
  marketSymbol: M,
  direction: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GOOD_TIL_CANCELLED',
  quantity: dec('0.1'),
  limit: dec('29000'),
  ...over,
});

async function collect(fn: () => Promise<unknown>): Promise<StreamMessage[]> {
  const got: StreamMessage[] = [];
  const sub = gateway.streams.messages$.subscribe((m) => got.push(m));
  await fn();
  for (let i = 0; i < 5; i++) await Promise.resolve();
  sub.unsubscribe();
  return got;
}

describe('createSimGateway', () => {
  it('answers with the engine as this account, and refusals as ApiErrors with status, code and data', async () => {
    setup();
    const placed = await gateway.placeOrder(bid({ clientOrderId: 'c0ffee00-0000-4000-8000-000000000001' }));
    expect(placed.status).toBe('OPEN');
    expect((await gateway.order(placed.id)).id).toBe(placed.id);
    const err = await gateway.placeOrder(bid({ clientOrderId: 'c0ffee00-0000-4000-8000-000000000001' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 409, code: 'CLIENTORDERID_ALREADY_EXISTS', data: { existingOrderId: placed.id } });
    expect((err as ApiError).request).toEqual({ method: 'POST', path: '/v3/orders' });
    await expect(gateway.placeOrder(bid({ quantity: dec('100') }))).rejects.toMatchObject({ status: 409, code: 'INSUFFICIENT_FUNDS' });
    await expect(gateway.order('00000000-0000-0000-0000-000000000000')).rejects.toBeInstanceOf(ApiError);
    // Another account's order is invisible.
    const theirs = engine.placeOrder(other, bid());
    await expect(gateway.order(theirs.id)).rejects.toMatchObject({ status: 404 });
    expect((await gateway.openOrders(M)).data.map((o) => o.id)).toEqual([placed.id]);
  });

  it('batch, cancel, conditional orders and lists go through to the engine', async () => {
    setup();
    const [a, b] = await gateway.batch([
      { resource: 'ORDER', operation: 'POST', payload: bid() },
      { resource: 'ORDER', operation: 'POST', payload: bid({ quantity: dec('100') }) },
    ]);
    expect(a).toMatchObject({ ok: true, status: 201 });
    expect(b).toMatchObject({ ok: false, status: 409, payload: { code: 'INSUFFICIENT_FUNDS' } });
    const cancelled = await gateway.cancelOrder((a as { payload: { id: string } }).payload.id);
    expect(cancelled.status).toBe('CLOSED');
    expect((await gateway.closedOrders({ marketSymbol: M })).map((o) => o.id)).toEqual([cancelled.id]);
    const cond = await gateway.placeConditionalOrder({ marketSymbol: M, operand: 'LTE', triggerPrice: dec('20000'), clientConditionalOrderId: 'c0ffee00-0000-4000-8000-000000000002' });
    expect((await gateway.openConditionalOrders(M)).data.map((c) => c.id)).toEqual([cond.id]);
    expect((await gateway.cancelConditionalOrder(cond.id)).status).toBe('CANCELLED');
    expect((await gateway.closedConditionalOrders({})).map((c) => c.id)).toEqual([cond.id]);
    expect((await gateway.balances()).data.find((x) => x.currencySymbol === 'USD')!.total.toFixed()).toBe('100000');
  });

  it('snapshots carry the sequence of their stream, and stream messages continue from it', async () => {
    setup();
    await gateway.streams.subscribe(['orderbook_BTC-USD_25', 'order', 'execution', 'balance']);
    const snap = await gateway.orderBook(M, 25);
    const orders = await gateway.openOrders();
    const got = await collect(async () => {
      await gateway.placeOrder(bid());
    });
    const book = got.find((m) => m.name === 'orderBook');
    const order = got.find((m) => m.name === 'order');
    expect(book?.name === 'orderBook' && book.data.sequence).toBe(snap.sequence + 1);
    expect(order?.name === 'order' && order.data.sequence).toBe(orders.sequence + 1);
    expect(order?.name === 'order' && order.data.accountId).toBe(me);
    expect(got.some((m) => m.name === 'balance')).toBe(true);
  });

  it('serves recent TRADE candles with the candle stream\'s sequence (what LiveData needs to follow candles)', async () => {
    setup();
    await gateway.streams.subscribe(['candle_BTC-USD_MINUTE_1']);
    const before = await gateway.candles!(M, 'MINUTE_1');
    expect(before.data).toEqual([]);
    const got = await collect(async () => {
      engine.placeOrder(other, bid({ direction: 'SELL', limit: dec('30000') }));
      await gateway.placeOrder(bid({ limit: dec('30000') }));
    });
    const after = await gateway.candles!(M, 'MINUTE_1');
    expect(after.data.map((c) => [c.close.toFixed(), c.volume.toFixed()])).toEqual([['30000', '0.1']]);
    const message = got.find((m) => m.name === 'candle');
    expect(message?.name === 'candle' && message.data.sequence).toBe(after.sequence);
    expect(after.sequence).toBe(before.sequence + 1);
    await expect(gateway.candles!(M, 'MINUTE_7' as never)).rejects.toThrow(/candleInterval/);
    await expect(gateway.candles!('NOPE-USD', 'MINUTE_1')).rejects.toBeInstanceOf(ApiError);
  });

  it('delivers only subscribed channels, only this account, and after the call (never inside the engine)', async () => {
    setup();
    await gateway.streams.subscribe(['order', 'trade_BTC-USD']);
    let duringCall = 0;
    const got: StreamMessage[] = [];
    const sub = gateway.streams.messages$.subscribe((m) => got.push(m));
    engine.placeOrder(other, bid({ direction: 'SELL', limit: dec('30000') }));
    duringCall = got.length;
    await Promise.resolve();
    // The other account's order event is not ours; its book change is not subscribed.
    expect(duringCall).toBe(0);
    expect(got).toEqual([]);
    await gateway.placeOrder(bid({ limit: dec('30000') }));
    for (let i = 0; i < 3; i++) await Promise.resolve();
    expect(got.map((m) => m.name).sort()).toEqual(['order', 'trade']);
    await gateway.streams.unsubscribe(['trade_BTC-USD']);
    got.length = 0;
    await gateway.placeOrder(bid({ limit: dec('30000'), direction: 'SELL', quantity: dec('0.1') }));
    engine.placeOrder(other, bid({ limit: dec('30000') }));
    for (let i = 0; i < 3; i++) await Promise.resolve();
    expect(got.map((m) => m.name)).toEqual(['order', 'order']);
    sub.unsubscribe();
  });

  it('refuses unknown channels with a typed error naming them', async () => {
    setup();
    const err = await gateway.streams.subscribe(['order', 'orderbook_BTC-USD_7']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HubSubscriptionError);
    expect((err as HubSubscriptionError).channel).toBe('orderbook_BTC-USD_7');
  });

  it('sub-account events arrive on subaccounts_* for the master only', async () => {
    setup();
    const sub = engine.funds.accounts.createSubaccount(me);
    engine.fund(sub.id, 'USD', dec('1000'));
    await gateway.streams.subscribe(['subaccounts_order']);
    const got = await collect(async () => {
      engine.placeOrder(sub.id, bid({ quantity: dec('0.01') }));
    });
    expect(got.map((m) => m.name)).toEqual(['order']);
    expect(got[0]!.name === 'order' && got[0]!.data.accountId).toBe(sub.id);
  });

  it('connection epoch is 1 and streams complete on close', async () => {
    setup();
    const epochs: number[] = [];
    let completed = false;
    gateway.streams.connectionEpoch$.subscribe({ next: (e) => epochs.push(e), complete: () => (completed = true) });
    await gateway.close();
    expect(epochs).toEqual([1]);
    expect(completed).toBe(true);
  });
});
