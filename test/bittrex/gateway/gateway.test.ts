/**
 * The Bittrex gateway against the simulator server over loopback: every port method answers what the engine
 * holds (snapshots with the engine's sequence), failures keep the service's codes, stream subscriptions report
 * each refused channel with its ErrorCode, and close() releases both clients.
 */
import { randomUUID } from 'node:crypto';
import { firstValueFrom, filter } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBittrexGateway, GatewaySubscriptionError, type BittrexGateway } from '../../../src/bittrex/gateway.js';
import { HubSubscriptionError } from '../../../src/bittrex/hub/hub-errors.js';
import type { StreamMessage } from '../../../src/bittrex/hub/messages.js';
import { createThrottler } from '../../../src/bittrex/rest/throttler.js';
import { systemClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { ApiError } from '../../../src/core/errors.js';
import { createFundedAccount } from '../../../src/server/control/control-api.js';
import { startSimServer, type SimServer } from '../../../src/server/sim-server.js';
import { createSimEngine, type SimEngine } from '../../../src/sim/engine.js';

let engine: SimEngine;
let sim: SimServer;
let me: { accountId: string; apiKey: string; apiSecret: string };
let maker: { accountId: string };
let gateway: BittrexGateway;

const limit = (direction: 'BUY' | 'SELL', rate: string, quantity: string, clientOrderId?: string) => ({
  marketSymbol: 'BTC-USD', direction, type: 'LIMIT' as const, timeInForce: 'GOOD_TIL_CANCELLED' as const,
  quantity: dec(quantity), limit: dec(rate), ...(clientOrderId ? { clientOrderId } : {}),
});

beforeAll(async () => {
  engine = createSimEngine({ clock: systemClock });
  sim = await startSimServer({ engine });
  me = createFundedAccount(engine, { balances: { USD: '100000', BTC: '2' } });
  maker = createFundedAccount(engine, { balances: { USD: '100000', BTC: '2' } });
  engine.placeOrder(maker.accountId, limit('SELL', '30000', '0.5'));
  engine.placeOrder(maker.accountId, limit('BUY', '29000', '0.5'));
  gateway = createBittrexGateway({
    restUrl: sim.restUrl,
    hubUrl: sim.hubUrl,
    transport: 'classic',
    credentials: { apiKey: me.apiKey, apiSecret: me.apiSecret },
    throttler: createThrottler({ callsPerMinute: 100_000 }),
  });
});

afterAll(async () => {
  await gateway.close();
  await sim.close();
  engine.dispose();
});

describe('REST methods', () => {
  it('reference data and public snapshots carry the engine sequence', async () => {
    expect(gateway.venue).toBe('bittrex');
    expect((await gateway.markets()).map((m) => m.symbol)).toContain('BTC-USD');
    expect((await gateway.currencies()).map((c) => c.symbol)).toContain('BTC');
    const book = await gateway.orderBook('BTC-USD', 25);
    const truth = engine.orderBook('BTC-USD', 25);
    expect(book.sequence).toBe(truth.sequence);
    expect(book.data.ask[0]!.rate.toString()).toBe('30000');
    expect(book.data.bid[0]!.rate.toString()).toBe('29000');
    expect((await gateway.tickers()).sequence).toBe(engine.tickers().sequence);
    expect((await gateway.trades('BTC-USD')).sequence).toBe(engine.trades('BTC-USD').sequence);
  });

  it('places, reads, lists and cancels orders; the account snapshots follow', async () => {
    const clientOrderId = randomUUID();
    const placed = await gateway.placeOrder(limit('BUY', '28000', '0.01', clientOrderId));
    expect(placed).toMatchObject({ status: 'OPEN', clientOrderId });
    const open = await gateway.openOrders('BTC-USD');
    expect(open.data.map((o) => o.id)).toContain(placed.id);
    expect(open.sequence).toBe(engine.openOrders(me.accountId).sequence);
    expect((await gateway.order(placed.id)).id).toBe(placed.id);
    const balances = await gateway.balances();
    expect(balances.sequence).toBe(engine.funds.balances(me.accountId).sequence);
    const usd = (list: readonly { currencySymbol: string; available: { toString(): string } }[]) =>
      list.find((b) => b.currencySymbol === 'USD')!.available.toString();
    // 100,000 less 280 for the bid and the commission reserved with it.
    expect(usd(balances.data)).toBe(usd(engine.funds.balances(me.accountId).data));
    expect(Number(usd(balances.data))).toBeLessThan(99_720);

    const cancelled = await gateway.cancelOrder(placed.id);
    expect(cancelled.status).toBe('CLOSED');
    expect((await gateway.closedOrders({ marketSymbol: 'BTC-USD', pageSize: 10 })).map((o) => o.id)).toContain(placed.id);

    // The same clientOrderId again is refused with the service's code: what the order manager adopts on.
    const again = await gateway.placeOrder(limit('BUY', '28000', '0.01', clientOrderId)).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ApiError);
    expect((again as ApiError).code).toBe('CLIENTORDERID_ALREADY_EXISTS');
  });

  it('batches and cancels all', async () => {
    const results = await gateway.batch([
      { resource: 'ORDER', operation: 'POST', payload: limit('BUY', '27000', '0.01') },
      { resource: 'ORDER', operation: 'POST', payload: limit('BUY', '27001', '0.01') },
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 201]);
    const cancelled = await gateway.cancelAllOrders('BTC-USD');
    expect(cancelled).toHaveLength(2);
    expect((await gateway.openOrders()).data).toEqual([]);
  });

  it('fills show in executions and the last execution id', async () => {
    const order = await gateway.placeOrder({ ...limit('BUY', '30000', '0.01'), timeInForce: 'IMMEDIATE_OR_CANCEL' });
    expect(order.fillQuantity.toString()).toBe('0.01');
    const last = await gateway.lastExecution();
    expect(last.sequence).toBe(engine.lastExecution(me.accountId).sequence);
    const executions = await gateway.executions({ pageSize: 5 });
    expect(executions[0]!.id).toBe(last.data.lastId);
    expect(executions[0]!.orderId).toBe(order.id);
  });

  it('places, lists, reads and cancels conditional orders', async () => {
    const clientConditionalOrderId = randomUUID();
    const placed = await gateway.placeConditionalOrder({
      marketSymbol: 'BTC-USD', operand: 'LTE', triggerPrice: dec('20000'), clientConditionalOrderId,
      orderToCreate: { ...limit('SELL', '19000', '0.01'), timeInForce: 'IMMEDIATE_OR_CANCEL' },
    });
    expect(placed).toMatchObject({ status: 'OPEN', clientConditionalOrderId });
    const open = await gateway.openConditionalOrders('BTC-USD');
    expect(open.data.map((o) => o.id)).toEqual([placed.id]);
    expect(open.sequence).toBe(engine.openConditionalOrders(me.accountId).sequence);
    expect((await gateway.conditionalOrder(placed.id)).id).toBe(placed.id);
    expect((await gateway.cancelConditionalOrder(placed.id)).status).toBe('CANCELLED');
    expect((await gateway.closedConditionalOrders({ pageSize: 10 })).map((o) => o.id)).toContain(placed.id);
  });
});

describe('streams', () => {
  it('subscribes, delivers decoded messages without heartbeats, and names every refused channel', async () => {
    const seen: StreamMessage[] = [];
    gateway.streams.messages$.subscribe((m) => seen.push(m));
    const err = await gateway.streams
      .subscribe(['orderbook_BTC-USD_25', 'orderbook_NOPE-USD_25', 'balance', 'not_a_channel'])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewaySubscriptionError);
    expect(err).toBeInstanceOf(HubSubscriptionError); // what the in-process gateway throws, so one catch serves both
    const failures = (err as GatewaySubscriptionError).failures.map((f) => [f.channel, f.errorCode]);
    expect(failures).toEqual([
      ['orderbook_NOPE-USD_25', 'MARKET_DOES_NOT_EXIST'],
      ['not_a_channel', 'INVALID_CHANNEL'],
    ]);
    expect((err as Error).message).toContain('orderbook_NOPE-USD_25 (MARKET_DOES_NOT_EXIST)');
    expect(await firstValueFrom(gateway.streams.connectionEpoch$.pipe(filter((e) => e > 0)))).toBe(1);

    // The accepted channels are live.
    engine.placeOrder(maker.accountId, limit('SELL', '31000', '0.1'));
    await gateway.placeOrder(limit('BUY', '25000', '0.01'));
    await vi.waitFor(() => {
      expect(seen.some((m) => m.name === 'orderBook' && m.data.sequence === engine.orderBook('BTC-USD', 25).sequence)).toBe(true);
      expect(seen.some((m) => m.name === 'balance' && m.data.sequence === engine.funds.balances(me.accountId).sequence)).toBe(true);
    });
    expect(seen.some((m) => m.name === 'heartbeat')).toBe(false);
    await gateway.streams.unsubscribe(['balance']);
    expect(sim.hub.connections()[0]!.subscriptions).not.toContain('balance');
  });

  it('refuses private channels without credentials, with the hub code', async () => {
    const anon = createBittrexGateway({ restUrl: sim.restUrl, hubUrl: sim.coreHubUrl, transport: 'core' });
    try {
      const err = await anon.streams.subscribe(['order', 'trade_BTC-USD']).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GatewaySubscriptionError);
      expect((err as GatewaySubscriptionError).failureOf('order')?.errorCode).toBe('UNAUTHORIZED_USER');
      expect((err as GatewaySubscriptionError).failureOf('trade_BTC-USD')).toBeUndefined();
      await expect(anon.balances()).rejects.toMatchObject({ code: 'VALIDATION' });
    } finally {
      await anon.close();
    }
    expect(anon.hub.stats.connectionEpoch).toBe(1);
  });

  it('close() stops the hub and the REST client, and may be called twice', async () => {
    const g = createBittrexGateway({ restUrl: sim.restUrl, hubUrl: sim.hubUrl, transport: 'classic' });
    await g.streams.subscribe(['trade_BTC-USD']);
    const states: string[] = [];
    g.hub.status$.subscribe((s) => states.push(s.state));
    await g.close();
    await g.close();
    expect(states.at(-1)).toBe('stopped');
    await expect(g.streams.subscribe(['trade_BTC-USD'])).rejects.toThrow(/closed/);
  });
});
