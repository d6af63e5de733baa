import { createServer as createNetServer, type Socket } from 'node:net';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { ApiError, NetworkError, TimeoutError, ValidationError, WireFormatError } from '../../../src/core/errors.js';
import { createRestClient } from '../../../src/bittrex/rest/client.js';
import { buildQuery, parseRetryAfter, parseSequence } from '../../../src/bittrex/rest/http.js';
import { signRequest } from '../../../src/bittrex/rest/auth.js';
import { toWireJson } from '../../../src/model/encode.js';
import { createThrottler } from '../../../src/bittrex/rest/throttler.js';
import { type Harness, startHarness, T0 } from './harness.js';
import { SUBACCOUNT_ID } from './wire-samples.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

const order = { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', quantity: dec('1'), limit: dec('100'), timeInForce: 'GOOD_TIL_CANCELLED' } as const;
const quiet = () => createThrottler({ callsPerMinute: 1_000_000, clock: new VirtualClock(T0) });

describe('signing', () => {
  it('signs private calls with the headers of seed section 5, verified by the server', async () => {
    await h.client.balances.list();
    const r = h.server.last();
    expect(r.headers['api-key']).toBe(h.server.credentials.apiKey);
    expect(Number(r.headers['api-timestamp'])).toBeGreaterThanOrEqual(T0);
    expect(r.headers['api-content-hash']).toMatch(/^[0-9a-f]{128}$/);
    expect(r.headers['api-signature']).toMatch(/^[0-9a-f]{128}$/);
    expect(r.headers['api-subaccount-id']).toBeUndefined();
    expect(r.headers['content-type']).toBeUndefined();
  });

  it('never signs two requests with one timestamp, even on a clock that stands still (a server may refuse replays)', async () => {
    await h.client.balances.list();
    await h.client.balances.list();
    const [a, b] = h.server.requests.map((r) => Number(r.headers['api-timestamp']));
    expect(b! - a!).toBe(1);
    expect(h.server.requests[0]!.headers['api-signature']).not.toBe(h.server.requests[1]!.headers['api-signature']);
  });

  it('lets different requests share a millisecond, so a fast client does not run ahead of the clock', async () => {
    for (let i = 0; i < 20; i++) await h.client.orders.listClosed({ marketSymbol: `M${i}` });
    const stamps = new Set(h.server.requests.map((r) => r.headers['api-timestamp']));
    // Twenty different requests on a clock that stands still: one timestamp (the old rule gave twenty).
    expect(stamps.size).toBe(1);
  });

  it('a wrong secret is detected by the server: 401 INVALID_SIGNATURE', async () => {
    const client = createRestClient({ baseUrl: h.server.url, credentials: { ...h.server.credentials, apiSecret: 'not-the-secret' }, throttler: quiet() });
    const err = await client.balances.get('BTC').catch((e: unknown) => e);
    await client.close();
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 401, code: 'INVALID_SIGNATURE', request: { method: 'GET', path: '/v3/balances/BTC' } });
  });

  it('signs the exact percent-encoded URI it sends (query values with spaces, quotes, &)', async () => {
    await h.client.orders.listClosed({ marketSymbol: 'BTC USD"&x=1' });
    expect(h.server.last().url).toBe('/v3/orders/closed?marketSymbol=BTC%20USD%22%26x%3D1');
    expect(h.server.last().query).toEqual({ marketSymbol: 'BTC USD"&x=1' });
  });

  it('sends public market data unsigned even with credentials and a default sub-account', async () => {
    const client = createRestClient({ baseUrl: h.server.url, credentials: h.server.credentials, subaccountId: SUBACCOUNT_ID, throttler: quiet() });
    await client.markets.ticker('BTC-EUR');
    await client.close();
    const r = h.server.last();
    expect(r.signed).toBe(false);
    expect(r.headers['api-key']).toBeUndefined();
    expect(r.headers['api-subaccount-id']).toBeUndefined();
  });

  it('refuses a private call without credentials before sending anything', async () => {
    const client = createRestClient({ baseUrl: h.server.url, throttler: quiet() });
    await expect(client.balances.list()).rejects.toThrow(ValidationError);
    await expect(client.balances.list()).rejects.toThrow(/GET \/v3\/balances is private/);
    expect(await client.ping.get()).toEqual({ serverTime: 1623635700000 });
    await client.close();
    expect(h.server.requests.map((r) => r.path)).toEqual(['/v3/ping']);
  });
});

describe('sub-accounts', () => {
  it('per call: adds Api-Subaccount-Id and signs it (the server verifies the suffix)', async () => {
    const created = await h.client.orders.create(order, { subaccountId: SUBACCOUNT_ID });
    expect(created.marketSymbol).toBe('BTC-USD');
    expect(h.server.last().subaccountId).toBe(SUBACCOUNT_ID);
  });

  it('client default, overridable per call, and null for the master account', async () => {
    const client = createRestClient({ baseUrl: h.server.url, credentials: h.server.credentials, subaccountId: SUBACCOUNT_ID, throttler: quiet() });
    expect((await client.account.get()).subaccountId).toBe(SUBACCOUNT_ID);
    expect((await client.account.get({ subaccountId: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee' })).subaccountId).toBe('aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee');
    expect((await client.account.get({ subaccountId: null })).subaccountId).toBeUndefined();
    await client.close();
    expect(h.server.requests.map((r) => r.subaccountId)).toEqual([SUBACCOUNT_ID, 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee', undefined]);
  });

  it('sends the body bytes of toWireJson and the headers of signRequest over them (the general path)', async () => {
    const sent: Array<{ headers: Record<string, string>; body: unknown; path: string }> = [];
    const client = createRestClient({
      baseUrl: h.server.url,
      credentials: h.server.credentials,
      throttler: quiet(),
      dispatcher: (await import('undici')).getGlobalDispatcher().compose((dispatch) => (opts, handler) => {
        sent.push({ headers: { ...(opts.headers as Record<string, string>) }, body: opts.body, path: opts.path });
        return dispatch(opts, handler);
      }),
    });
    const orders = [order, { ...order, quantity: dec('0.00012345'), limit: dec('30010.5'), clientOrderId: 'é-ü' }];
    for (const [i, o] of orders.entries()) {
      h.server.next({ status: 201, body: {} });
      await client.orders.create(o, i === 1 ? { subaccountId: SUBACCOUNT_ID } : undefined).catch(() => undefined);
      const s = sent.at(-1)!;
      const text = toWireJson(o, 'plain');
      expect(Buffer.isBuffer(s.body) && (s.body as Buffer).equals(Buffer.from(text, 'utf8'))).toBe(true);
      const want = signRequest(h.server.credentials, {
        method: 'POST',
        uri: new URL(s.path, h.server.url).href,
        body: text,
        timestamp: s.headers['Api-Timestamp']!,
        subaccountId: i === 1 ? SUBACCOUNT_ID : undefined,
      });
      expect(s.headers).toEqual({ 'content-type': 'application/json', ...want });
      expect(Object.keys(s.headers)).toEqual(['content-type', ...Object.keys(want)]);
    }
    await client.close();
  });

  it('a sub-account id the signature did not cover is rejected', async () => {
    // Sign for one sub-account, then let a proxy swap the header: the server must refuse it.
    const client = createRestClient({
      baseUrl: h.server.url,
      credentials: h.server.credentials,
      throttler: quiet(),
      dispatcher: (await import('undici')).getGlobalDispatcher().compose((dispatch) => (opts, handler) => {
        const headers = { ...(opts.headers as Record<string, string>), 'Api-Subaccount-Id': 'ffffffff-ffff-4fff-8fff-ffffffffffff' };
        return dispatch({ ...opts, headers }, handler);
      }),
    });
    await expect(client.account.get({ subaccountId: SUBACCOUNT_ID })).rejects.toMatchObject({ code: 'INVALID_SIGNATURE' });
    await client.close();
  });
});

describe('error mapping', () => {
  it('409 INSUFFICIENT_FUNDS keeps status, code, detail, data and the request', async () => {
    h.server.next({ status: 409, body: { code: 'INSUFFICIENT_FUNDS', detail: 'not enough USD', data: { currencySymbol: 'USD', available: '10.00000000' } } });
    const err = (await h.client.orders.create(order).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 409,
      code: 'INSUFFICIENT_FUNDS',
      detail: 'not enough USD',
      data: { currencySymbol: 'USD', available: '10.00000000' },
      request: { method: 'POST', path: '/v3/orders' },
    });
    expect(err.message).toBe('409 INSUFFICIENT_FUNDS: not enough USD (POST /v3/orders)');
  });

  it('CLIENTORDERID_ALREADY_EXISTS carries the existing order id in data', async () => {
    h.server.next({ status: 409, body: { code: 'CLIENTORDERID_ALREADY_EXISTS', data: { orderId: 'existing-id' } } });
    await expect(h.client.orders.create(order)).rejects.toMatchObject({ code: 'CLIENTORDERID_ALREADY_EXISTS', data: { orderId: 'existing-id' } });
  });

  it('404 from the service and 404 with no body (HTTP_404)', async () => {
    await expect(h.client.orders.get('0b0b0b0b-0000-4000-8000-000000000000')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    h.server.next({ status: 404 });
    await expect(h.client.orders.get('0b0b0b0b-0000-4000-8000-000000000000')).rejects.toMatchObject({ status: 404, code: 'HTTP_404', detail: undefined });
  });

  it('a 2xx body that is not JSON is a WireFormatError naming the endpoint', async () => {
    h.server.next({ raw: '<html>maintenance</html>' });
    const err = (await h.client.markets.list().catch((e: unknown) => e)) as WireFormatError;
    expect(err).toBeInstanceOf(WireFormatError);
    expect(err.where).toBe('GET /v3/markets');
    expect(err.message).toBe('GET /v3/markets: body is not JSON: "<html>maintenance</html>"');
  });

  it('an error status with a non-JSON body (a proxy page) is an ApiError HTTP_<status> that shows the body', async () => {
    h.server.next({ status: 502, raw: '<html>Bad Gateway</html>' });
    await expect(h.client.markets.list()).rejects.toMatchObject({ status: 502, code: 'HTTP_502', detail: 'GET /v3/markets answered a non-JSON body: "<html>Bad Gateway</html>"' });
  });

  it('a body of the wrong shape names the field path', async () => {
    h.server.next({ body: [{ currencySymbol: 'BTC', total: 'lots', available: '1', updatedAt: '2021-06-14T00:00:00Z' }], headers: { Sequence: '5' } });
    await expect(h.client.balances.list()).rejects.toThrow('GET /v3/balances: [0].total is not a decimal: "lots"');
  });

  it('a decimal sent as a bare JSON number is read from its text, not rounded to a double', async () => {
    // JSON.parse read 1.0000000000000001 as 1 and 12345678901.123456789 as 12345678901.123457: other amounts than sent.
    h.server.next({ raw: '[{"currencySymbol":"BTC","total":1.0000000000000001,"available":12345678901.123456789,"updatedAt":"2021-06-14T00:00:00Z"}]', headers: { Sequence: '5' } });
    const [b] = (await h.client.balances.list()).data;
    expect(b!.total.toString()).toBe('1.0000000000000001');
    expect(b!.available.toString()).toBe('12345678901.123456789');
  });

  it('an integer field a double cannot hold is refused naming the field, with the digits sent', async () => {
    const market = (precision: string) =>
      `[{"symbol":"BTC-USD","baseCurrencySymbol":"BTC","quoteCurrencySymbol":"USD","minTradeSize":"0.0001","precision":${precision},"status":"ONLINE","createdAt":"2021-06-14T00:00:00Z"}]`;
    h.server.next({ raw: market('8.0000000000000001') }); // was read as 8
    await expect(h.client.markets.list()).rejects.toThrow('GET /v3/markets: [0].precision is not an integer: 8.0000000000000001');
    h.server.next({ raw: market('9007199254740993') }); // was shown as ...992
    await expect(h.client.markets.list()).rejects.toThrow('GET /v3/markets: [0].precision is not an integer: 9007199254740993');
    h.server.next({ raw: market('8') });
    expect((await h.client.markets.list())[0]!.precision).toBe(8);
  });

  it('a body read the exact way that is not acceptable JSON says why and where', async () => {
    h.server.next({ raw: '[{"currencySymbol":"BTC","total":1e-400,"total":"2"}]', headers: { Sequence: '5' } });
    await expect(h.client.balances.list()).rejects.toThrow(/^GET \/v3\/balances: body is not JSON \(duplicate key 'total' at position 40\): /);
  });

  it('a snapshot without a valid Sequence header is a WireFormatError naming the endpoint', async () => {
    h.server.next({ body: [] });
    await expect(h.client.orders.listOpen()).rejects.toThrow('GET /v3/orders/open: Sequence header is missing');
    h.server.next({ headers: { Sequence: 'abc' } });
    await expect(h.client.markets.orderBookSequence('BTC-EUR', 25)).rejects.toThrow('HEAD /v3/markets/BTC-EUR/orderbook: Sequence header is not a sequence number: "abc"');
  });

  it('connection refused: NetworkError that certainly did not reach the server', async () => {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const { port } = s.address() as AddressInfo;
    await new Promise<void>((r) => s.close(() => r()));
    const client = createRestClient({ baseUrl: `http://127.0.0.1:${port}/v3`, credentials: h.server.credentials, throttler: quiet() });
    const err = (await client.orders.create(order).catch((e: unknown) => e)) as NetworkError;
    await client.close();
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.mayHaveReachedServer).toBe(false);
    expect(err.request).toEqual({ method: 'POST', path: '/v3/orders' });
    expect(err.message).toContain('ECONNREFUSED');
  });

  it('HEAD requests (sequence polls) keep their keep-alive connection like GETs', async () => {
    let connections = 0;
    const s = createServer((req, res) => {
      res.writeHead(200, { Sequence: '7', 'Content-Type': 'application/json' });
      res.end(req.method === 'HEAD' ? undefined : '{"bid":[],"ask":[]}');
    });
    s.on('connection', () => connections++);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const { port } = s.address() as AddressInfo;
    const client = createRestClient({ baseUrl: `http://127.0.0.1:${port}/v3`, throttler: quiet() });
    try {
      for (let i = 0; i < 8; i++) expect(await client.markets.orderBookSequence('BTC-EUR', 25)).toBe(7);
      await client.markets.orderBook('BTC-EUR', { depth: 25 });
      for (let i = 0; i < 8; i++) expect(await client.markets.orderBookSequence('BTC-EUR', 25)).toBe(7);
      // undici's pool may open a second connection while the first waits a tick before reuse (GETs alike);
      // a connection per HEAD would be 17.
      expect(connections).toBeLessThanOrEqual(2);
    } finally {
      await client.close();
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    }
  });

  it('a connection dropped after the request was sent may have reached the server', async () => {
    const sockets = new Set<Socket>();
    const s = createNetServer((sock) => {
      sockets.add(sock);
      sock.once('data', () => sock.destroy());
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const { port } = s.address() as AddressInfo;
    const client = createRestClient({ baseUrl: `http://127.0.0.1:${port}/v3`, credentials: h.server.credentials, throttler: quiet() });
    const err = (await client.orders.create(order).catch((e: unknown) => e)) as NetworkError;
    await client.close();
    for (const sock of sockets) sock.destroy();
    await new Promise<void>((r) => s.close(() => r()));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.mayHaveReachedServer).toBe(true);
  });

  it('a server that never answers: TimeoutError', async () => {
    const client = createRestClient({ baseUrl: h.server.url, credentials: h.server.credentials, throttler: quiet(), timeoutMs: 300 });
    h.server.next({ hang: true });
    const err = (await client.orders.create(order).catch((e: unknown) => e)) as TimeoutError;
    await client.close();
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ code: 'TIMEOUT', timeoutMs: 300, mayHaveReachedServer: true, request: { method: 'POST', path: '/v3/orders' } });
  });
});

describe('transport helpers', () => {
  it('buildQuery skips undefined, encodes keys and values, writes dates as ISO 8601', () => {
    expect(buildQuery(undefined)).toBe('');
    expect(buildQuery({ a: undefined })).toBe('');
    expect(buildQuery({ marketSymbol: 'BTC-USD', pageSize: 5, toMasterAccount: true, startDate: new Date(0), x: 'a b/c' })).toBe(
      '?marketSymbol=BTC-USD&pageSize=5&toMasterAccount=true&startDate=1970-01-01T00%3A00%3A00.000Z&x=a%20b%2Fc',
    );
  });

  it('parseRetryAfter reads seconds and HTTP dates', () => {
    expect(parseRetryAfter(undefined, 0)).toBeUndefined();
    expect(parseRetryAfter('7', 0)).toBe(7000);
    expect(parseRetryAfter('1.5', 0)).toBe(1500);
    expect(parseRetryAfter('Mon, 14 Jun 2021 01:56:00 GMT', T0)).toBe(60_000);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
  });

  it('parseSequence accepts non-negative integers only', () => {
    expect(parseSequence(' 42 ', 'x')).toBe(42);
    expect(() => parseSequence('-1', 'HEAD /v3/balances')).toThrow('HEAD /v3/balances: Sequence header is not a sequence number: "-1"');
    expect(() => parseSequence('1e3', 'x')).toThrow(WireFormatError);
  });

  it('rejects a bad base URL or timeout clearly', () => {
    expect(() => createRestClient({ baseUrl: 'api.bittrex.com/v3', throttler: quiet() })).toThrow('baseUrl: is not an absolute URL: "api.bittrex.com/v3"');
    expect(() => createRestClient({ baseUrl: 'ftp://x/v3', throttler: quiet() })).toThrow('baseUrl: must be http or https, got ftp:');
    expect(() => createRestClient({ baseUrl: 'http://x/v3', timeoutMs: 0, throttler: quiet() })).toThrow('timeoutMs: must be positive');
  });

  it('close is idempotent and leaves a dispatcher it was given open', async () => {
    const { Agent } = await import('undici');
    const agent = new Agent();
    const client = createRestClient({ baseUrl: h.server.url, throttler: quiet(), dispatcher: agent });
    await client.ping.get();
    await client.close();
    await client.close();
    expect(agent.closed).toBe(false);
    await agent.close();
    const own = createRestClient({ baseUrl: h.server.url, throttler: quiet() });
    await own.ping.get();
    await Promise.all([own.close(), own.close()]);
  });
});
