/**
 * The backtest's ReportBuilder follows the kernel's order events: an order's report line is written once, when it
 * closes, and the builder lets the order itself go then (a long run keeps every order's line, not its `Order`);
 * orders still open at the end are refreshed from the engine.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { Order } from '../../src/model/order.js';
import type { OrderEvent } from '../../src/orders/order-events.js';
import { ReportBuilder } from '../../backtest/run/report-builder.js';
import { ev, M, T0, venueHarness } from './venue-harness.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const RUN = { from: T0, to: T0 + 10_000, markets: [M], assumptions: {} } as never;

function event(type: 'accepted' | 'closed', order: Order, at = T0): OrderEvent {
  return { type, strategy: 's', intentKey: 'k', clientOrderId: order.clientOrderId ?? `c-${order.id}`, order, at };
}

async function setUp() {
  const h = venueHarness();
  await h.play(ev.snapshot(T0, [['100', '5']], [['101', '5']]));
  const report = new ReportBuilder(h.venue, 'USD', { USD: dec('100000'), BTC: dec('100') });
  return { h, report };
}

describe('ReportBuilder: order lines', () => {
  it('writes a closed order its line from the close, with the time it was first heard of', async () => {
    const { h, report } = await setUp();
    const placed = h.limit('BUY', '99', '0.5');
    report.onOrderEvent(event('accepted', { ...placed, createdAt: new Date(T0 - 5) }));
    const cancelled = h.venue.cancelOrder(placed.id);
    report.onOrderEvent(event('closed', { ...cancelled }));
    const [line] = report.build(RUN).orders;
    expect(line).toEqual({
      clientOrderId: `c-${placed.id}`,
      id: placed.id,
      strategy: 's',
      marketSymbol: M,
      direction: 'BUY',
      type: 'LIMIT',
      quantity: '0.50000000',
      limit: '99.00000000',
      timeInForce: 'GOOD_TIL_CANCELLED',
      createdAt: T0 - 5,
      closedAt: cancelled.closedAt!.getTime(),
      outcome: 'CANCELLED',
      fillQuantity: '0.00000000',
      proceeds: '0.00000000',
      commission: '0.00000000',
    });
  });

  it('keeps a closed line final: a late event for the same order does not bring it back', async () => {
    const { h, report } = await setUp();
    const placed = h.limit('SELL', '102', '1');
    const cancelled = h.venue.cancelOrder(placed.id);
    report.onOrderEvent(event('closed', { ...cancelled }));
    report.onOrderEvent(event('accepted', { ...placed }));
    expect(report.build(RUN).orders.map((o) => o.outcome)).toEqual(['CANCELLED']);
  });

  it('refreshes an order still open at the end from the engine', async () => {
    const { h, report } = await setUp();
    const placed = h.limit('BUY', '100', '1');
    report.onOrderEvent(event('accepted', { ...placed }));
    await h.play(ev.trade(T0 + 1, 'SELL', '100', '5.4'));
    const [line] = report.build(RUN).orders;
    expect(line).toMatchObject({ outcome: 'OPEN', fillQuantity: '0.40000000', proceeds: '40.00000000' });
  });

  it('lets a closed order go: only its line is kept', async () => {
    const { h, report } = await setUp();
    const placed = h.limit('BUY', '99', '0.5');
    let closed: Order | undefined = { ...h.venue.cancelOrder(placed.id) };
    const ref = new WeakRef(closed);
    report.onOrderEvent(event('closed', closed));
    closed = undefined;
    // A WeakRef's target stays alive until the current job ends.
    await new Promise((r) => setImmediate(r));
    gc();
    expect(ref.deref()).toBeUndefined();
    expect(report.build(RUN).orders).toHaveLength(1);
  });
});

describe('ReportBuilder: rejections', () => {
  const rejected = (clientOrderId: string | undefined, code: string, placed: { marketSymbol?: string; direction?: 'BUY' | 'SELL' } = {}): OrderEvent => ({
    type: 'rejected',
    strategy: 's',
    intentKey: 'k',
    ...(clientOrderId !== undefined ? { clientOrderId } : {}),
    ...placed,
    code,
    message: code,
    at: T0 + 1,
  });

  it('a placement the venue refused is an order placed and rejected; a failed cancel leaves its order as it is', async () => {
    const { h, report } = await setUp();
    const placed = h.limit('BUY', '99', '0.5');
    report.onOrderEvent(event('accepted', { ...placed }));
    // The cancel of an accepted order failed: the order is still open, not rejected (it was, with no market).
    report.onOrderEvent(rejected(`c-${placed.id}`, 'ORDER_NOT_OPEN'));
    report.onOrderEvent(rejected('c-refused', 'INSUFFICIENT_FUNDS'));
    const built = report.build(RUN);
    expect(built.orders.map((o) => [o.clientOrderId, o.outcome, o.rejectCode])).toEqual([
      [`c-${placed.id}`, 'OPEN', undefined],
      ['c-refused', 'REJECTED', 'INSUFFICIENT_FUNDS'],
    ]);
    expect(built.denials).toEqual({});
  });

  it("a refused placement's line has the market and side it was placed with", async () => {
    const { report } = await setUp();
    report.onOrderEvent(rejected('c-small', 'MIN_TRADE_REQUIREMENT_NOT_MET', { marketSymbol: M, direction: 'SELL' }));
    const built = report.build(RUN);
    expect(built.orders).toMatchObject([{ clientOrderId: 'c-small', marketSymbol: M, direction: 'SELL', outcome: 'REJECTED' }]);
  });

  it('an intent the planner refused was never sent: a denial by its code, not an order', async () => {
    const { report } = await setUp();
    report.onOrderEvent(rejected(undefined, 'NO_MID_PRICE'));
    report.onOrderEvent(rejected(undefined, 'NO_MID_PRICE'));
    const built = report.build(RUN);
    expect(built.orders).toEqual([]);
    expect(built.denials).toEqual({ NO_MID_PRICE: 2 });
  });
});
