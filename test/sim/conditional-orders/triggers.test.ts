import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { conflict } from '../../../src/sim/sim-error.js';
import { A, DELAY, T0, marketSell, setup, stop } from './harness.js';

describe('fixed triggers', () => {
  it('LTE fires on a trade at or below the trigger, and acts only after the trigger delay', async () => {
    const { co, orders, clock, trade } = setup();
    const c = co.create(A, stop('90'));
    trade('BTC-USD', '95', '90.01');
    trade('ETH-USD', '1'); // another market
    await clock.advance(10 * DELAY);
    expect(orders.calls).toEqual([]);
    trade('BTC-USD', '90');
    await clock.advance(DELAY - 1);
    expect(orders.calls).toEqual([]);
    expect(co.get(A, c.id).status).toBe('OPEN');
    await clock.advance(1);
    expect(orders.calls).toEqual(['place:BTC-USD:SELL']);
    const done = co.get(A, c.id);
    expect(done.status).toBe('COMPLETED');
    expect(done.createdOrderId).toBe([...orders.orders.keys()][0]);
    expect(done.closedAt?.getTime()).toBe(T0 + 11 * DELAY);
    expect(co.listOpen(A).data).toEqual([]);
    expect(co.listClosed(A)).toEqual([done]);
  });

  it('GTE fires on a trade at or above the trigger', async () => {
    const { co, orders, clock, trade } = setup();
    const c = co.create(A, stop('110', { operand: 'GTE' }));
    trade('BTC-USD', '109.99', '100');
    await clock.advance(DELAY);
    expect(co.get(A, c.id).status).toBe('OPEN');
    trade('BTC-USD', '115');
    await clock.advance(DELAY);
    expect(co.get(A, c.id).status).toBe('COMPLETED');
    expect(orders.calls).toEqual(['place:BTC-USD:SELL']);
  });

  it('fires once even when many trades meet the condition during the delay', async () => {
    const { co, orders, clock, trade } = setup();
    co.create(A, stop('90'));
    trade('BTC-USD', '89', '88');
    await clock.advance(DELAY / 2);
    trade('BTC-USD', '87');
    await clock.advance(DELAY * 3);
    expect(orders.calls).toEqual(['place:BTC-USD:SELL']);
  });

  it('a trigger already met at placement fires on the next trade, not at placement', async () => {
    const { co, orders, clock, trade } = setup();
    trade('BTC-USD', '80');
    const c = co.create(A, stop('90'));
    await clock.advance(DELAY * 2);
    expect(co.get(A, c.id).status).toBe('OPEN');
    trade('BTC-USD', '80');
    await clock.advance(DELAY);
    expect(orders.calls).toHaveLength(1);
  });

  it('without orderToCreate it just completes', async () => {
    const { co, orders, clock, trade } = setup();
    const c = co.create(A, { marketSymbol: 'BTC-USD', operand: 'GTE', triggerPrice: dec('100') });
    trade('BTC-USD', '100');
    await clock.advance(DELAY);
    expect(co.get(A, c.id)).toMatchObject({ status: 'COMPLETED' });
    expect(co.get(A, c.id).createdOrderId).toBeUndefined();
    expect(orders.calls).toEqual([]);
  });

  it('places the orderToCreate of its own market when it differs from the tracked one', async () => {
    const { co, orders, clock, trade } = setup();
    co.create(A, stop('90', { orderToCreate: marketSell('eth-usd') }));
    trade('BTC-USD', '90');
    await clock.advance(DELAY);
    expect(orders.calls).toEqual(['place:ETH-USD:SELL']);
  });
});

describe('failed placement', () => {
  it('ends FAILED with the refusal code as orderCreationErrorCode', async () => {
    const { co, orders, clock, trade, events } = setup();
    orders.failWith = conflict('INSUFFICIENT_FUNDS', 'balance is not reserved');
    const c = co.create(A, stop('90'));
    trade('BTC-USD', '85');
    await clock.advance(DELAY);
    const f = co.get(A, c.id);
    expect(f).toMatchObject({ status: 'FAILED', orderCreationErrorCode: 'INSUFFICIENT_FUNDS' });
    expect(f.createdOrderId).toBeUndefined();
    expect(f.closedAt?.getTime()).toBe(T0 + DELAY);
    expect(events.at(-1)?.delta).toEqual(f);
    expect(co.listClosed(A)).toEqual([f]);
  });

  it('reports an engine failure as ORDER_ERROR_CONTACT_SUPPORT instead of throwing from the timer', async () => {
    const { co, orders, clock, trade } = setup();
    orders.failWith = new Error('boom');
    const c = co.create(A, stop('90'));
    trade('BTC-USD', '85');
    await clock.advance(DELAY);
    expect(co.get(A, c.id)).toMatchObject({ status: 'FAILED', orderCreationErrorCode: 'ORDER_ERROR_CONTACT_SUPPORT' });
  });
});

describe('trailing triggers', () => {
  it('LTE trails below the highest trade since placement, starting from the last trade price', async () => {
    const { co, orders, clock, trade, events } = setup();
    trade('BTC-USD', '100');
    const c = co.create(A, { ...stop('1'), triggerPrice: undefined, trailingStopPercent: dec('10') });
    expect(c.triggerPrice?.toString()).toBe('90');
    expect(c.trailingStopPercent?.toString()).toBe('10');
    trade('BTC-USD', '120'); // new high: 108
    expect(co.get(A, c.id).triggerPrice?.toString()).toBe('108');
    trade('BTC-USD', '115', '109'); // no new high, not low enough
    trade('BTC-USD', '120'); // equal to the high: no move
    expect(events.map((e) => e.delta.triggerPrice?.toString())).toEqual(['90', '108']);
    await clock.advance(DELAY);
    expect(orders.calls).toEqual([]);
    trade('BTC-USD', '108');
    await clock.advance(DELAY);
    expect(orders.calls).toEqual(['place:BTC-USD:SELL']);
    expect(co.get(A, c.id)).toMatchObject({ status: 'COMPLETED' });
  });

  it('GTE trails above the lowest trade since placement', async () => {
    const { co, orders, clock, trade } = setup();
    const c = co.create(A, { ...stop('1'), operand: 'GTE', triggerPrice: undefined, trailingStopPercent: dec('5') });
    expect(c.triggerPrice).toBeUndefined(); // no trade yet on the market
    trade('BTC-USD', '100'); // 105
    trade('BTC-USD', '80'); // 84
    expect(co.get(A, c.id).triggerPrice?.toString()).toBe('84');
    trade('BTC-USD', '83.99'); // not a new low, below the trigger
    await clock.advance(DELAY);
    expect(orders.calls).toEqual([]);
    trade('BTC-USD', '79.99', '84'); // new low: 83.9895, then 84 >= it
    expect(co.get(A, c.id).triggerPrice?.toString()).toBe('83.9895');
    await clock.advance(DELAY);
    expect(orders.calls).toEqual(['place:BTC-USD:SELL']);
  });

  it('keeps the trigger at 8 decimals, rounded so the comparison equals the exact one', () => {
    const { co, trade } = setup();
    const lte = co.create(A, { ...stop('1'), triggerPrice: undefined, trailingStopPercent: dec('3.3') });
    const gte = co.create(A, { ...stop('1'), operand: 'GTE', triggerPrice: undefined, trailingStopPercent: dec('3.3') });
    trade('ETH-USD', '1');
    trade('BTC-USD', '0.00000007');
    // 0.00000007 × 0.967 = 0.00000006769 -> down; × 1.033 = 0.00000007231 -> up
    expect(co.get(A, lte.id).triggerPrice?.toString()).toBe('0.00000006');
    expect(co.get(A, gte.id).triggerPrice?.toString()).toBe('0.00000008');
  });
});

describe('re-entrancy', () => {
  it('an order placed by an action that trades again does not trigger the same conditional twice', async () => {
    const { co, orders, clock, trade } = setup();
    co.create(A, stop('90'));
    orders.onPlace = () => trade('BTC-USD', '80');
    trade('BTC-USD', '85');
    await clock.advance(DELAY * 3);
    expect(orders.calls).toEqual(['place:BTC-USD:SELL']);
  });

  it('acts through the clock even with a zero delay, never inside the trade callback', async () => {
    const { co, orders, clock, trade } = setup({ delay: 0 });
    co.create(A, stop('90'));
    trade('BTC-USD', '85');
    expect(orders.calls).toEqual([]);
    await clock.advance(0);
    expect(orders.calls).toEqual(['place:BTC-USD:SELL']);
  });
});
