/**
 * Journal compaction against the in-process simulator: a journal with every kind of request a restart must deal
 * with, compacted, reconciles exactly like the whole journal; a restart on it restores the positions and finishes
 * what was unfinished (an unarmed bracket), with no order placed twice.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { type Decimal, dec, ZERO } from '../../src/core/decimal.js';
import type { OrderSpec } from '../../src/model/intent.js';
import { Journal, parseJournal } from '../../src/orders/journal.js';
import { encodeRecord, type JournalRecord } from '../../src/orders/journal-records.js';
import { compactRecords } from '../../src/orders/journal-compaction.js';
import { JournalState } from '../../src/orders/journal-state.js';
import { reconcileJournal, type ReconcileResult } from '../../src/orders/reconcile.js';
import { Portfolio } from '../../src/portfolio/portfolio.js';
import type { PositionSnapshot } from '../../src/portfolio/position.js';
import { crashableManager, M, makeRig, ofType, T0, type Rig } from './harness.js';

let rig: Rig;
afterEach(async () => rig?.cleanup());

const resting: OrderSpec = { marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.1'), limit: dec('29000') };
const taker: OrderSpec = { marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.5'), limit: dec('30010') };
const sellTaker: OrderSpec = { ...taker, direction: 'SELL', quantity: dec('0.2'), limit: dec('29990') };

const read = (path: string): JournalRecord[] => parseJournal(path, readFileSync(path, 'utf8')).records;
const show = (p: PositionSnapshot) => `${p.strategy} ${p.marketSymbol} ${p.quantity.toFixed()} cost ${p.cost.toFixed()} trading ${p.trading.toFixed()} fee ${p.commission.toFixed()} lots ${p.lots.length}`;

/** The parts of a reconciliation a restart acts on, as comparable plain data. */
function summary(r: ReconcileResult) {
  return {
    report: { ...r.report, unknownOpenOrders: r.report.unknownOpenOrders.map((o) => o.id) },
    resolutions: r.resolutions.map((x) => `${x.request.kind === 'order' ? x.request.clientOrderId : x.request.clientConditionalOrderId} ${x.outcome}`).sort(),
    executions: r.executions.map((e) => e.id),
    brackets: r.brackets.map((b) => `${b.request.clientOrderId} ${b.filled.toFixed()}`),
  };
}

/** Net base quantity the account's executions add up to on the engine. */
function engineNet(r: Rig): Decimal {
  let net = ZERO;
  for (const x of r.engine.executions(r.me, { pageSize: 200 })) {
    const buy = r.engine.getOrder(r.me, x.orderId).direction === 'BUY';
    net = buy ? net.plus(x.quantity) : net.minus(x.quantity);
  }
  return net;
}

/**
 * Journal: finished orders (a filled one-off, a cancelled one, an armed bracket's entry, a rejected batch-less
 * order), live ones (a resting order, a quote ladder from a batch, the armed legs, a trailing stop), and what a
 * crash leaves (a placement whose answer was lost, one that never reached the exchange, a filled bracket entry
 * whose legs never got out).
 */
async function mixedJournal(): Promise<Rig> {
  const r = await makeRig();
  await r.manager.close();
  const m = await r.restart();
  m.submit('s', { kind: 'place', key: 'take', order: taker });
  m.submit('s', { kind: 'place', key: 'gone', order: { ...resting, limit: dec('28500') } });
  m.submit('s', { kind: 'place', key: 'rest', order: resting });
  m.submit('s', { kind: 'quotes', key: 'ladder', marketSymbol: M, bids: [{ rate: dec('29100'), quantity: dec('0.01') }], asks: [{ rate: dec('31000'), quantity: dec('0.01') }] });
  m.submit('s', { kind: 'bracket', key: 'b-armed', entry: taker, takeProfit: dec('31500'), stopLoss: dec('29500') });
  m.submit('s', { kind: 'trailingStop', key: 'ts', marketSymbol: M, direction: 'SELL', quantity: dec('0.05'), trailingStopPercent: dec('2') });
  await r.settle();
  m.submit('s', { kind: 'place', key: 'sell', order: sellTaker });
  m.submit('s', { kind: 'cancel', key: 'c', targetKey: 'gone' });
  m.submit('s', { kind: 'place', key: 'too-big', order: { ...resting, quantity: dec('1000') } });
  await r.settle(1000);
  expect(ofType(r.events, 'rejected').map((e) => e.intentKey)).toEqual(['too-big']);
  await m.close();

  const crashed = crashableManager(r);
  r.gateway.faults.push({ call: 'placeOrder', kind: 'lostAnswer' });
  crashed.manager.submit('s', { kind: 'place', key: 'amb', order: { ...resting, limit: dec('28900') } });
  await r.settle();
  r.gateway.faults.push({ call: 'placeOrder', kind: 'timeoutBefore' });
  crashed.manager.submit('s', { kind: 'place', key: 'never', order: { ...resting, limit: dec('28800') } });
  await r.settle();
  r.gateway.faults.push({ call: 'placeConditionalOrder', kind: 'timeoutBefore' });
  crashed.manager.submit('s', { kind: 'bracket', key: 'b-unarmed', entry: { ...taker, limit: dec('30050') }, takeProfit: dec('31600'), stopLoss: dec('29400') });
  await r.settle();
  crashed.crash();
  return r;
}

describe('journal compaction', () => {
  it('keeps exactly what reconciliation needs: the compacted journal reconciles like the whole one', async () => {
    rig = await mixedJournal();
    const fullPath = join(rig.dir, 'full.journal');
    copyFileSync(rig.journalPath, fullPath);
    const j = Journal.open(rig.journalPath);
    const result = j.compact(rig.clock.now());
    j.close();
    expect(result.after.records).toBeLessThan(result.before.records);
    expect(result.after.bytes).toBeLessThan(result.before.bytes);
    expect(read(rig.journalPath)).toHaveLength(result.after.records);

    const full = JournalState.from(read(fullPath));
    const compacted = JournalState.from(read(rig.journalPath));
    const keys = (s: JournalState) => [...s.orders.values(), ...s.conditionals.values()].map((o) => o.intentKey);
    // Finished requests are gone; everything a restart looks up or may still arm is there, as it was.
    for (const gone of ['take', 'gone', 'sell', 'too-big']) {
      expect(keys(full)).toContain(gone);
      expect(keys(compacted)).not.toContain(gone);
    }
    expect(compacted.unresolved().map((r) => r.intentKey).sort()).toEqual(full.unresolved().map((r) => r.intentKey).sort());
    for (const r of full.unresolved()) {
      const id = r.kind === 'order' ? r.clientOrderId : r.clientConditionalOrderId;
      expect(compacted.get(id)).toEqual(r);
      expect(compacted.filledQuantity(id, ZERO).toFixed()).toBe(full.filledQuantity(id, ZERO).toFixed());
    }
    expect(compacted.positions().map(show)).toEqual(full.positions().map(show));
    expect(compacted.lastFill).toEqual(full.lastFill);

    // Reconciliation (read-only on the exchange) decides the same on both.
    const fromFull = await reconcileJournal({ gateway: rig.gateway, state: full });
    const fromCompacted = await reconcileJournal({ gateway: rig.gateway, state: compacted });
    expect(summary(fromCompacted)).toEqual(summary(fromFull));
    expect(fromFull.report.adopted.length).toBeGreaterThan(0);
    expect(fromFull.report.lost).toHaveLength(2); // the placement and the take-profit that never got there
    expect(fromFull.brackets).toHaveLength(1);

    // A restart on the compacted journal: positions as the exchange's fills say, the unarmed bracket armed once.
    const portfolio = new Portfolio({ clock: new VirtualClock(T0) });
    const second = await rig.restart({ portfolio });
    const report = await second.reconcile();
    await rig.settle(1000);
    expect({ ...report, unknownOpenOrders: report.unknownOpenOrders.map((o) => o.id) }).toEqual(summary(fromFull).report);
    expect(portfolio.position(M, 's').toFixed()).toBe(engineNet(rig).toFixed());
    const clientIds = [...rig.engine.openOrders(rig.me, M).data, ...rig.engine.closedOrders(rig.me, { pageSize: 200 })].map((o) => o.clientOrderId);
    expect(new Set(clientIds).size).toBe(clientIds.length);
    // Armed: bracket legs of both brackets (2 + 2) and the trailing stop.
    expect(rig.engine.openConditionalOrders(rig.me).data).toHaveLength(5);
    await second.close();

    // And compacting the journal that restart wrote, then restarting again, changes nothing.
    const again = Journal.open(rig.journalPath);
    again.compact(rig.clock.now());
    again.close();
    const portfolio3 = new Portfolio({ clock: new VirtualClock(T0) });
    const third = await rig.restart({ portfolio: portfolio3 });
    const report3 = await third.reconcile();
    await rig.settle(1000);
    expect(report3.lost).toEqual([]);
    expect(report3.recoveredFills).toBe(0);
    expect(portfolio3.position(M, 's').toFixed()).toBe(engineNet(rig).toFixed());
    expect(portfolio3.realizedPnl('s').toFixed()).toBe(portfolio.realizedPnl('s').toFixed());
    expect(rig.engine.openConditionalOrders(rig.me).data).toHaveLength(5);
    await third.close();
  });

  it('keeps the newest limits record, and it decodes back as written', () => {
    const curve = { at: T0, equity: dec('-600.12345678'), peak: dec('1000'), maxDrawdown: dec('1600.12345678'), day: 19_800, dayOpen: dec('-300') };
    const older: JournalRecord = { t: 'limits', at: T0 - 1, curve: { ...curve, peak: dec('900') }, risk: { peak: dec('900'), day: 19_800, state: 'ACTIVE', reason: 'started' } };
    const newest: JournalRecord = {
      t: 'limits',
      at: T0,
      curve,
      risk: { peak: dec('1000'), day: 19_800, resumeBase: { day: 19_800, equity: dec('990') }, state: 'HALTED', cause: 'manual', reason: 'operator' },
    };
    const compacted = compactRecords(JournalState.from([older, newest]), T0 + 1);
    expect(compacted).toEqual([newest]);
    const text = compacted.map((r) => `${encodeRecord(r)}\n`).join('');
    expect(JournalState.from(parseJournal('j', text).records).limits).toEqual(newest);
  });
});
