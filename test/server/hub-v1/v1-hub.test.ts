/**
 * The simulator's v1.1 hub `c2` over the real loopback server and engine, driven by rexbot's v1.1 hub client:
 * the seven methods, minified compressed payloads, per-connection nonces that agree between QueryExchangeState
 * and uE, the signed-challenge authentication with uO / uB after it, and refusals that leave the connection up.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { filter, firstValueFrom } from 'rxjs';
import { V1HubAuthError, V1HubClient, type V1HubEvent, type V1HubMessage } from '../../../src/bittrex/v1/hub/v1-hub-client.js';
import { HubInvocationError } from '../../../src/bittrex/hub/transport.js';
import { createV1RestClient } from '../../../src/bittrex/v1/rest/v1-rest-client.js';
import { dec } from '../../../src/core/decimal.js';
import type { V1Messages } from '../../../src/wire/v1/hub/messages.js';
import { startFixture, type SimFixture, type TestAccount } from '../sim-fixture.js';

let fx: SimFixture;
let maker: TestAccount;
let taker: TestAccount;
const clients: V1HubClient[] = [];

beforeAll(async () => {
  fx = await startFixture();
  maker = await fx.account({ USD: '1000000', BTC: '100', ETH: '1000' });
  taker = await fx.account({ USD: '1000000', BTC: '100' });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await fx.close();
});

/** A connected client that records every event it reports. */
async function connect(credentials?: { apiKey: string; apiSecret: string }): Promise<{ c: V1HubClient; seen: V1HubEvent[] }> {
  const c = new V1HubClient({ url: fx.sim.hubUrl, ...(credentials ? { credentials } : {}) });
  clients.push(c);
  const seen: V1HubEvent[] = [];
  c.events$.subscribe((e) => seen.push(e));
  await c.connect();
  return { c, seen };
}

function messages<K extends V1HubMessage['name']>(seen: V1HubEvent[], name: K): V1Messages[K][] {
  return seen.flatMap((e) => (e.type === 'message' && e.message.name === name ? [e.message.data as V1Messages[K]] : []));
}

function place(direction: 'BUY' | 'SELL', limit: string, quantity = '0.1', account = maker) {
  return fx.engine.placeOrder(account.accountId, { marketSymbol: 'BTC-USD', direction, type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec(quantity), limit: dec(limit) });
}

describe('v1.1 hub c2 on the simulator', () => {
  it('answers QueryExchangeState with the engine book at a nonce the following uE continue', async () => {
    place('BUY', '20000');
    place('SELL', '21000');
    const { c, seen } = await connect();
    expect(await c.subscribeToExchangeDeltas('USD-BTC')).toBe(true);
    const state = await c.queryExchangeState('usd-btc');
    expect(state.MarketName).toBe('USD-BTC');
    expect(state.Buys.map((l) => l.Rate.toString())).toContain('20000');
    expect(state.Sells[0]?.Rate.toString()).toBe('21000');

    // One uE per engine turn (what one operation changes, fills included); wait for each before the next.
    place('BUY', '20500'); // a new level: ADD
    await vi.waitFor(() => expect(messages(seen, 'uE')).toHaveLength(1));
    place('BUY', '20500'); // the same level grows: UPDATE
    await vi.waitFor(() => expect(messages(seen, 'uE')).toHaveLength(2));
    const take = fx.engine.placeOrder(taker.accountId, { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.2'), limit: dec('20500') });
    expect(take.fillQuantity.toString()).toBe('0.2'); // the level is gone: REMOVE, with the fill
    await vi.waitFor(() => expect(messages(seen, 'uE')).toHaveLength(3));
    const deltas = messages(seen, 'uE');
    expect(deltas.map((d) => d.Nonce)).toEqual([state.Nonce + 1, state.Nonce + 2, state.Nonce + 3]);
    expect(deltas.map((d) => d.Buys.map((b) => b.Type))).toEqual([[0], [2], [1]]);
    expect(deltas[1]?.Buys[0]?.Quantity.toString()).toBe('0.2');
    const fills = deltas[2]?.Fills ?? [];
    // The taker met the two resting orders of the level: two fills, one per maker order.
    expect(fills.map((f) => [f.OrderType, f.Rate.toString(), f.Quantity.toString()])).toEqual([
      ['SELL', '20500', '0.1'],
      ['SELL', '20500', '0.1'],
    ]);
    expect(fills.every((f) => Number.isInteger(f.FillId))).toBe(true);

    // The fills are the next snapshot's newest, under the same int ids.
    const again = await c.queryExchangeState('USD-BTC');
    expect(again.Nonce).toBe(state.Nonce + 3);
    expect(again.Fills.slice(0, 2).map((f) => f.Id).sort()).toEqual(fills.map((f) => f.FillId).sort());
  });

  it('numbers the fills of a market traded before anyone followed it oldest first, and later fills above them', async () => {
    // ETH-USD: no connection follows it yet, so its trades get no fill id when they happen (see the bridge).
    const eth = (direction: 'BUY' | 'SELL', account: TestAccount, limit: string) =>
      fx.engine.placeOrder(account.accountId, { marketSymbol: 'ETH-USD', direction, type: 'LIMIT', timeInForce: direction === 'SELL' ? 'GOOD_TIL_CANCELLED' : 'IMMEDIATE_OR_CANCEL', quantity: dec('0.5'), limit: dec(limit) });
    for (const limit of ['3000', '3001', '3002']) {
      eth('SELL', maker, limit);
      eth('BUY', taker, limit);
    }
    place('BUY', '20000'); // a followed market trades in between: numbered at once
    place('SELL', '20000', '0.1', taker);
    const { c, seen } = await connect();
    expect(await c.subscribeToExchangeDeltas('USD-ETH')).toBe(true);
    const state = await c.queryExchangeState('USD-ETH');
    expect(state.Fills.map((f) => f.Price.toString())).toEqual(['3002', '3001', '3000']);
    const ids = state.Fills.map((f) => f.Id);
    // Newest first, ids growing with time within the market.
    expect(ids[0]! > ids[1]! && ids[1]! > ids[2]!).toBe(true);
    eth('SELL', maker, '3003');
    eth('BUY', taker, '3003');
    await vi.waitFor(() => expect(messages(seen, 'uE').some((d) => d.Fills.length > 0)).toBe(true));
    const fill = messages(seen, 'uE').flatMap((d) => d.Fills)[0]!;
    expect(fill.FillId).toBeGreaterThan(ids[0]!);
    const again = await c.queryExchangeState('USD-ETH');
    expect(again.Fills.map((f) => f.Id)).toEqual([fill.FillId, ...ids]);
  });

  it('numbers nonces per connection: each connection sees its own offset, both agree with their snapshots', async () => {
    const a = await connect();
    const b = await connect();
    const sa = await a.c.queryExchangeState('USD-BTC');
    const sb = await b.c.queryExchangeState('USD-BTC');
    const conns = fx.sim.v1Hub.connections();
    const [oa, ob] = conns.slice(-2).map((x) => x.nonceOffset) as [number, number];
    // The market's own counter is the same behind both: a nonce minus its connection's offset.
    expect(sa.Nonce - oa).toBe(sb.Nonce - ob);
    expect(sa.Buys.map((l) => l.Rate.toString())).toEqual(sb.Buys.map((l) => l.Rate.toString()));
  });

  it('authenticates with the signed challenge, then sends uO and uB; a wrong secret answers false', async () => {
    const trader = await fx.account({ USD: '100000' });
    await expect(connect({ apiKey: trader.apiKey, apiSecret: 'not-the-secret' })).rejects.toBeInstanceOf(V1HubAuthError);
    const { seen } = await connect({ apiKey: trader.apiKey, apiSecret: trader.apiSecret });
    const o = place('BUY', '19000', '0.5', trader);
    await vi.waitFor(() => expect(messages(seen, 'uO').length).toBeGreaterThanOrEqual(1));
    await vi.waitFor(() => expect(messages(seen, 'uB').length).toBeGreaterThanOrEqual(1));
    const uO = messages(seen, 'uO')[0]!;
    expect(uO).toMatchObject({ AccountUuid: trader.accountId, Type: 0 });
    expect(uO.Order).toMatchObject({ OrderUuid: o.id, Exchange: 'USD-BTC', OrderType: 'LIMIT_BUY', IsOpen: true });
    expect(uO.Order.QuantityRemaining.toString()).toBe('0.5');
    const uB = messages(seen, 'uB').find((b) => b.Delta.Currency === 'USD')!;
    expect(uB.Delta.Available.lt(uB.Delta.Balance)).toBe(true); // the order's reserve
    expect(uB.Delta.Balance.toString()).toBe('100000');
    fx.engine.cancelOrder(trader.accountId, o.id);
    await vi.waitFor(() => expect(messages(seen, 'uO').some((m) => m.Type === 3 && !m.Order.IsOpen)).toBe(true));
    // Nonces of the account messages run on per connection.
    const nonces = [...messages(seen, 'uO'), ...messages(seen, 'uB')].map((m) => m.Nonce).sort((x, y) => x - y);
    expect(nonces).toEqual(nonces.map((_, i) => i + 1));
  });

  it('mixes with v3 on one engine: an order placed over v3 REST shows as uO; cancelled over v1.1 REST, it shows as CANCEL', async () => {
    const trader = await fx.account({ USD: '100000' });
    const { seen } = await connect({ apiKey: trader.apiKey, apiSecret: trader.apiSecret });
    const placed = await trader.client.orders.create({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('18000') });
    await vi.waitFor(() => expect(messages(seen, 'uO').some((m) => m.Order.OrderUuid === placed.id && m.Type === 0)).toBe(true));
    const v1 = createV1RestClient({ baseUrl: fx.sim.restV1Url, credentials: { apiKey: trader.apiKey, apiSecret: trader.apiSecret }, clock: fx.clock });
    try {
      await v1.market.cancel(placed.id);
    } finally {
      await v1.close();
    }
    await vi.waitFor(() => expect(messages(seen, 'uO').some((m) => m.Order.OrderUuid === placed.id && m.Type === 3 && !m.Order.IsOpen)).toBe(true));
    expect((await trader.client.orders.get(placed.id)).status).toBe('CLOSED');
  });

  it('serves QuerySummaryState, uS and uL in v1.1 market names', async () => {
    const { c, seen } = await connect();
    const state = await c.querySummaryState();
    expect(state.Summaries.map((s) => s.MarketName)).toContain('USD-BTC');
    expect(await c.subscribeToSummaryDeltas()).toBe(true);
    expect(await c.subscribeToSummaryLiteDeltas()).toBe(true);
    fx.engine.placeOrder(taker.accountId, { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.05'), limit: dec('20000') });
    await fx.clock.advance(1);
    await vi.waitFor(() => expect(messages(seen, 'uS').length).toBeGreaterThanOrEqual(1));
    await vi.waitFor(() => expect(messages(seen, 'uL').length).toBeGreaterThanOrEqual(1));
    const uS = messages(seen, 'uS')[0]!;
    expect(uS.Nonce).toBeGreaterThan(state.Nonce);
    const btc = uS.Deltas.find((d) => d.MarketName === 'USD-BTC')!;
    expect(btc.Last.toString()).toBe('20000');
    expect(messages(seen, 'uL')[0]!.Deltas.find((d) => d.MarketName === 'USD-BTC')?.Last.toString()).toBe('20000');
  });

  it('refuses bad calls without dropping the connection or changing anything', async () => {
    const { c } = await connect();
    await expect(c.queryExchangeState('USD-NOPE')).rejects.toBeInstanceOf(HubInvocationError);
    expect(await c.subscribeToExchangeDeltas('NOPE')).toBe(false);
    await expect(c.queryExchangeState('x'.repeat(10_000))).rejects.toThrow(/at most 256 characters/);
    // Still connected and serving.
    expect((await c.queryExchangeState('USD-BTC')).MarketName).toBe('USD-BTC');
    const closed = firstValueFrom(c.events$.pipe(filter((e) => e.type === 'closed')));
    await c.close();
    await closed;
  });
});
