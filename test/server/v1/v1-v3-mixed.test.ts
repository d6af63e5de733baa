/**
 * Seed 001 section 9: both versions share one engine and can be mixed during a migration. One API key works on
 * both; an order placed through either is visible and cancellable through the other; balances agree; the call
 * budget is the key's, whichever version spends it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestClient } from '../../../src/bittrex/rest/index.js';
import { createV1RestClient, V1ApiError } from '../../../src/bittrex/v1/rest/index.js';
import { dec } from '../../../src/core/decimal.js';
import { balanceFromV1, orderFromV1 } from '../../../src/wire/v1/index.js';
import { startV1World, type V1World } from './v1-harness.js';

describe('v1.1 and v3 mixed on one engine', () => {
  let w: V1World;
  beforeAll(async () => {
    w = await startV1World();
  });
  afterAll(async () => {
    await w?.close();
  });

  it('an order placed on v1.1 is seen and cancelled on v3, and v1.1 sees it closed', async () => {
    const { uuid } = await w.v1.market.buyLimit({ market: 'USD-BTC', quantity: dec('0.02'), rate: dec('28000') });
    const v3 = await w.v3.orders.get(uuid);
    expect(v3).toMatchObject({ id: uuid, marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', status: 'OPEN' });
    expect((await w.v3.orders.listOpen({ marketSymbol: 'BTC-USD' })).data.map((o) => o.id)).toContain(uuid);
    const cancelled = await w.v3.orders.cancel(uuid);
    expect(cancelled.status).toBe('CLOSED');
    const v1 = await w.v1.account.getOrder(uuid);
    expect(orderFromV1(v1)).toMatchObject({ id: uuid, status: 'CLOSED', closedAt: cancelled.closedAt });
    expect((await w.v1.market.getOpenOrders()).map((o) => o.OrderUuid)).not.toContain(uuid);
    const err = await w.v1.market.cancel(uuid).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(V1ApiError);
    expect((err as V1ApiError).code).toBe('ORDER_NOT_OPEN');
  });

  it('an order placed on v3 is seen and cancelled on v1.1, and v3 sees it closed', async () => {
    const placed = await w.v3.orders.create({
      marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.03'), limit: dec('31000'), clientOrderId: randomUUID(),
    });
    const open = await w.v1.market.getOpenOrders('USD-BTC');
    const mine = open.find((o) => o.OrderUuid === placed.id)!;
    expect(mine).toMatchObject({ Exchange: 'USD-BTC', OrderType: 'LIMIT_SELL' });
    expect(orderFromV1(mine)).toMatchObject({ id: placed.id, marketSymbol: 'BTC-USD', direction: 'SELL', quantity: placed.quantity, limit: placed.limit });
    expect(await w.v1.market.cancel(placed.id)).toEqual({ uuid: placed.id });
    expect((await w.v3.orders.get(placed.id)).status).toBe('CLOSED');
    await expect(w.v3.orders.cancel(placed.id)).rejects.toMatchObject({ code: 'ORDER_NOT_OPEN' });
  });

  it('a v3 market order shows on v1.1 with its own type; fills on either side move one balance', async () => {
    const before = await w.v3.balances.get('BTC');
    const m = await w.v3.orders.create({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.01') });
    expect((await w.v1.account.getOrder(m.id)).OrderType).toBe('MARKET_BUY');
    await w.v1.market.sellLimit({ market: 'USD-BTC', quantity: dec('0.01'), rate: dec('29980'), timeInForce: 'IOC' });
    const after = await w.v3.balances.get('BTC');
    expect(after.total.eq(before.total)).toBe(true);
  });

  it('balances agree between the versions, holds of orders placed on either included', async () => {
    const a = await w.v1.market.buyLimit({ market: 'USD-BTC', quantity: dec('0.1'), rate: dec('20000') });
    const b = await w.v3.orders.create({ marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.2'), limit: dec('40000') });
    const v1 = await w.v1.account.getBalances();
    const v3 = await w.v3.balances.list();
    expect(v1.map((x) => balanceFromV1(x, new Date(0)).balance).map(({ updatedAt: _u, ...rest }) => rest)).toEqual(
      v3.data.map(({ updatedAt: _u, ...rest }) => rest),
    );
    const usd = v1.find((x) => x.Currency === 'USD')!;
    expect(usd.Balance.minus(usd.Available).gte(dec('2000'))).toBe(true);
    await w.v1.market.cancel(b.id);
    await w.v3.orders.cancel(a.uuid);
    const settled = await w.v1.account.getBalances();
    for (const x of settled) expect(x.Available.eq(x.Balance)).toBe(true);
  });

  it('one key, one call budget: v1.1 and v3 calls count together', async () => {
    const limited = await startV1World({ callsPerMinute: 3 });
    try {
      const creds = { apiKey: limited.user.apiKey, apiSecret: limited.user.apiSecret };
      // Fresh clients with one attempt per call, so the test sees the first refusal.
      const v3 = createRestClient({ baseUrl: limited.sim.restUrl, credentials: creds });
      const v1 = createV1RestClient({ baseUrl: limited.sim.restV1Url, credentials: creds });
      await v3.balances.list();
      await v1.account.getBalances();
      await v3.balances.get('BTC');
      const sel = await v1.market.sellLimit({ market: 'USD-BTC', quantity: dec('0.01'), rate: dec('50000') }).catch((e: unknown) => e);
      expect(sel).toBeInstanceOf(V1ApiError);
      expect((sel as V1ApiError).code).toBe('THROTTLED');
      expect((sel as V1ApiError).serviceMessage).toMatch(/^Call to SellLimit was throttled\. Try again in \d+ seconds\.$/);
      expect(limited.engine.openOrders(limited.user.accountId).data).toHaveLength(0);
      expect(v1.throttler.stats().pausedUntil).toBeDefined();
      // The key spelled in another case (it still verifies: keys match case-insensitively) spends the same budget.
      const shouting = createV1RestClient({ baseUrl: limited.sim.restV1Url, credentials: { ...creds, apiKey: creds.apiKey.toUpperCase() } });
      // (An order: a read refused THROTTLED is tried again by the client once the minute is over.)
      const loud = await shouting.market.sellLimit({ market: 'USD-BTC', quantity: dec('0.01'), rate: dec('50000') }).catch((e: unknown) => e);
      expect((loud as V1ApiError).code).toBe('THROTTLED');
      await shouting.close();
      const raw = await fetch(`${limited.sim.restUrl}/markets`);
      expect([200, 429]).toContain(raw.status);
      await v1.close();
      await v3.close();
    } finally {
      await limited.close();
    }
  });
});
