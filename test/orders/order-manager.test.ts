import { readFileSync } from 'node:fs';
import { Subject, merge } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { OrderSpec } from '../../src/model/intent.js';
import { Journal } from '../../src/orders/journal.js';
import { createMetrics } from '../../src/telemetry/metrics.js';
import { OrderManager } from '../../src/orders/order-manager.js';
import type { AccountEvent } from '../../src/store/account-store.js';
import { M, makeRig, ofType, type Rig } from './harness.js';

let rig: Rig;
afterEach(async () => rig?.cleanup());

const resting: OrderSpec = { marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.1'), limit: dec('29000') };
const taker: OrderSpec = { marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('1.5'), limit: dec('30020') };

const journalLines = (rig: Rig) =>
  readFileSync(rig.journalPath, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('OrderManager: place', () => {
  it('places a resting limit order: submitted, accepted; state OPEN', async () => {
    rig = await makeRig();
    rig.manager.submit('s1', { kind: 'place', key: 'k1', order: resting });
    await rig.settle();
    expect(rig.events.map((e) => e.type)).toEqual(['submitted', 'accepted']);
    const accepted = ofType(rig.events, 'accepted')[0]!;
    expect(rig.manager.inFlight(accepted.clientOrderId)?.state).toBe('OPEN');
    const open = rig.engine.openOrders(rig.me, M).data;
    expect(open).toHaveLength(1);
    expect(open[0]!.clientOrderId).toBe(accepted.clientOrderId);
  });

  it('a taker order fills: fill events (once each), then closed', async () => {
    rig = await makeRig();
    rig.manager.submit('s1', { kind: 'place', key: 'k1', order: taker });
    await rig.settle();
    const types = rig.events.map((e) => e.type);
    expect(types[0]).toBe('submitted');
    expect(types.at(-1)).toBe('closed');
    const fills = ofType(rig.events, 'fill');
    expect(fills).toHaveLength(2);
    expect(fills.map((f) => f.rate.toFixed())).toEqual(['30010', '30020']);
    expect(fills.reduce((s, f) => s.add(f.quantity), dec(0)).toFixed()).toBe('1.5');
    expect(types.indexOf('closed')).toBeGreaterThan(types.lastIndexOf('fill'));
  });

  it('journals the order (fsynced) before the request leaves', async () => {
    rig = await makeRig();
    const seen: unknown[] = [];
    const inner = rig.gateway.placeOrder;
    rig.gateway.placeOrder = async (o) => {
      // What is on disk at the moment the gateway is called.
      seen.push(journalLines(rig).find((r) => r.t === 'order' && r.clientOrderId === o.clientOrderId));
      return inner(o);
    };
    rig.manager.submit('s1', { kind: 'place', key: 'k1', order: resting });
    await rig.settle();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ t: 'order', strategy: 's1', intentKey: 'k1', order: { limit: '29000', quantity: '0.1' } });
  });

  it('a re-emitted key replaces its previous wish: the old order is cancelled', async () => {
    rig = await makeRig();
    rig.manager.submit('s1', { kind: 'place', key: 'k1', order: resting });
    await rig.settle();
    rig.manager.submit('s1', { kind: 'place', key: 'k1', order: { ...resting, limit: dec('29100') } });
    await rig.settle();
    const open = rig.engine.openOrders(rig.me, M).data;
    expect(open.map((o) => o.limit?.toFixed())).toEqual(['29100']);
    expect(ofType(rig.events, 'closed')).toHaveLength(1);
  });

  it('a denied intent sends nothing and journals nothing', async () => {
    rig = await makeRig();
    rig.risk.deny = () => true;
    rig.manager.submit('s1', { kind: 'place', key: 'k1', order: resting });
    await rig.settle();
    expect(rig.events.map((e) => e.type)).toEqual(['denied']);
    expect(ofType(rig.events, 'denied')[0]!.reasons[0]!.code).toBe('TEST_DENIED');
    expect(rig.gateway.calls).not.toContain('placeOrder');
    expect(journalLines(rig)).toEqual([]);
  });

  it('an exchange refusal is a rejected event with its code, without retry', async () => {
    rig = await makeRig();
    rig.manager.submit('s1', { kind: 'place', key: 'k1', order: { ...resting, direction: 'SELL', limit: dec('31000'), quantity: dec('1000') } });
    await rig.settle(10_000);
    const rejected = ofType(rig.events, 'rejected');
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.code).toBe('INSUFFICIENT_FUNDS');
    // What was refused, from the request: the exchange made no order to name it.
    expect(rejected[0]).toMatchObject({ marketSymbol: M, direction: 'SELL' });
    expect(rig.gateway.calls.filter((c) => c === 'placeOrder')).toHaveLength(1);
    expect(rig.manager.inFlight(rejected[0]!.clientOrderId!)?.state).toBe('FAILED');
  });

  it('planning failures are rejected events (unknown market, cancel of an unknown order)', async () => {
    rig = await makeRig();
    rig.manager.submit('s1', { kind: 'place', key: 'k1', order: { ...resting, marketSymbol: 'NOPE-USD' } });
    rig.manager.submit('s1', { kind: 'cancel', key: 'k2', orderId: 'not-ours' });
    await rig.settle();
    expect(ofType(rig.events, 'rejected').map((e) => e.code)).toEqual(['MARKET_DOES_NOT_EXIST', 'UNKNOWN_ORDER']);
  });
});

describe('OrderManager: retries, adoption, ambiguity', () => {
  it('retries a timeout before sending with the SAME clientOrderId, and places exactly one order', async () => {
    rig = await makeRig();
    rig.gateway.faults.push({ call: 'placeOrder', kind: 'timeoutBefore', times: 2 });
    rig.manager.submit('s1', { kind: 'place', key: 'k1', order: resting });
    await rig.settle(10_000);
    expect(rig.gateway.calls.filter((c) => c === 'placeOrder')).toHaveLength(3);
    const sent = journalLines(rig).filter((r) => r.t === 'sent');
    expect(new Set(sent.map((r) => r.id)).size).toBe(1);
    expect(sent.map((r) => r.attempt)).toEqual([1, 2, 3]);
    expect(rig.engine.openOrders(rig.me, M).data).toHaveLength(1);
    expect(rig.events.map((e) => e.type)).toEqual(['submitted', 'accepted']);
  });

  it('retries 503 and THROTTLED with the same id', async () => {
    rig = await makeRig();
    rig.gateway.faults.push({ call: 'placeOrder', kind: 'http503Before' }, { call: 'placeOrder', kind: 'throttled' });
    rig.manager.submit('s1', { kind: 'place', key: 'k1', order: resting });
    await rig.settle(20_000);
    expect(rig.gateway.calls.filter((c) => c === 'placeOrder')).toHaveLength(3);
    expect(rig.engine.openOrders(rig.me, M).data).toHaveLength(1);
  });

  it('a lost answer: the retry gets CLIENTORDERID_ALREADY_EXISTS and adopts the existing order (no duplicate)', async () => {
    rig = await makeRig();
    rig.gateway.faults.push({ call: 'placeOrder', kind: 'lostAnswer' });
    rig.manager.submit('s1', { kind: 'place', key: 'k1', order: resting });
    await rig.settle(10_000);
    const open = rig.engine.openOrders(rig.me, M).data;
    expect(open).toHaveLength(1);
    const accepted = ofType(rig.events, 'accepted');
    expect(accepted).toHaveLength(1);
    expect(accepted[0]!.order.id).toBe(open[0]!.id);
    expect(rig.manager.inFlight(accepted[0]!.clientOrderId)?.state).toBe('OPEN');
    expect(ofType(rig.events, 'rejected')).toEqual([]);
  });

  it('ALREADY_EXISTS without the stream: adoption fetches the order named in data.existingOrderId', async () => {
    rig = await makeRig();
    // Stream silent: the account store never hears of the order, so only REST can tell.
    await rig.gateway.streams.unsubscribe(['order', 'execution']);
    rig.gateway.faults.push({ call: 'placeOrder', kind: 'lostAnswer' });
    rig.manager.submit('s1', { kind: 'place', key: 'k1', order: resting });
    await rig.settle(10_000);
    expect(rig.gateway.calls).toContain('order');
    expect(ofType(rig.events, 'accepted')).toHaveLength(1);
    expect(rig.engine.openOrders(rig.me, M).data).toHaveLength(1);
  });

  it('ambiguous -> resolved: the answer is lost and retries cannot reach the exchange; a lookup finds the order', async () => {
    rig = await makeRig();
    await rig.gateway.streams.unsubscribe(['order', 'execution']);
    rig.gateway.faults.push({ call: 'placeOrder', kind: 'lostAnswer' }, { call: 'placeOrder', kind: 'timeoutBefore', times: 3 });
    rig.manager.submit('s1', { kind: 'place', key: 'k1', order: resting });
    await rig.settle(20_000);
    expect(rig.events.map((e) => e.type)).toEqual(['submitted', 'ambiguous', 'accepted']);
    expect(rig.engine.openOrders(rig.me, M).data).toHaveLength(1);
    expect(rig.manager.inFlight(ofType(rig.events, 'accepted')[0]!.clientOrderId)?.state).toBe('OPEN');
  });

  it('ambiguous -> lost: never reached the exchange; declared lost after the lookups', async () => {
    rig = await makeRig();
    rig.gateway.faults.push({ call: 'placeOrder', kind: 'timeoutBefore', times: 4 });
    rig.manager.submit('s1', { kind: 'place', key: 'k1', order: resting });
    await rig.settle(30_000);
    expect(rig.events.map((e) => e.type)).toEqual(['submitted', 'ambiguous', 'rejected']);
    const rejected = ofType(rig.events, 'rejected')[0]!;
    expect(rejected.code).toBe('LOST');
    expect(rig.manager.inFlight(rejected.clientOrderId!)?.state).toBe('LOST');
    expect(rig.engine.openOrders(rig.me, M).data).toHaveLength(0);
    expect(journalLines(rig).some((r) => r.t === 'lost' && r.id === rejected.clientOrderId)).toBe(true);
  });
});

describe('OrderManager: fills, cancels', () => {
  it('reports each execution once, however often it arrives', async () => {
    rig = await makeRig();
    const extra = new Subject<AccountEvent>();
    const real = rig.account;
    await rig.manager.close();
    rig.manager = new OrderManager({
      gateway: rig.gateway,
      risk: rig.risk,
      journal: Journal.open(`${rig.journalPath}.2`),
      clock: rig.clock,
      account: {
        changes$: merge(real.changes$, extra),
        openOrders: (m?: string) => real.openOrders(m),
        order: (id: string) => real.order(id),
        orderByClientOrderId: (id: string) => real.orderByClientOrderId(id),
        conditionalOrder: (id: string) => real.conditionalOrder(id),
        conditionalOrderByClientId: (id: string) => real.conditionalOrderByClientId(id),
      },
      marketStore: { bestBid: () => undefined, bestAsk: () => undefined },
      markets: (s) => rig.markets.get(s),
    });
    const events: string[] = [];
    rig.manager.events$.subscribe((e) => events.push(e.type));
    rig.manager.submit('s1', { kind: 'place', key: 'k1', order: taker });
    await rig.settle();
    const executions = real.executions();
    expect(executions).toHaveLength(2);
    extra.next({ kind: 'executions', executions });
    extra.next({ kind: 'executions', executions: [...executions].reverse() });
    await rig.settle();
    expect(events.filter((t) => t === 'fill')).toHaveLength(2);
    expect(events.filter((t) => t === 'closed')).toHaveLength(1);
  });

  it('cancel by target key, and cancelAll of a strategy (other strategies untouched)', async () => {
    rig = await makeRig();
    rig.manager.submit('a', { kind: 'place', key: 'k1', order: resting });
    rig.manager.submit('a', { kind: 'place', key: 'k2', order: { ...resting, limit: dec('28000') } });
    rig.manager.submit('a', { kind: 'place', key: 'k3', order: { ...resting, limit: dec('27000') } });
    rig.manager.submit('b', { kind: 'place', key: 'k1', order: { ...resting, limit: dec('26000') } });
    await rig.settle();
    expect(rig.engine.openOrders(rig.me, M).data).toHaveLength(4);
    rig.manager.submit('a', { kind: 'cancel', key: 'c', targetKey: 'k1' });
    await rig.settle();
    expect(rig.engine.openOrders(rig.me, M).data.map((o) => o.limit!.toFixed()).sort()).toEqual(['26000', '27000', '28000']);
    const batchesBefore = rig.gateway.calls.filter((c) => c === 'batch').length;
    rig.manager.submit('a', { kind: 'cancelAll', key: 'all' });
    await rig.settle();
    expect(rig.engine.openOrders(rig.me, M).data.map((o) => o.limit!.toFixed())).toEqual(['26000']);
    // Two orders: one POST /batch of DELETEs rather than two requests.
    expect(rig.gateway.calls.filter((c) => c === 'batch').length).toBe(batchesBefore + 1);
    await rig.manager.cancelAll();
    expect(rig.engine.openOrders(rig.me, M).data).toHaveLength(0);
  });

  it('a cancel asked for before the order is acknowledged is sent once it is', async () => {
    rig = await makeRig();
    rig.gateway.faults.push({ call: 'placeOrder', kind: 'timeoutBefore' });
    rig.manager.submit('a', { kind: 'place', key: 'k1', order: resting });
    await rig.clock.advance(0);
    rig.manager.submit('a', { kind: 'cancel', key: 'c', targetKey: 'k1' });
    await rig.settle(5_000);
    expect(rig.engine.openOrders(rig.me, M).data).toHaveLength(0);
    expect(rig.events.map((e) => e.type)).toEqual(['submitted', 'accepted', 'closed']);
  });

  it('counts open orders with in-flight placements, and reserves their funds until acknowledged', async () => {
    rig = await makeRig();
    rig.gateway.faults.push({ call: 'placeOrder', kind: 'timeoutBefore' });
    rig.manager.submit('a', { kind: 'place', key: 'k1', order: resting });
    expect(rig.manager.openOrderCount()).toBe(1);
    expect(rig.manager.inFlightReserved('USD').toFixed()).toBe('2900');
    expect(rig.manager.inFlightReserved('BTC').toFixed()).toBe('0');
    await rig.settle(5_000);
    expect(rig.manager.openOrderCount()).toBe(1);
    expect(rig.manager.inFlightReserved('USD').toFixed()).toBe('0');
  });

  it('lists its live orders for the risk engine: in flight, then resting, with what each can still trade', async () => {
    rig = await makeRig();
    rig.gateway.faults.push({ call: 'placeOrder', kind: 'timeoutBefore' });
    rig.manager.submit('a', { kind: 'place', key: 'k1', order: resting });
    const pick = () => rig!.manager.pendingOrders().map((p) => ({ strategy: p.strategy, direction: p.direction, quantity: p.quantity?.toFixed(), limit: p.limit?.toFixed(), unacknowledged: p.unacknowledged }));
    expect(pick()).toEqual([{ strategy: 'a', direction: 'BUY', quantity: resting.quantity!.toFixed(), limit: resting.limit!.toFixed(), unacknowledged: true }]);
    await rig.settle(5_000);
    expect(pick()).toEqual([{ strategy: 'a', direction: 'BUY', quantity: resting.quantity!.toFixed(), limit: resting.limit!.toFixed(), unacknowledged: false }]);
  });

  it('REST fallbacks: an order that vanished from a snapshot is fetched, its missed fills come from GET /executions', async () => {
    rig = await makeRig();
    rig.manager.submit('a', { kind: 'place', key: 'k1', order: { ...resting, limit: dec('29995') } });
    await rig.settle();
    // The private streams go quiet; meanwhile the order fills completely.
    await rig.gateway.streams.unsubscribe(['order', 'execution']);
    rig.engine.placeOrder(rig.lp, { marketSymbol: M, direction: 'SELL', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.1'), limit: dec('29995') });
    await rig.settle();
    expect(ofType(rig.events, 'fill')).toEqual([]);
    // The account resyncs: the snapshot no longer lists the order.
    rig.account.resetOpenOrders(rig.engine.openOrders(rig.me).data);
    await rig.settle(5_000);
    expect(rig.gateway.calls).toContain('order');
    expect(ofType(rig.events, 'fill').map((f) => f.quantity.toFixed())).toEqual(['0.1']);
    expect(rig.events.slice(-2).map((e) => e.type)).toEqual(['fill', 'closed']);
  });

  it('counts intents and events in the metrics registry; a second manager on the same registry reuses the series', async () => {
    const metrics = createMetrics();
    rig = await makeRig({ deps: { metrics } });
    rig.manager.submit('a', { kind: 'place', key: 'k1', order: resting });
    await rig.settle();
    await rig.restart({ metrics });
    const text = await metrics.text();
    expect(text).toContain('rexbot_order_manager_total{what="intent",kind="place"} 1');
    expect(text).toContain('rexbot_order_manager_total{what="event",kind="accepted"} 1');
  });

  it('submit never throws, even when the manager is closed', async () => {
    rig = await makeRig();
    await rig.manager.close();
    expect(() => rig.manager.submit('a', { kind: 'place', key: 'k1', order: resting })).not.toThrow();
    await rig.settle();
    expect(rig.gateway.calls).not.toContain('placeOrder');
  });
});
