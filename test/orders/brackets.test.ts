import { afterEach, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { Portfolio } from '../../src/portfolio/portfolio.js';
import { M, makeRig, ofType, T0, type Rig } from './harness.js';
import { VirtualClock } from '../../src/core/clock.js';

let rig: Rig;
afterEach(async () => rig?.cleanup());

const openConditionals = (rig: Rig) => rig.engine.openConditionalOrders(rig.me).data;

describe('OrderManager: bracket (entry, then take-profit and stop-loss as an OCO pair)', () => {
  it('places the OCO pair once the entry filled, linked by orderToCancel both ways', async () => {
    rig = await makeRig();
    rig.manager.submit('bo', {
      kind: 'bracket',
      key: 'b1',
      entry: { marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.5'), limit: dec('30010') },
      takeProfit: dec('31000'),
      stopLoss: dec('29000'),
    });
    await rig.settle();
    const conds = openConditionals(rig);
    expect(conds).toHaveLength(2);
    const tp = conds.find((c) => c.operand === 'GTE')!;
    const sl = conds.find((c) => c.operand === 'LTE')!;
    expect(tp.triggerPrice!.toFixed()).toBe('31000');
    expect(tp.orderToCreate).toMatchObject({ direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED' });
    expect(tp.orderToCreate!.quantity!.toFixed()).toBe('0.5');
    expect(tp.orderToCreate!.limit!.toFixed()).toBe('31000');
    expect(sl.triggerPrice!.toFixed()).toBe('29000');
    expect(sl.orderToCreate).toMatchObject({ direction: 'SELL', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL' });
    expect(sl.orderToCancel).toEqual({ type: 'CONDITIONAL_ORDER', id: tp.id });
    expect(tp.orderToCancel).toEqual({ type: 'CONDITIONAL_ORDER', id: sl.id });
    // Both legs passed risk as position-reducing orders of the same intent.
    const legs = rig.risk.seen.slice(1);
    expect(legs.map((o) => [o.type, o.direction, o.reducesPosition, o.intentKey])).toEqual([
      ['LIMIT', 'SELL', true, 'b1'],
      ['MARKET', 'SELL', true, 'b1'],
    ]);
    const types = rig.events.map((e) => e.type);
    expect(types.indexOf('closed')).toBeLessThan(types.indexOf('conditional'));
  });

  it('the take-profit triggers, cancels the stop-loss, and its fills reach the strategy', async () => {
    rig = await makeRig();
    rig.manager.submit('bo', {
      kind: 'bracket',
      key: 'b1',
      entry: { marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.5'), limit: dec('30010') },
      takeProfit: dec('31000'),
      stopLoss: dec('29000'),
    });
    await rig.settle();
    const [tpId, slId] = [openConditionals(rig).find((c) => c.operand === 'GTE')!.id, openConditionals(rig).find((c) => c.operand === 'LTE')!.id];
    // The market rallies to 31,000: a trade there triggers the take-profit (after the engine's trigger delay).
    const buyer = rig.engine.createParticipant({ USD: dec('10000000') });
    rig.engine.placeOrder(rig.lp, { marketSymbol: M, direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.1'), limit: dec('31000') });
    rig.engine.placeOrder(buyer, { marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('10'), limit: dec('31000') });
    await rig.settle(2_000);
    expect(rig.engine.getConditionalOrder(rig.me, tpId).status).toBe('COMPLETED');
    expect(rig.engine.getConditionalOrder(rig.me, slId).status).toBe('CANCELLED');
    // The take-profit's limit order rests at 31,000; someone takes it.
    rig.engine.placeOrder(buyer, { marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.5'), limit: dec('31000') });
    await rig.settle();
    const fills = ofType(rig.events, 'fill').filter((f) => f.direction === 'SELL');
    expect(fills.reduce((s, f) => s.add(f.quantity), dec(0)).toFixed()).toBe('0.5');
    expect(fills.every((f) => f.intentKey === 'b1' && f.strategy === 'bo' && f.rate.eq(31000))).toBe(true);
    expect(ofType(rig.events, 'closed').filter((c) => c.order.direction === 'SELL')).toHaveLength(1);
  });

  it('an entry that does not fill places no legs', async () => {
    rig = await makeRig();
    rig.manager.submit('bo', {
      kind: 'bracket',
      key: 'b1',
      entry: { marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.5'), limit: dec('29000') },
      takeProfit: dec('31000'),
      stopLoss: dec('28000'),
    });
    await rig.settle();
    expect(openConditionals(rig)).toEqual([]);
    expect(ofType(rig.events, 'closed')).toHaveLength(1);
  });

  it('a bracket whose stop is on the wrong side is rejected before anything is sent', async () => {
    rig = await makeRig();
    rig.manager.submit('bo', {
      kind: 'bracket',
      key: 'b1',
      entry: { marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.5'), limit: dec('30010') },
      takeProfit: dec('29000'),
      stopLoss: dec('31000'),
    });
    await rig.settle();
    expect(ofType(rig.events, 'rejected')[0]!.code).toBe('INVALID_INTENT');
    expect(rig.gateway.calls).not.toContain('placeOrder');
  });
});

describe('OrderManager: trailing stop', () => {
  it('places a conditional order with trailingStopPercent; re-emitting the key replaces it', async () => {
    rig = await makeRig();
    rig.manager.submit('t', { kind: 'trailingStop', key: 'ts', marketSymbol: M, direction: 'SELL', quantity: dec('0.2'), trailingStopPercent: dec('2') });
    await rig.settle();
    let conds = openConditionals(rig);
    expect(conds).toHaveLength(1);
    expect(conds[0]!.operand).toBe('LTE');
    expect(conds[0]!.trailingStopPercent!.toFixed()).toBe('2');
    expect(conds[0]!.orderToCreate).toMatchObject({ direction: 'SELL', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL' });
    expect(conds[0]!.clientConditionalOrderId).toBeDefined();
    expect(ofType(rig.events, 'conditional')).toHaveLength(1);
    rig.manager.submit('t', { kind: 'trailingStop', key: 'ts', marketSymbol: M, direction: 'SELL', quantity: dec('0.2'), trailingStopPercent: dec('3') });
    await rig.settle();
    conds = openConditionals(rig);
    expect(conds).toHaveLength(1);
    expect(conds[0]!.trailingStopPercent!.toFixed()).toBe('3');
  });

  it('a lost answer is adopted through CLIENTCONDITIONALORDERID_ALREADY_EXISTS (one conditional order)', async () => {
    rig = await makeRig();
    rig.gateway.faults.push({ call: 'placeConditionalOrder', kind: 'lostAnswer' });
    rig.manager.submit('t', { kind: 'trailingStop', key: 'ts', marketSymbol: M, direction: 'SELL', quantity: dec('0.2'), trailingStopPercent: dec('2') });
    await rig.settle(5_000);
    expect(openConditionals(rig)).toHaveLength(1);
    expect(ofType(rig.events, 'rejected')).toEqual([]);
  });
});

describe('OrderManager: target position', () => {
  it('moves the position with IOC limits at mid ± slippage, one at a time', async () => {
    const clock = new VirtualClock(T0);
    const portfolio = new Portfolio({ clock });
    rig = await makeRig({ deps: { portfolio } });
    rig.manager.submit('tp', { kind: 'targetPosition', key: 'pos', marketSymbol: M, position: dec('0.5'), maxSlippage: dec('0.005') });
    await rig.settle();
    const first = rig.risk.seen[0]!;
    expect(first).toMatchObject({ direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL' });
    expect(first.limit!.toFixed()).toBe('30150'); // mid 30000 × 1.005
    expect(portfolio.position(M, 'tp').toFixed()).toBe('0.5');

    // Two targets in a row: the second waits for the first order's fills, then plans on the new position.
    rig.manager.submit('tp', { kind: 'targetPosition', key: 'pos', marketSymbol: M, position: dec('0.2') });
    rig.manager.submit('tp', { kind: 'targetPosition', key: 'pos', marketSymbol: M, position: dec('-0.1') });
    await rig.settle();
    expect(portfolio.position(M, 'tp').toFixed()).toBe('-0.1');
    // Already there: nothing is sent.
    const sent = rig.gateway.calls.filter((c) => c === 'placeOrder').length;
    rig.manager.submit('tp', { kind: 'targetPosition', key: 'pos', marketSymbol: M, position: dec('-0.1') });
    await rig.settle();
    expect(rig.gateway.calls.filter((c) => c === 'placeOrder').length).toBe(sent);
  });

  it('without a book there is no mid: rejected with NO_MID_PRICE', async () => {
    rig = await makeRig({ book: false });
    rig.manager.submit('tp', { kind: 'targetPosition', key: 'pos', marketSymbol: M, position: dec('0.5') });
    await rig.settle();
    expect(ofType(rig.events, 'rejected')[0]!.code).toBe('NO_MID_PRICE');
  });
});
