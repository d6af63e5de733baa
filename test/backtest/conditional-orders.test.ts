/**
 * Conditional orders in a backtest: the engine's rules (trigger, delay, trailing, OCO through orderToCancel),
 * triggered by RECORDED trades, and the order they create meets the recorded book through the venue.
 */
import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { ev, M, T0, venueHarness } from './venue-harness.js';

const sellMarket = (quantity: string) =>
  ({ marketSymbol: M, direction: 'SELL', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec(quantity) }) as const;

describe('backtest conditional orders', () => {
  it('a stop triggers on a recorded trade, after the engine\'s delay, and its market order walks the recorded bids', async () => {
    const h = venueHarness();
    await h.play(ev.snapshot(T0, [['98.5', '0.6'], ['98', '5']], [['101', '5']]));
    const stop = h.venue.conditionalOrders.create(h.account, { marketSymbol: M, operand: 'LTE', triggerPrice: dec('99'), orderToCreate: sellMarket('1') });
    await h.play(ev.trade(T0 + 10, 'SELL', '99.5', '1')); // above the trigger
    await h.clock.advanceTo(T0 + 5_000);
    expect(h.venue.conditionalOrders.get(h.account, stop.id).status).toBe('OPEN');
    await h.play(ev.trade(T0 + 6_000, 'SELL', '99', '1'));
    const delay = h.engine.config.conditionalTriggerDelayMs;
    await h.clock.advanceTo(T0 + 6_000 + delay);
    const done = h.venue.conditionalOrders.get(h.account, stop.id);
    expect(done.status).toBe('COMPLETED');
    const created = h.order(done.createdOrderId!);
    expect(created.createdAt.getTime()).toBe(T0 + 6_000 + delay);
    const fills = h.engine.orderExecutions(h.account, created.id).map((x) => `${x.quantity.toFixed()}@${x.rate.toFixed()} ${x.isTaker ? 'taker' : 'maker'}`);
    expect(fills.sort()).toEqual(['0.4@98 taker', '0.6@98.5 taker']);
  });

  it('OCO: the stop cancels its paired limit order when it triggers; the limit filling first cancels the stop', async () => {
    const h = venueHarness();
    await h.play(ev.snapshot(T0, [['98', '5']], [['106', '5']]));
    // Pair 1: the stop triggers.
    const tp1 = h.limit('SELL', '105', '1');
    const sl1 = h.venue.conditionalOrders.create(h.account, {
      marketSymbol: M,
      operand: 'LTE',
      triggerPrice: dec('99'),
      orderToCreate: sellMarket('1'),
      orderToCancel: { type: 'ORDER', id: tp1.id },
    });
    await h.play(ev.trade(T0 + 10, 'SELL', '99', '0.1'));
    await h.clock.advanceTo(T0 + 10 + h.engine.config.conditionalTriggerDelayMs);
    expect(h.venue.conditionalOrders.get(h.account, sl1.id).status).toBe('COMPLETED');
    expect(h.order(tp1.id)).toMatchObject({ status: 'CLOSED' });
    expect(h.filled(tp1.id)).toBe('0');
    // Pair 2: the take-profit fills first (a recorded trade through it).
    const tp2 = h.limit('SELL', '105', '1');
    const sl2 = h.venue.conditionalOrders.create(h.account, {
      marketSymbol: M,
      operand: 'LTE',
      triggerPrice: dec('90'),
      orderToCreate: sellMarket('1'),
      orderToCancel: { type: 'ORDER', id: tp2.id },
    });
    await h.play(ev.trade(T0 + 5_000, 'BUY', '105.5', '2'));
    expect(h.filled(tp2.id)).toBe('1');
    expect(h.venue.conditionalOrders.get(h.account, sl2.id).status).toBe('CANCELLED');
  });

  it('a trailing stop follows the recorded trades up and triggers on the way down', async () => {
    const h = venueHarness();
    await h.play(ev.snapshot(T0, [['99', '5']], [['101', '5']]));
    await h.play(ev.trade(T0 + 1, 'BUY', '100', '0.1'));
    const trail = h.venue.conditionalOrders.create(h.account, { marketSymbol: M, operand: 'LTE', trailingStopPercent: dec('5'), orderToCreate: sellMarket('1') });
    await h.play(ev.trade(T0 + 2, 'BUY', '110', '0.1'));
    expect(h.venue.conditionalOrders.get(h.account, trail.id).triggerPrice!.toFixed()).toBe('104.5');
    await h.play(ev.trade(T0 + 3, 'SELL', '105', '0.1'));
    await h.clock.advanceTo(T0 + 10_000);
    expect(h.venue.conditionalOrders.get(h.account, trail.id).status).toBe('OPEN');
    await h.play(ev.trade(T0 + 10_001, 'SELL', '104.5', '0.1'));
    await h.clock.advanceTo(T0 + 20_000);
    expect(h.venue.conditionalOrders.get(h.account, trail.id).status).toBe('COMPLETED');
  });

  it('through the gateway: placed after the order-entry latency, listed in the open snapshot', async () => {
    const h = venueHarness({ latency: { orderEntry: 25 } });
    await h.play(ev.snapshot(T0, [['99', '5']], [['101', '5']]));
    const placing = h.gateway.placeConditionalOrder({ marketSymbol: M, operand: 'GTE', triggerPrice: dec('120'), orderToCreate: sellMarket('1') });
    await h.clock.advanceTo(T0 + 30);
    const c = await placing;
    expect(c.createdAt.getTime()).toBe(T0 + 25);
    expect((await h.gateway.openConditionalOrders(M)).data.map((x) => x.id)).toEqual([c.id]);
  });
});
