/**
 * The ExchangeGateway conformance suite (ARCHITECTURE principle 7): one set of tests every gateway must pass, so
 * live trading (network gateway), paper trading (network gateway to the simulator server) and backtests
 * (in-process gateway) cannot drift apart. The simulator engine behind each target is the truth: every answer
 * must equal what the engine holds for the account (field for field, with the engine's stream sequences), every
 * refusal must be an ApiError with the status, code and data the engine gives (the seed's codes), and streams
 * must deliver, for this account only, the messages of what it does, continuing from the snapshots' sequences.
 *
 * A venue that cannot express all of v3 (the legacy v1.1 interface) passes the table of what it lacks
 * (src/model/venue-features.ts): each case needing a lacked capability is reported as skipped with the capability
 * and the reason in its title, and comparisons leave out the fields a lacked capability stands for.
 *
 * Run it from a spec file with a factory that builds a fresh target per test:
 *
 * @example
 * describeGatewayConformance('in-process', async () => {
 *   const engine = createConformanceEngine();
 *   const accountId = engine.createParticipant();
 *   const gateway = createSimGateway(engine, accountId);
 *   return { gateway, engine, accountId, close: async () => { await gateway.close(); engine.dispose(); } };
 * });
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { ValidationError } from '../../src/core/errors.js';
import type { BatchResponse, Order } from '../../src/model/order.js';
import { seqKey } from '../../src/sim/sequences.js';
import type { VenueLacks } from '../../src/model/venue-features.js';
import { describeCapabilityConformance } from './capability-conformance.js';
import { Capabilities } from './conformance-capabilities.js';
import { eventually, expectSameRefusal, limit, M, seedMarket, type FreshTarget, type GatewayFactory, type GatewayUnderTest } from './conformance-helpers.js';
import { describeStreamConformance } from './stream-conformance.js';

export { createConformanceEngine, type GatewayFactory, type GatewayUnderTest } from './conformance-helpers.js';

/**
 * Register the conformance tests of the gateway `factory` builds, under `describe(name)`; `lacks` is what the
 * venue cannot express (the gateway must declare the same as its `lacks`), nothing for a full v3 venue.
 */
export function describeGatewayConformance(name: string, factory: GatewayFactory, lacks: VenueLacks = {}): void {
  const caps = new Capabilities(lacks);
  const expectSame = (actual: unknown, truth: unknown): void => caps.same(actual, truth);
  describe(`ExchangeGateway conformance: ${name}`, () => {
    let open: GatewayUnderTest[] = [];
    afterEach(async () => {
      const closing = open;
      open = [];
      for (const t of closing) await t.close();
    });
    /** A fresh target with the suite's funding and book; `maker` is the other account on the book. */
    const fresh = async (): Promise<FreshTarget> => {
      const t = await factory();
      open.push(t);
      const maker = seedMarket(t);
      return { ...t, maker, g: t.gateway, me: t.accountId };
    };

    describe('reference data and public snapshots', () => {
      it('markets and currencies are the engine\'s', async () => {
        const { g, engine } = await fresh();
        expect(typeof g.venue).toBe('string');
        expectSame(await g.markets(), engine.markets());
        expectSame(await g.currencies(), engine.currencies());
      });

      it('order books at every depth, tickers and trades carry the data and Sequence of their stream', async () => {
        const { g, engine, me } = await fresh();
        await g.placeOrder(limit('BUY', '30000', '0.1', { timeInForce: 'IMMEDIATE_OR_CANCEL' })); // one trade
        for (const depth of [1, 25, 500] as const) expectSame(await g.orderBook(M, depth), engine.orderBook(M, depth));
        expectSame(await g.tickers(), engine.tickers());
        const trades = await g.trades(M);
        expectSame(trades, engine.trades(M));
        expect(trades.data).toHaveLength(1);
        expect(trades.data[0]!.rate.toFixed()).toBe('30000');
        expect(me).toBeTruthy();
      });
    });

    describe('account snapshots', () => {
      it('balances, open orders and open conditional orders are the engine\'s, with their sequences', async () => {
        const { g, engine, me } = await fresh();
        expectSame(await g.balances(), engine.funds.balances(me));
        const placed = await g.placeOrder(limit('BUY', '28000', '0.1'));
        const balances = await g.balances();
        expectSame(balances, engine.funds.balances(me));
        // 2,800 and its commission reserved: available is below total.
        const usd = balances.data.find((b) => b.currencySymbol === 'USD')!;
        expect(usd.available.lt(usd.total)).toBe(true);
        expectSame(await g.openOrders(), engine.openOrders(me));
        expectSame(await g.openOrders(M), engine.openOrders(me, M));
        expect((await g.openOrders(M)).data.map((o) => o.id)).toEqual([placed.id]);
        expectSame(await g.order(placed.id), engine.getOrder(me, placed.id));
        expectSame(await g.openConditionalOrders(), engine.openConditionalOrders(me));
      });
    });

    describe('placing and cancelling orders', () => {
      it('a GOOD_TIL_CANCELLED limit order rests OPEN with its clientOrderId', async () => {
        const { g, engine, me } = await fresh();
        const clientOrderId = randomUUID();
        const placed = await g.placeOrder(limit('BUY', '28000', '0.1', { clientOrderId }));
        expect(placed).toMatchObject({ status: 'OPEN', clientOrderId, marketSymbol: M, direction: 'BUY', type: 'LIMIT' });
        expect(placed.fillQuantity.isZero()).toBe(true);
        expectSame(placed, engine.getOrder(me, placed.id));
      });

      caps.it(['marketOrders'], 'a market order fills at once and shows in executions and the last execution id', async () => {
        const { g, engine, me } = await fresh();
        const order = await g.placeOrder({ marketSymbol: M, direction: 'BUY', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.6') });
        expect(order.status).toBe('CLOSED');
        expect(order.fillQuantity.toFixed()).toBe('0.6');
        // 0.5 at 30,000 then 0.1 at 30,100: the book is consumed best price first.
        expect(order.proceeds.toFixed()).toBe('18010');
        expectSame(order, engine.getOrder(me, order.id));
        const executions = await g.executions();
        expectSame(executions, engine.executions(me));
        expect(executions.map((e) => e.orderId)).toEqual([order.id, order.id]);
        const last = await g.lastExecution();
        expectSame(last, engine.lastExecution(me));
        expect(executions.map((e) => e.id)).toContain(last.data.lastId);
        expectSame(await g.executions({ marketSymbol: M, pageSize: 1 }), engine.executions(me, { marketSymbol: M, pageSize: 1 }));
      });

      caps.it(['ceilingOrders'], 'ceiling orders spend (or receive) a quote amount: CEILING_MARKET and CEILING_LIMIT', async () => {
        const { g, engine, me } = await fresh();
        const spend = await g.placeOrder({ marketSymbol: M, direction: 'BUY', type: 'CEILING_MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', ceiling: dec('3000') });
        expect(spend.status).toBe('CLOSED');
        expect(spend.fillQuantity.gt(0)).toBe(true);
        expectSame(spend, engine.getOrder(me, spend.id));
        const capped = await g.placeOrder({ marketSymbol: M, direction: 'BUY', type: 'CEILING_LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', ceiling: dec('3000'), limit: dec('30000') });
        expectSame(capped, engine.getOrder(me, capped.id));
        expect(capped.proceeds.plus(capped.commission).lte(dec('3000'))).toBe(true);
      });

      it('an IMMEDIATE_OR_CANCEL limit that cannot fill closes unfilled', async () => {
        const { g, engine, me } = await fresh();
        const ioc = await g.placeOrder(limit('BUY', '29500', '0.1', { timeInForce: 'IMMEDIATE_OR_CANCEL' }));
        expect(ioc).toMatchObject({ status: 'CLOSED' });
        expect(ioc.fillQuantity.isZero()).toBe(true);
        expectSame(ioc, engine.getOrder(me, ioc.id));
      });

      caps.it(['fillOrKill'], 'a FILL_OR_KILL limit that cannot fill closes or is refused as the engine says', async () => {
        const { g, engine, me } = await fresh();
        const fok = limit('BUY', '30000', '0.9', { timeInForce: 'FILL_OR_KILL' }); // only 0.5 at or below 30,000
        const placed = await g.placeOrder(fok).then(
          (o) => ({ ok: true as const, o }),
          (e: unknown) => ({ ok: false as const, e }),
        );
        if (placed.ok) {
          expect(placed.o.status).toBe('CLOSED');
          expect(placed.o.fillQuantity.isZero()).toBe(true);
          expectSame(placed.o, engine.getOrder(me, placed.o.id));
        } else {
          await expectSameRefusal(Promise.reject(placed.e), () => engine.placeOrder(me, fok));
          expect((placed.e as { code: string }).code).toBe('FILL_OR_KILL');
        }
      });

      caps.it(['exchangeClientOrderId'], 'a repeated clientOrderId is CLIENTORDERID_ALREADY_EXISTS naming the existing order', async () => {
        const { g, engine, me } = await fresh();
        const clientOrderId = randomUUID();
        const first = await g.placeOrder(limit('BUY', '28000', '0.1', { clientOrderId }));
        const again = limit('BUY', '28001', '0.2', { clientOrderId });
        const err = await expectSameRefusal(g.placeOrder(again), () => engine.placeOrder(me, again));
        expect(err.code).toBe('CLIENTORDERID_ALREADY_EXISTS');
        expect(Object.values(err.data ?? {})).toContain(first.id);
        expect(err.request).toEqual({ method: 'POST', path: '/v3/orders' });
        expect((await g.openOrders()).data.map((o) => o.id)).toEqual([first.id]);
      });

      it('cancels an order (CLOSED with closedAt), lists it as closed, and refuses a second cancel with ORDER_NOT_OPEN', async () => {
        const { g, engine, me } = await fresh();
        const placed = await g.placeOrder(limit('BUY', '28000', '0.1'));
        const cancelled = await g.cancelOrder(placed.id);
        expect(cancelled).toMatchObject({ id: placed.id, status: 'CLOSED' });
        expect(cancelled.closedAt).toBeInstanceOf(Date);
        expectSame(cancelled, engine.getOrder(me, placed.id));
        expectSame(await g.closedOrders(), engine.closedOrders(me));
        expectSame(await g.closedOrders({ marketSymbol: M, pageSize: 1 }), engine.closedOrders(me, { marketSymbol: M, pageSize: 1 }));
        const err = await expectSameRefusal(g.cancelOrder(placed.id), () => engine.cancelOrder(me, placed.id));
        expect(err.code).toBe('ORDER_NOT_OPEN');
      });

      caps.it(['orderHistoryPaging', 'exchangeExecutions'], 'closed orders and executions page with tokens and date ranges as the engine does', async () => {
        const { g, engine, me } = await fresh();
        const ids: string[] = [];
        for (const rate of ['27000', '27100', '27200', '27300']) ids.push((await g.cancelOrder((await g.placeOrder(limit('BUY', rate, '0.1'))).id)).id);
        for (let i = 0; i < 3; i++) await g.placeOrder(limit('BUY', '30000', '0.01', { timeInForce: 'IMMEDIATE_OR_CANCEL' }));
        const first = await g.closedOrders({ pageSize: 2 });
        expectSame(first, engine.closedOrders(me, { pageSize: 2 }));
        const next = { pageSize: 2, nextPageToken: first.at(-1)!.id };
        expectSame(await g.closedOrders(next), engine.closedOrders(me, next));
        const previous = { previousPageToken: ids[0]! };
        expectSame(await g.closedOrders(previous), engine.closedOrders(me, previous));
        // Sub-second precision in a date bound: the service ignores it, whatever the gateway.
        const oldest = engine.closedOrders(me).at(-1)!.closedAt!;
        const range = { startDate: new Date(oldest.getTime() + 999), endDate: new Date(Date.now() + 60_000) };
        expectSame(await g.closedOrders(range), engine.closedOrders(me, range));
        const execs = await g.executions({ pageSize: 2 });
        expectSame(execs, engine.executions(me, { pageSize: 2 }));
        const after = { nextPageToken: execs[0]!.id };
        expectSame(await g.executions(after), engine.executions(me, after));
        const bad = await expectSameRefusal(g.closedOrders({ nextPageToken: randomUUID() }), () => engine.closedOrders(me, { nextPageToken: randomUUID() }));
        expect(bad.code).toBe('INVALID_NEXT_PAGE_TOKEN');
      });

      it('cancels all open orders, of one market or of every market', async () => {
        const { g, engine, me } = await fresh();
        const a = await g.placeOrder(limit('BUY', '28000', '0.1'));
        const b = await g.placeOrder(limit('SELL', '31000', '0.1'));
        const eth = await g.placeOrder({ ...limit('BUY', '1000', '0.1'), marketSymbol: 'ETH-USD' });
        const some = await g.cancelAllOrders(M);
        expect(some.map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
        for (const r of some) expect(r.result?.status).toBe('CLOSED');
        expectSame((await g.openOrders()).data, engine.openOrders(me).data);
        expect((await g.openOrders()).data.map((o) => o.id)).toEqual([eth.id]);
        const rest = await g.cancelAllOrders();
        expect(rest.map((r) => r.id)).toEqual([eth.id]);
        expect(rest[0]!.statusCode).toBe(some[0]!.statusCode);
        expect((await g.openOrders()).data).toEqual([]);
      });

      it('a batch runs in order and answers each operation as the single request would', async () => {
        const { g, engine, me } = await fresh();
        const results = await g.batch([
          { resource: 'ORDER', operation: 'POST', payload: limit('BUY', '28000', '0.1') },
          { resource: 'ORDER', operation: 'POST', payload: limit('BUY', '28000', '100') },
          { resource: 'ORDER', operation: 'POST', payload: limit('SELL', '31000', '0.1') },
        ]);
        expect(results.map((r) => [r.ok, r.status])).toEqual([[true, 201], [false, results[1]!.status], [true, 201]]);
        const failed = results[1] as Extract<BatchResponse, { ok: false }>;
        const single = await g.placeOrder(limit('BUY', '28000', '100')).catch((e: { status: number; code: string }) => e);
        expect({ status: failed.status, code: failed.payload.code }).toEqual({ status: (single as { status: number }).status, code: 'INSUFFICIENT_FUNDS' });
        const [bid, , ask] = results.map((r) => (r.ok ? r.payload : undefined)) as [Order, undefined, Order];
        expectSame(bid, engine.getOrder(me, bid.id));
        const unknown = randomUUID();
        const cancels = await g.batch([
          { resource: 'ORDER', operation: 'DELETE', payload: { id: bid.id } },
          { resource: 'ORDER', operation: 'DELETE', payload: { id: unknown } },
        ]);
        expect(cancels[0]).toMatchObject({ ok: true, status: 200, payload: { id: bid.id, status: 'CLOSED' } });
        const lone = await expectSameRefusal(g.cancelOrder(unknown), () => engine.cancelOrder(me, unknown));
        expect(cancels[1]).toMatchObject({ ok: false, status: lone.status, payload: { code: lone.code } });
        expect((await g.openOrders()).data.map((o) => o.id)).toEqual([ask.id]);
      });
    });

    describe('refusals', () => {
      it('carry the service\'s codes as ApiErrors with status and data', async () => {
        const { g, engine, me } = await fresh();
        const cases: [string, ReturnType<typeof limit>][] = [
          ['INSUFFICIENT_FUNDS', limit('BUY', '28000', '100')],
          ['MARKET_DOES_NOT_EXIST', { ...limit('BUY', '1', '1'), marketSymbol: 'NOPE-USD' }],
          ['MIN_TRADE_REQUIREMENT_NOT_MET', limit('BUY', '28000', '0.00001')],
          ['RATE_PRECISION_NOT_ALLOWED', limit('BUY', '28000.0001', '0.1')],
          ['DUST_TRADE_DISALLOWED_MIN_VALUE', limit('BUY', '28000', '0.0001')],
        ];
        for (const [code, order] of cases) {
          const err = await expectSameRefusal(g.placeOrder(order), () => engine.placeOrder(me, order));
          expect(err.code, JSON.stringify(order)).toBe(code);
        }
        const nope = await expectSameRefusal(g.orderBook('NOPE-USD', 25), () => engine.orderBook('NOPE-USD', 25));
        expect(nope.code).toBe('MARKET_DOES_NOT_EXIST');
        const unknown = randomUUID();
        await expectSameRefusal(g.order(unknown), () => engine.getOrder(me, unknown));
        await expectSameRefusal(g.cancelOrder(unknown), () => engine.cancelOrder(me, unknown));
        expect((await g.openOrders()).data).toEqual([]);
      });

      caps.it(['postOnly'], 'a post-only limit that would take is POST_ONLY', async () => {
        const { g, engine, me } = await fresh();
        const order = limit('BUY', '30000', '0.1', { timeInForce: 'POST_ONLY_GOOD_TIL_CANCELLED' });
        const err = await expectSameRefusal(g.placeOrder(order), () => engine.placeOrder(me, order));
        expect(err.code).toBe('POST_ONLY');
        expect((await g.openOrders()).data).toEqual([]);
      });

      it('another account\'s order is as unknown as a made-up id', async () => {
        const { g, engine, me, maker } = await fresh();
        const theirs = engine.placeOrder(maker, limit('BUY', '27000', '0.1'));
        await expectSameRefusal(g.order(theirs.id), () => engine.getOrder(me, theirs.id));
        await expectSameRefusal(g.cancelOrder(theirs.id), () => engine.cancelOrder(me, theirs.id));
        expect(engine.getOrder(maker, theirs.id).status).toBe('OPEN');
      });

      it('a request breaking the seed\'s shape rules is refused before it reaches the exchange', async () => {
        const { g, engine, me } = await fresh();
        const before = engine.sequence(seqKey.account('order', me));
        const bad = [
          { marketSymbol: M, direction: 'BUY', type: 'MARKET', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.1') },
          { marketSymbol: M, direction: 'BUY', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.1'), limit: dec('30000') },
          { marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', limit: dec('30000') },
        ] as const;
        for (const order of bad) {
          const err = await g.placeOrder(order).catch((e: unknown) => e);
          expect(err, JSON.stringify(order)).toBeInstanceOf(ValidationError);
          const inBatch = await g.batch([{ resource: 'ORDER', operation: 'POST', payload: order }]).catch((e: unknown) => e);
          expect(inBatch).toBeInstanceOf(ValidationError);
        }
        const noTrigger = await g.placeConditionalOrder({ marketSymbol: M, operand: 'LTE' }).catch((e: unknown) => e);
        expect(noTrigger).toBeInstanceOf(ValidationError);
        expect(engine.sequence(seqKey.account('order', me))).toBe(before);
        expect((await g.openOrders()).data).toEqual([]);
      });
    });

    describe('conditional orders', () => {
      caps.it(['conditionalOrders'], 'an unknown conditional order id is refused as the engine refuses it', async () => {
        const { g, engine, me } = await fresh();
        const unknown = randomUUID();
        await expectSameRefusal(g.conditionalOrder(unknown), () => engine.getConditionalOrder(me, unknown));
        await expectSameRefusal(g.cancelConditionalOrder(unknown), () => engine.cancelConditionalOrder(me, unknown));
      });

      caps.it(['conditionalOrders'], 'places, reads, lists and cancels; a repeated clientConditionalOrderId is refused as the engine does', async () => {
        const { g, engine, me } = await fresh();
        const clientConditionalOrderId = randomUUID();
        const stop = {
          marketSymbol: M, operand: 'LTE' as const, triggerPrice: dec('20000'), clientConditionalOrderId,
          orderToCreate: limit('SELL', '19000', '0.1', { timeInForce: 'IMMEDIATE_OR_CANCEL' }),
        };
        const placed = await g.placeConditionalOrder(stop);
        expect(placed).toMatchObject({ status: 'OPEN', clientConditionalOrderId, operand: 'LTE' });
        expectSame(placed, engine.getConditionalOrder(me, placed.id));
        expectSame(await g.openConditionalOrders(M), engine.openConditionalOrders(me, M));
        expectSame(await g.conditionalOrder(placed.id), engine.getConditionalOrder(me, placed.id));
        await expectSameRefusal(g.placeConditionalOrder(stop), () => engine.createConditionalOrder(me, stop));
        const cancelled = await g.cancelConditionalOrder(placed.id);
        expect(cancelled.status).toBe('CANCELLED');
        expectSame(cancelled, engine.getConditionalOrder(me, placed.id));
        expectSame(await g.closedConditionalOrders(), engine.closedConditionalOrders(me));
        expectSame(await g.closedConditionalOrders({ marketSymbol: M, pageSize: 1 }), engine.closedConditionalOrders(me, { marketSymbol: M, pageSize: 1 }));
        expect((await g.openConditionalOrders()).data).toEqual([]);
      });

      caps.it(['conditionalOrders', 'marketOrders'], 'a trailing stop gets its operand and trigger from the trade price, as the engine computes them', async () => {
        const { g, engine, me } = await fresh();
        await g.placeOrder(limit('BUY', '30000', '0.1', { timeInForce: 'IMMEDIATE_OR_CANCEL' })); // last trade 30,000
        const trailing = await g.placeConditionalOrder({
          marketSymbol: M, operand: 'LTE', trailingStopPercent: dec('5'),
          orderToCreate: { marketSymbol: M, direction: 'SELL', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.1') },
        });
        expect(trailing).toMatchObject({ status: 'OPEN', operand: 'LTE' });
        expect(trailing.trailingStopPercent?.toFixed()).toBe('5');
        expectSame(trailing, engine.getConditionalOrder(me, trailing.id));
      });

      caps.it(['conditionalOrders', 'marketOrders'], 'an OCO pair links both ways, and a trade through the trigger creates the order and cancels the partner', async () => {
        const { g, engine, me } = await fresh();
        const takeProfit = await g.placeOrder(limit('SELL', '35000', '0.1'));
        const stop = await g.placeConditionalOrder({
          marketSymbol: M, operand: 'LTE', triggerPrice: dec('29000'),
          orderToCreate: { marketSymbol: M, direction: 'SELL', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.1') },
          orderToCancel: { type: 'ORDER', id: takeProfit.id },
        });
        expect(stop.orderToCancel).toEqual({ type: 'ORDER', id: takeProfit.id });
        expect((await g.order(takeProfit.id)).orderToCancel).toEqual({ type: 'CONDITIONAL_ORDER', id: stop.id });
        // A third account sells into the maker's 29,000 bid: the last trade price reaches the trigger.
        const taker = engine.createParticipant({ BTC: dec('1') });
        engine.placeOrder(taker, limit('SELL', '29000', '0.1', { timeInForce: 'IMMEDIATE_OR_CANCEL' }));
        await eventually(() => expect(engine.getConditionalOrder(me, stop.id).status).not.toBe('OPEN'));
        const done = await g.conditionalOrder(stop.id);
        expectSame(done, engine.getConditionalOrder(me, stop.id));
        expect(done.status).toBe('COMPLETED');
        const created = await g.order(done.createdOrderId!);
        expect(created).toMatchObject({ direction: 'SELL', type: 'MARKET', status: 'CLOSED' });
        expect((await g.order(takeProfit.id)).status).toBe('CLOSED');
        expectSame(await g.executions(), engine.executions(me));
      });
    });

    describeStreamConformance(fresh, caps);
    describeCapabilityConformance(fresh, caps);
  });
}
