/**
 * Issue 11 item 7: node-bittrex-api 0.8.3 (the most used v1.1 node client, npm `node-bittrex-api`), unchanged,
 * against the simulator: `createInstance({ baseUrl, apikey, apisecret })` — its own option for the base URL.
 *
 * WIRE facts this client holds the simulator to:
 * - it appends `apikey` and `nonce` FIRST and the call's parameters after, unencoded, and signs the URL string it
 *   built: the server verifies over the raw request target (any parameter order, no re-encoding);
 * - it sends `Content-type: application/x-www-form-urlencoded` on GETs with no body, and the previous call's
 *   `apisign` header on public calls (its headers object is shared): both must be ignored;
 * - callbacks get the whole `{success, message, result}` wrapper, and a refusal only when the HTTP status is 200
 *   (anything else becomes its generic 'URL request error');
 * - values are signed unencoded: one with a space arrives percent-encoded and fails its signature, as on v3.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startV1World, type V1World } from '../server/v1/v1-harness.js';

type Wrapper = { success: boolean; message: string; result: any };
type Cb = (data: Wrapper | null, err: Wrapper | null) => void;
type Api = Record<string, (a: unknown, b?: Cb) => void>;
const nodeBittrexApi = createRequire(import.meta.url)('node-bittrex-api') as { createInstance(o: Record<string, unknown>): Api };

describe('node-bittrex-api 0.8.3 against the simulator', () => {
  let w: V1World;
  let api: Api;
  /** Call `name` and resolve with the wrapper (a refusal resolves too: the test reads `success`). */
  const call = (name: string, options?: Record<string, unknown>): Promise<Wrapper> =>
    new Promise((resolve) => {
      const cb: Cb = (data, err) => resolve((data ?? err)!);
      if (options === undefined) api[name]!(cb);
      else api[name]!(options, cb);
    });

  beforeAll(async () => {
    w = await startV1World();
    api = nodeBittrexApi.createInstance({ baseUrl: w.sim.restV1Url, apikey: w.user.apiKey, apisecret: w.user.apiSecret, requestTimeoutInSeconds: 10 });
  });
  afterAll(async () => {
    await w?.close();
  });

  it('public endpoints', async () => {
    const markets = await call('getmarkets');
    expect(markets.success).toBe(true);
    expect(markets.result.find((m: { MarketName: string }) => m.MarketName === 'USD-BTC')).toMatchObject({ MarketCurrency: 'BTC', BaseCurrency: 'USD' });
    expect((await call('getcurrencies')).result.length).toBeGreaterThan(0);
    expect((await call('getticker', { market: 'USD-BTC' })).result).toMatchObject({ Bid: 29990, Ask: 30000 });
    expect((await call('getmarketsummaries')).success).toBe(true);
    expect((await call('getmarketsummary', { market: 'USD-BTC' })).result[0]).toMatchObject({ MarketName: 'USD-BTC' });
    expect((await call('getorderbook', { market: 'USD-BTC', type: 'both' })).result.buy[0]).toEqual({ Quantity: 0.4, Rate: 29990 });
    expect((await call('getmarkethistory', { market: 'USD-BTC' })).result).toHaveLength(2);
  });

  it('buylimit, getopenorders, getorder, cancel, selllimit, getorderhistory', async () => {
    const placed = await call('buylimit', { market: 'USD-BTC', quantity: 0.02, rate: 28000 });
    expect(placed).toMatchObject({ success: true, message: '' });
    const uuid = placed.result.uuid as string;
    expect((await w.v3.orders.get(uuid)).direction).toBe('BUY');
    expect((await call('getopenorders', { market: 'USD-BTC' })).result.map((o: { OrderUuid: string }) => o.OrderUuid)).toContain(uuid);
    expect((await call('getorder', { uuid })).result).toMatchObject({ OrderUuid: uuid, OrderType: 'LIMIT_BUY', QuantityRemaining: 0.02 });
    expect((await call('cancel', { uuid })).success).toBe(true);
    expect((await w.v3.orders.get(uuid)).status).toBe('CLOSED');
    const sold = await call('selllimit', { market: 'USD-BTC', quantity: 0.01, rate: 29990, timeInForce: 'IOC' });
    expect(sold.success).toBe(true);
    const hist = await call('getorderhistory', {});
    expect(hist.result.map((o: { OrderUuid: string }) => o.OrderUuid)).toEqual(expect.arrayContaining([uuid, sold.result.uuid]));
  });

  it('getbalances, getbalance, getdepositaddress, withdraw, histories', async () => {
    const balances = await call('getbalances');
    const usd = balances.result.find((b: { Currency: string }) => b.Currency === 'USD');
    expect(usd.Balance).toBe(Number((await w.v3.balances.get('USD')).total));
    expect((await call('getbalance', { currency: 'BTC' })).result).toMatchObject({ Currency: 'BTC' });
    expect(await call('getdepositaddress', { currency: 'BTC' })).toEqual({ success: false, message: 'ADDRESS_GENERATING', result: null });
    await vi.waitFor(async () => expect((await call('getdepositaddress', { currency: 'BTC' })).success).toBe(true), { timeout: 5000, interval: 20 });
    const wd = await call('withdraw', { currency: 'BTC', quantity: 0.1, address: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' });
    expect(wd.success).toBe(true);
    expect((await call('getwithdrawalhistory', { currency: 'BTC' })).result[0]).toMatchObject({ PaymentUuid: wd.result.uuid, Amount: 0.1 });
    expect((await call('getdeposithistory', {})).result).toHaveLength(2);
  });

  it('refusals arrive as the wrapper with the message code', async () => {
    expect(await call('buylimit', { market: 'USD-NOPE', quantity: 1, rate: 1 })).toEqual({ success: false, message: 'INVALID_MARKET', result: null });
    expect(await call('getorder', { uuid: 'not-a-uuid!' })).toEqual({ success: false, message: 'UUID_INVALID', result: null });
    // It signs values unencoded; `request` percent-encodes the space on the wire. The server verifies over what
    // arrived (WIRE.md, as for v3), so such a call fails its signature rather than reaching the parameter check.
    expect(await call('getorder', { uuid: 'not a uuid' })).toEqual({ success: false, message: 'INVALID_SIGNATURE', result: null });
    const wrongKey = nodeBittrexApi.createInstance({ baseUrl: w.sim.restV1Url, apikey: w.user.apiKey, apisecret: 'wrong' });
    const r = await new Promise<Wrapper>((resolve) => wrongKey.getbalances!(((d: Wrapper | null, e: Wrapper | null) => resolve((d ?? e)!)) as never));
    expect(r).toEqual({ success: false, message: 'INVALID_SIGNATURE', result: null });
  });
});
