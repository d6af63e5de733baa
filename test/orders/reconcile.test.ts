import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import type { OrderSpec } from '../../src/model/intent.js';
import { Journal } from '../../src/orders/journal.js';
import { ReconcileError } from '../../src/orders/reconcile.js';
import { Portfolio } from '../../src/portfolio/portfolio.js';
import { crashableManager, M, makeRig, ofType, T0, type Rig } from './harness.js';

let rig: Rig;
afterEach(async () => rig?.cleanup());

const resting: OrderSpec = { marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.1'), limit: dec('29000') };
const taker: OrderSpec = { marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.5'), limit: dec('30010') };

/** Start the rig with its default manager closed, so only the managers a test builds touch the journal. */
async function rigWithoutManager(): Promise<Rig> {
  const r = await makeRig();
  await r.manager.close();
  r.events.length = 0;
  return r;
}

describe('reconcile after a crash', () => {
  it('sent, received by the exchange, answer lost, process killed: the restart adopts it (no duplicate)', async () => {
    rig = await rigWithoutManager();
    const first = crashableManager(rig);
    rig.gateway.faults.push({ call: 'placeOrder', kind: 'lostAnswer' });
    first.manager.submit('s', { kind: 'place', key: 'k', order: resting });
    await rig.settle();
    first.crash();
    const cid = ofType(first.events, 'submitted')[0]!.clientOrderId;
    expect(rig.engine.openOrders(rig.me, M).data).toHaveLength(1);

    const second = await rig.restart();
    const report = await second.reconcile();
    expect(report.adopted).toEqual([cid]);
    expect(report.lost).toEqual([]);
    expect(report.accountedFor).toBe(1);
    expect(report.unknownOpenOrders).toEqual([]);
    expect(second.inFlight(cid)?.state).toBe('OPEN');
    expect(rig.engine.openOrders(rig.me, M).data).toHaveLength(1);
    // The adopted order is followed again: a later cancel-all reaches it.
    await second.cancelAll('s');
    expect(rig.engine.openOrders(rig.me, M).data).toHaveLength(0);
  });

  it('sent, never received, process killed: reported lost, nothing placed, nothing re-sent', async () => {
    rig = await rigWithoutManager();
    const first = crashableManager(rig);
    rig.gateway.faults.push({ call: 'placeOrder', kind: 'timeoutBefore' });
    first.manager.submit('s', { kind: 'place', key: 'k', order: resting });
    await rig.settle();
    first.crash();
    const cid = ofType(first.events, 'submitted')[0]!.clientOrderId;

    const second = await rig.restart();
    const report = await second.reconcile();
    expect(report.lost).toEqual([cid]);
    expect(report.adopted).toEqual([]);
    await rig.settle(60_000);
    expect(rig.engine.openOrders(rig.me, M).data).toHaveLength(0);
    expect(rig.engine.closedOrders(rig.me, {})).toHaveLength(0);
    // A second restart finds nothing left to settle.
    const third = await rig.restart();
    expect((await third.reconcile()).accountedFor).toBe(0);
  });

  it('acknowledged, then filled while the bot was down: the fills are recovered, reported once, and the order closes', async () => {
    rig = await rigWithoutManager();
    const first = crashableManager(rig);
    first.manager.submit('s', { kind: 'place', key: 'k', order: { ...resting, limit: dec('29995'), quantity: dec('0.3') } });
    await rig.settle();
    first.crash();
    const cid = ofType(first.events, 'accepted')[0]!.clientOrderId;
    rig.engine.placeOrder(rig.lp, { marketSymbol: M, direction: 'SELL', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.1'), limit: dec('29995') });
    rig.engine.placeOrder(rig.lp, { marketSymbol: M, direction: 'SELL', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.2'), limit: dec('29995') });

    const portfolio = new Portfolio({ clock: new VirtualClock(T0) });
    const second = await rig.restart({ portfolio });
    const report = await second.reconcile();
    expect(report.recoveredFills).toBe(2);
    expect(report.accountedFor).toBe(1);
    expect(portfolio.position(M, 's').toFixed()).toBe('0.3');
    const fills = ofType(rig.events, 'fill');
    expect(fills.map((f) => f.clientOrderId)).toEqual([cid, cid]);
    expect(ofType(rig.events, 'closed').map((c) => c.clientOrderId)).toEqual([cid]);

    // Restart again: the journaled fills rebuild the position, and nothing is reported twice.
    rig.events.length = 0;
    const portfolio2 = new Portfolio({ clock: new VirtualClock(T0) });
    const third = await rig.restart({ portfolio: portfolio2 });
    const again = await third.reconcile();
    expect(again.recoveredFills).toBe(0);
    expect(portfolio2.position(M, 's').toFixed()).toBe('0.3');
    expect(ofType(rig.events, 'fill')).toEqual([]);
  });

  it('fills missed after the last journaled fill are fetched from it on (rule 5 paging)', async () => {
    rig = await rigWithoutManager();
    const first = crashableManager(rig);
    first.manager.submit('s', { kind: 'place', key: 'taker', order: taker });
    first.manager.submit('s', { kind: 'place', key: 'maker', order: { ...resting, limit: dec('29995'), quantity: dec('0.4') } });
    await rig.settle();
    first.crash();
    expect(ofType(first.events, 'fill')).toHaveLength(1);
    rig.engine.placeOrder(rig.lp, { marketSymbol: M, direction: 'SELL', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.4'), limit: dec('29995') });
    const portfolio = new Portfolio({ clock: new VirtualClock(T0) });
    const second = await rig.restart({ portfolio });
    const report = await second.reconcile();
    expect(report.recoveredFills).toBe(1);
    expect(portfolio.position(M, 's').toFixed()).toBe('0.9');
  });

  it('reports orders the journal never saw (manual orders) and does not cancel them', async () => {
    rig = await rigWithoutManager();
    const manual = rig.engine.placeOrder(rig.me, { ...resting, limit: dec('28000') });
    const second = await rig.restart();
    const report = await second.reconcile();
    expect(report.unknownOpenOrders.map((o) => o.id)).toEqual([manual.id]);
    await second.cancelAll();
    expect(rig.engine.openOrders(rig.me, M).data.map((o) => o.id)).toEqual([manual.id]);
  });

  it('refuses to start when an order cannot be accounted for', async () => {
    rig = await rigWithoutManager();
    const j = Journal.open(rig.journalPath);
    await j.appendDurable({ t: 'order', at: T0, clientOrderId: 'c-1', strategy: 's', intentKey: 'k', role: 'order', order: { ...resting, clientOrderId: 'c-1' } });
    await j.appendDurable({ t: 'ack', at: T0, id: 'c-1', orderId: '00000000-0000-0000-0000-000000000000' });
    j.close();
    const second = await rig.restart();
    const err = await second.reconcile().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReconcileError);
    expect((err as ReconcileError).unaccounted.map((u) => u.id)).toEqual(['c-1']);
    expect((err as Error).message).toMatch(/c-1 \(lookup failed: .*NOT_FOUND/);
  });

  it('a lookup that fails (exchange unreachable) refuses too, rather than guessing', async () => {
    rig = await rigWithoutManager();
    const first = crashableManager(rig);
    rig.gateway.faults.push({ call: 'placeOrder', kind: 'timeoutBefore' });
    first.manager.submit('s', { kind: 'place', key: 'k', order: resting });
    await rig.settle();
    first.crash();
    rig.gateway.faults.push({ call: 'closedOrders', kind: 'http503Before' });
    const second = await rig.restart();
    await expect(second.reconcile()).rejects.toBeInstanceOf(ReconcileError);
  });

  it('a filled bracket entry whose legs never got out: the restart places the OCO pair', async () => {
    rig = await rigWithoutManager();
    const first = crashableManager(rig);
    rig.gateway.faults.push({ call: 'placeConditionalOrder', kind: 'timeoutBefore' });
    first.manager.submit('bo', { kind: 'bracket', key: 'b', entry: taker, takeProfit: dec('31000'), stopLoss: dec('29000') });
    await rig.settle();
    first.crash();
    expect(rig.engine.openConditionalOrders(rig.me).data).toHaveLength(0);
    expect(ofType(first.events, 'closed')).toHaveLength(1);

    const second = await rig.restart();
    const report = await second.reconcile();
    expect(report.lost).toHaveLength(1); // the take-profit that never reached the exchange
    const conds = rig.engine.openConditionalOrders(rig.me).data;
    expect(conds).toHaveLength(2);
    const tp = conds.find((c) => c.operand === 'GTE')!;
    const sl = conds.find((c) => c.operand === 'LTE')!;
    expect(sl.orderToCancel).toEqual({ type: 'CONDITIONAL_ORDER', id: tp.id });
    expect(tp.orderToCreate!.quantity!.toFixed()).toBe('0.5');
    // And a further restart does not arm it again.
    const third = await rig.restart();
    await third.reconcile();
    expect(rig.engine.openConditionalOrders(rig.me).data).toHaveLength(2);
  });

  it('a bracket whose legs were denied is not armed again by a restart (the position may be long gone)', async () => {
    rig = await rigWithoutManager();
    rig.risk.deny = (o) => o.reducesPosition;
    const first = await rig.restart();
    first.submit('bo', { kind: 'bracket', key: 'b', entry: taker, takeProfit: dec('31000'), stopLoss: dec('29000') });
    await rig.settle();
    expect(ofType(rig.events, 'denied')).toHaveLength(2);
    await first.close();
    rig.risk.deny = undefined;
    const second = await rig.restart();
    await second.reconcile();
    await rig.settle();
    expect(rig.engine.openConditionalOrders(rig.me).data).toEqual([]);
  });

  it('a torn last journal line from the crash is ignored; the rest reconciles', async () => {
    rig = await rigWithoutManager();
    const first = crashableManager(rig);
    first.manager.submit('s', { kind: 'place', key: 'k', order: resting });
    await rig.settle();
    first.crash();
    writeFileSync(rig.journalPath, '{"t":"fill","at":1,"id":"x","ord', { flag: 'a' });
    const second = await rig.restart();
    const report = await second.reconcile();
    expect(report.adopted).toEqual([ofType(first.events, 'accepted')[0]!.clientOrderId]);
    expect(report.accountedFor).toBe(1);
    expect(rig.engine.openOrders(rig.me, M).data).toHaveLength(1);
  });
});
