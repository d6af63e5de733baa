/**
 * The v1.1 gateway against the simulator server, on the conformance suite's engine, funding and book
 * (conformance-helpers.ts), for everything v1.1 can express. The engine is the truth, compared in the v3 model
 * on the fields v1.1 carries (v1.1 has no sequences, updatedAt, clientOrderId or executions of its own: the
 * gateway's stand-ins are checked for what they promise instead). What v1.1 cannot express is refused as
 * NOT_SUPPORTED_ON_V1_1 without reaching the exchange.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StreamMessage } from '../../src/bittrex/hub/messages.js';
import { createV1Gateway, type V1Gateway } from '../../src/bittrex/v1/gateway/v1-gateway.js';
import { createThrottler } from '../../src/bittrex/rest/throttler.js';
import { VirtualClock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import { ApiError } from '../../src/core/errors.js';
import type { Order } from '../../src/model/order.js';
import { createFundedAccount } from '../../src/server/control/control-api.js';
import { startSimServer, type SimServer } from '../../src/server/sim-server.js';
import type { SimEngine } from '../../src/sim/engine.js';
import { createConformanceEngine, limit, M, seedMarket } from './conformance-helpers.js';

interface Target {
  g: V1Gateway;
  engine: SimEngine;
  me: string;
  maker: string;
  server: SimServer;
}
let open: Target[] = [];
afterEach(async () => {
  for (const t of open) {
    await t.g.close();
    await t.server.close();
    t.engine.dispose();
  }
  open = [];
});

async function fresh(streamClock?: VirtualClock): Promise<Target> {
  const engine = createConformanceEngine();
  const server = await startSimServer({ engine });
  const { accountId, apiKey, apiSecret } = createFundedAccount(engine, {});
  const g = createV1Gateway({
    restUrl: server.restV1Url,
    hubUrl: server.hubUrl,
    credentials: { apiKey, apiSecret },
    throttler: createThrottler({ callsPerMinute: 100_000 }),
    ...(streamClock ? { clock: streamClock, staleAfterMs: 5_000 } : {}),
  });
  const maker = seedMarket({ gateway: g, engine, accountId, close: async () => undefined });
  const t = { g, engine, me: accountId, maker, server };
  open.push(t);
  return t;
}

/** The fields of an order v1.1 carries. */
const v1View = (o: Order) => ({
  id: o.id,
  marketSymbol: o.marketSymbol,
  direction: o.direction,
  type: o.type,
  quantity: o.quantity?.toFixed(),
  limit: o.limit?.toFixed(),
  fillQuantity: o.fillQuantity.toFixed(),
  commission: o.commission.toFixed(),
  proceeds: o.proceeds.toFixed(),
  status: o.status,
  createdAt: o.createdAt.toISOString(),
});

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

describe('ExchangeGateway conformance (what v1.1 expresses): v1.1 gateway to the simulator server', () => {
  it('markets, currencies, the book and trades are the engine\'s', async () => {
    const { g, engine } = await fresh();
    expect((await g.markets()).map((m) => m.symbol).sort()).toEqual(engine.markets().map((m) => m.symbol).sort());
    expect((await g.currencies()).map((c) => c.symbol).sort()).toEqual(engine.currencies().map((c) => c.symbol).sort());
    await g.placeOrder(limit('BUY', '30000', '0.1', { timeInForce: 'IMMEDIATE_OR_CANCEL' }));
    const book = await g.orderBook(M, 25);
    const truth = engine.orderBook(M, 500).data;
    expect(book.data.bid.map((l) => `${l.quantity.toFixed()}@${l.rate.toFixed()}`)).toEqual(truth.bid.map((l) => `${l.quantity.toFixed()}@${l.rate.toFixed()}`));
    expect(book.data.ask.map((l) => `${l.quantity.toFixed()}@${l.rate.toFixed()}`)).toEqual(truth.ask.map((l) => `${l.quantity.toFixed()}@${l.rate.toFixed()}`));
    const trades = await g.trades(M);
    expect(trades.data.map((t) => [t.id, t.rate.toFixed(), t.quantity.toFixed(), t.takerSide])).toEqual(engine.trades(M).data.map((t) => [t.id, t.rate.toFixed(), t.quantity.toFixed(), t.takerSide]));
  });

  it('balances and open orders are the engine\'s; a GTC limit rests OPEN with its clientOrderId', async () => {
    const { g, engine, me } = await fresh();
    const clientOrderId = randomUUID();
    const placed = await g.placeOrder(limit('BUY', '28000', '0.1', { clientOrderId }));
    expect(placed).toMatchObject({ status: 'OPEN', clientOrderId, marketSymbol: M, direction: 'BUY', type: 'LIMIT' });
    expect(v1View(placed)).toEqual(v1View(engine.getOrder(me, placed.id)));
    const balances = (await g.balances()).data.map((b) => [b.currencySymbol, b.total.toFixed(), b.available.toFixed()]).sort();
    expect(balances).toEqual(engine.funds.balances(me).data.map((b) => [b.currencySymbol, b.total.toFixed(), b.available.toFixed()]).sort());
    expect((await g.openOrders(M)).data.map(v1View)).toEqual(engine.openOrders(me, M).data.map(v1View));
    expect((await g.openOrders()).data[0]?.clientOrderId).toBe(clientOrderId);
    await expect(refusal(g.placeOrder(limit('BUY', '28001', '0.2', { clientOrderId })))).resolves.toMatchObject({ code: 'CLIENTORDERID_ALREADY_EXISTS', data: { existingOrderId: placed.id } });
  });

  it('an IOC limit that crosses fills, and its fill shows as an execution', async () => {
    const { g, engine, me } = await fresh();
    const ioc = await g.placeOrder(limit('BUY', '30000', '0.2', { timeInForce: 'IMMEDIATE_OR_CANCEL' }));
    expect(ioc.status).toBe('CLOSED');
    expect(v1View(ioc)).toEqual(v1View(engine.getOrder(me, ioc.id)));
    const ex = await g.executions({ marketSymbol: M });
    expect(ex.map((e) => [e.orderId, e.quantity.toFixed(), e.rate.toFixed()])).toEqual([[ioc.id, '0.2', '30000']]);
    expect((await g.lastExecution()).data.lastId).toBe(ex[0]!.id);
  });

  it('cancels an order (CLOSED with closedAt); a second cancel is ORDER_NOT_OPEN', async () => {
    const { g, engine, me } = await fresh();
    const placed = await g.placeOrder(limit('BUY', '28000', '0.1'));
    const cancelled = await g.cancelOrder(placed.id);
    expect(cancelled.status).toBe('CLOSED');
    expect(cancelled.closedAt).toBeInstanceOf(Date);
    expect(v1View(cancelled)).toEqual(v1View(engine.getOrder(me, placed.id)));
    await expect(refusal(g.cancelOrder(placed.id))).resolves.toMatchObject({ code: 'ORDER_NOT_OPEN' });
    expect((await g.closedOrders({ marketSymbol: M })).map((o) => o.id)).toContain(placed.id);
  });

  it('refusals carry the service\'s codes, and what v1.1 cannot express never reaches the exchange', async () => {
    const { g, engine, me } = await fresh();
    await expect(refusal(g.placeOrder(limit('BUY', '28000', '100')))).resolves.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    await expect(refusal(g.placeOrder({ ...limit('BUY', '1', '1'), marketSymbol: 'NOPE-USD' }))).resolves.toMatchObject({ code: 'MARKET_DOES_NOT_EXIST' });
    await expect(refusal(g.placeOrder(limit('BUY', '28000', '0.00001')))).resolves.toMatchObject({ code: 'MIN_TRADE_REQUIREMENT_NOT_MET' });
    for (const p of [
      g.placeOrder({ marketSymbol: M, direction: 'BUY', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.1') }),
      g.placeOrder(limit('BUY', '28000', '0.1', { timeInForce: 'FILL_OR_KILL' })),
      g.placeOrder(limit('BUY', '28000', '0.1', { timeInForce: 'POST_ONLY_GOOD_TIL_CANCELLED' })),
      g.cancelAllOrders(M),
      g.placeConditionalOrder({ marketSymbol: M, operand: 'LTE', triggerPrice: dec('20000') }),
    ]) {
      await expect(refusal(p)).resolves.toMatchObject({ code: 'NOT_SUPPORTED_ON_V1_1' });
    }
    expect(engine.openOrders(me).data).toEqual([]);
  });

  it('a batch answers each operation as the single request would', async () => {
    const { g, engine, me } = await fresh();
    const answers = await g.batch([
      { resource: 'ORDER', operation: 'POST', payload: limit('BUY', '28000', '0.1') },
      { resource: 'ORDER', operation: 'POST', payload: limit('BUY', '28000', '100') },
    ]);
    expect(answers.map((a) => [a.status, a.ok])).toEqual([[201, true], [409, false]]);
    expect(answers[1]!.ok === false && answers[1]!.payload.code).toBe('INSUFFICIENT_FUNDS');
    expect(engine.openOrders(me).data).toHaveLength(1);
  });

  it('streams: the book continues its snapshot; order, balance and execution messages are this account\'s', async () => {
    const { g, engine, me, maker } = await fresh();
    const seen: StreamMessage[] = [];
    g.streams.messages$.subscribe((m) => seen.push(m));
    await g.streams.subscribe([`orderbook_${M}_25`, `trade_${M}`, 'order', 'balance', 'execution', 'heartbeat']);
    const snap = await g.orderBook(M, 25);
    engine.placeOrder(maker, limit('BUY', '27000', '0.1')); // the book moves; not our order
    const order = await g.placeOrder(limit('BUY', '30000', '0.6')); // 0.5 fills, 0.1 rests
    await vi.waitFor(() => {
      const books = seen.flatMap((m) => (m.name === 'orderBook' ? [m.data.sequence] : []));
      expect(books.length).toBeGreaterThanOrEqual(2);
      expect(books).toEqual(books.map((_, i) => snap.sequence + 1 + i));
      expect(seen.some((m) => m.name === 'execution' && m.data.deltas.some((d) => d.orderId === order.id && d.quantity.toFixed() === '0.5'))).toBe(true);
      expect(seen.some((m) => m.name === 'order' && m.data.delta.id === order.id)).toBe(true);
      expect(seen.some((m) => m.name === 'balance')).toBe(true);
      expect(seen.some((m) => m.name === 'trade')).toBe(true);
    });
    expect(seen.filter((m) => m.name === 'order').every((m) => m.name === 'order' && m.data.accountId === me)).toBe(true);
    await expect(g.streams.subscribe([`candle_${M}_MINUTE_1`])).rejects.toThrow(/INVALID_CHANNEL/);
  });

  it('recycles the connection when uE stop while uL shows the market trading; every stream resyncs on the new epoch', async () => {
    const clock = new VirtualClock(Date.now());
    const { g, engine, maker, server } = await fresh(clock);
    const epochs: number[] = [];
    g.streams.connectionEpoch$.subscribe((e) => epochs.push(e));
    await g.streams.subscribe([`orderbook_${M}_25`]);
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
      expect(epochs).toContain(1);
    }, { timeout: 10_000, interval: 100 });
    server.v1Hub.faults.dropExchangeDeltas = false;
    expect(maker).toBeTruthy();
  });
});
