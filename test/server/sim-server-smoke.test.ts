import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestClient, type RestClient } from '../../src/bittrex/rest/index.js';
import { systemClock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import { ApiError } from '../../src/core/errors.js';
import { createFundedAccount } from '../../src/server/control/control-api.js';
import { startSimServer, type SimServer } from '../../src/server/sim-server.js';
import { createSimEngine } from '../../src/sim/engine.js';

describe('simulator server smoke', () => {
  let sim: SimServer;
  let client: RestClient;
  beforeAll(async () => {
    const engine = createSimEngine({ clock: systemClock });
    sim = await startSimServer({ engine });
    const acct = createFundedAccount(engine, { balances: { USD: '100000', BTC: '2' } });
    const mm = createFundedAccount(engine, { balances: { USD: '100000', BTC: '2' } });
    engine.placeOrder(mm.accountId, { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.5'), limit: dec('30000') });
    client = createRestClient({ baseUrl: sim.restUrl, credentials: { apiKey: acct.apiKey, apiSecret: acct.apiSecret } });
  });
  afterAll(async () => {
    await client.close();
    await sim.close();
  });

  it('serves markets, books with Sequence, and trades a limit order', async () => {
    const markets = await client.markets.list();
    expect(markets.map((m) => m.symbol)).toContain('BTC-USD');
    const book = await client.markets.orderBook('BTC-USD', { depth: 25 });
    expect(book.data.ask[0]!.rate.toString()).toBe('30000');
    expect(book.sequence).toBeGreaterThan(0);
    const order = await client.orders.create({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.1'), limit: dec('30000') });
    expect(order.status).toBe('CLOSED');
    expect(order.fillQuantity.toString()).toBe('0.1');
    const bal = await client.balances.get('BTC');
    expect(bal.total.toString()).toBe('2.1');
  });

  it('answers the seed error codes', async () => {
    const err = await client.orders.create({ marketSymbol: 'USD-BTC', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.1'), limit: dec('30000') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('MARKET_NAME_REVERSED');
    const bad = createRestClient({ baseUrl: sim.restUrl, credentials: { apiKey: 'nope', apiSecret: 'x' } });
    await expect(bad.balances.list()).rejects.toMatchObject({ code: 'APIKEY_INVALID', status: 401 });
    await bad.close();
  });
});
