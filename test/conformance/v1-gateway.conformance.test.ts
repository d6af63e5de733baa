/**
 * The v1.1 gateway against the shared ExchangeGateway conformance suite, over loopback to rexbot's simulator
 * server (HTTP /api/v1.1 and hub c2 over WebSocket), as the v3 network gateway runs it. The suite runs every case
 * v1.1 can express; the others show as skipped, naming the capability of V1_1_LACKS (the table the bot config's
 * refusal uses too) and why v1.1 lacks it.
 *
 * Then what only the v1.1 gateway does, which the shared suite cannot ask of every gateway: the clientOrderId it
 * keeps itself, executions derived from order fills, channels without a v1.1 form, recycling a stale connection.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createV1Gateway, type V1Gateway } from '../../src/bittrex/v1/gateway/v1-gateway.js';
import { createThrottler } from '../../src/bittrex/rest/throttler.js';
import { VirtualClock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import { ApiError } from '../../src/core/errors.js';
import { V1_1_LACKS } from '../../src/model/venue-features.js';
import { createFundedAccount } from '../../src/server/control/control-api.js';
import { startSimServer, type SimServer } from '../../src/server/sim-server.js';
import type { SimEngine } from '../../src/sim/engine.js';
import { createConformanceEngine, limit, M, seedMarket } from './conformance-helpers.js';
import { describeGatewayConformance } from './gateway-conformance.js';

/** A v1.1 gateway to a fresh simulator server; `streamClock` drives the stale-connection watch. */
async function start(streamClock?: VirtualClock): Promise<{ g: V1Gateway; engine: SimEngine; accountId: string; server: SimServer; close(): Promise<void> }> {
  const engine = createConformanceEngine();
  const server = await startSimServer({ engine });
  const { accountId, apiKey, apiSecret } = createFundedAccount(engine, {});
  const g = createV1Gateway({
    restUrl: server.restV1Url,
    hubUrl: server.hubUrl,
    credentials: { apiKey, apiSecret },
    // The suite makes a few dozen calls a test; the service's 60 a minute is the throttler's business elsewhere.
    throttler: createThrottler({ callsPerMinute: 100_000 }),
    ...(streamClock ? { clock: streamClock, staleAfterMs: 5_000 } : {}),
  });
  return {
    g,
    engine,
    accountId,
    server,
    async close() {
      await g.close();
      await server.close();
      engine.dispose();
    },
  };
}

describeGatewayConformance(
  'v1.1 gateway to the simulator server',
  async () => {
    const t = await start();
    return { gateway: t.g, engine: t.engine, accountId: t.accountId, close: t.close };
  },
  V1_1_LACKS,
);

describe('the v1.1 gateway beyond the shared suite', () => {
  let open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const t of open) await t.close();
    open = [];
  });
  async function fresh(streamClock?: VirtualClock) {
    const t = await start(streamClock);
    open.push(t);
    const maker = seedMarket({ gateway: t.g, engine: t.engine, accountId: t.accountId, close: t.close });
    return { ...t, me: t.accountId, maker };
  }

  it('keeps the clientOrderIds it placed: echoed on every order it reports, a repeat refused naming the order', async () => {
    const { g, engine, me } = await fresh();
    const clientOrderId = randomUUID();
    const placed = await g.placeOrder(limit('BUY', '28000', '0.1', { clientOrderId }));
    expect(placed.clientOrderId).toBe(clientOrderId);
    expect((await g.openOrders()).data.map((o) => o.clientOrderId)).toEqual([clientOrderId]);
    expect((await g.order(placed.id)).clientOrderId).toBe(clientOrderId);
    const err = await g.placeOrder(limit('BUY', '28001', '0.2', { clientOrderId })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 409, code: 'CLIENTORDERID_ALREADY_EXISTS', data: { existingOrderId: placed.id } });
    expect(engine.openOrders(me).data.map((o) => o.id)).toEqual([placed.id]);
  });

  it('derives an execution from each fill it sees: quantity, rate and commission of the fill, the last id after it', async () => {
    const { g, engine, me } = await fresh();
    const ioc = await g.placeOrder(limit('BUY', '30000', '0.2', { timeInForce: 'IMMEDIATE_OR_CANCEL' }));
    expect(ioc.status).toBe('CLOSED');
    const ex = await g.executions({ marketSymbol: M });
    const truth = engine.executions(me);
    expect(ex.map((e) => [e.orderId, e.quantity.toFixed(), e.rate.toFixed(), e.commission.toFixed()])).toEqual(
      truth.map((e) => [e.orderId, e.quantity.toFixed(), e.rate.toFixed(), e.commission.toFixed()]),
    );
    expect((await g.lastExecution()).data.lastId).toBe(ex[0]!.id);
  });

  it('refuses the channels v1.1 has no form for by name (candles), and serves no candle snapshot', async () => {
    const { g } = await fresh();
    await expect(g.streams.subscribe([`candle_${M}_MINUTE_1`])).rejects.toThrow(/candle_BTC-USD_MINUTE_1.*INVALID_CHANNEL|INVALID_CHANNEL/);
    expect(g.candles).toBeUndefined();
  });

  it('recycles the connection when uE stop while uL shows the market trading; the streams go on on a new epoch', async () => {
    const clock = new VirtualClock(Date.now());
    const { g, engine, server } = await fresh(clock);
    const epochs: number[] = [];
    g.streams.connectionEpoch$.subscribe((e) => epochs.push(e));
    await g.streams.subscribe([`orderbook_${M}_25`]);
    const first = epochs.at(-1)!;
    const books: number[] = [];
    g.streams.messages$.subscribe((m) => m.name === 'orderBook' && books.push(m.data.sequence));
    const taker = engine.createParticipant({ USD: dec('100000'), BTC: dec('10') });
    const trade = () => engine.placeOrder(taker, limit('BUY', '30100', '0.01', { timeInForce: 'IMMEDIATE_OR_CANCEL' }));
    trade();
    await vi.waitFor(() => expect(books.length).toBeGreaterThan(0));
    // From now on the connection numbers uE but delivers none, while the market keeps trading (uL shows it).
    server.v1Hub.faults.dropExchangeDeltas = true;
    await vi.waitFor(async () => {
      await clock.advance(2_000);
      trade();
      expect(epochs.at(-1)).toBeGreaterThan(first);
    }, { timeout: 10_000, interval: 100 });
    server.v1Hub.faults.dropExchangeDeltas = false;
    // The new connection delivers the book again.
    const delivered = books.length;
    trade();
    await vi.waitFor(() => expect(books.length).toBeGreaterThan(delivered));
  });
});
