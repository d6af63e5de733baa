/**
 * The v1.1 client against a scripted loopback server: what it sends (GET, query, apikey + nonce, apisign over
 * the exact URL), how it unwraps answers (exact decimals, typed errors with the message code, throttling through
 * the throttler) and the shapes it tolerates.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { hexEquals, hmacSha512Hex } from '../../../src/bittrex/rest/auth.js';
import { createThrottler } from '../../../src/bittrex/rest/throttler.js';
import { createV1RestClient, signV1Url, V1ApiError, type V1RestClient } from '../../../src/bittrex/v1/rest/index.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { ApiError, WireFormatError } from '../../../src/core/errors.js';

const creds = { apiKey: 'k3y', apiSecret: 's3cret' };
interface Seen {
  url: string;
  method: string;
  query: URLSearchParams;
  apisign: string | undefined;
}
let server: Server;
let base: string;
const seen: Seen[] = [];
const replies: { status?: number; body: string }[] = [];
const ok = (result: unknown) => ({ body: JSON.stringify({ success: true, message: '', result }) });

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const h = req.headers.apisign;
    seen.push({ url: req.url ?? '', method: req.method ?? '', query: u.searchParams, apisign: Array.isArray(h) ? h[0] : h });
    const r: { status?: number; body: string } = replies.shift() ?? ok([]);
    res.writeHead(r.status ?? 200, { 'content-type': 'application/json' });
    res.end(r.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1.1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let client: V1RestClient;
beforeEach(async () => {
  seen.length = 0;
  replies.length = 0;
  await client?.close();
  client = createV1RestClient({ baseUrl: base, credentials: creds });
});

describe('v1.1 signing', () => {
  it('matches the official document\'s vector', () => {
    const url = 'https://api.bittrex.com/api/v1.1/path/call?param=value&apikey=0123456789&nonce=1542020339856';
    expect(signV1Url('ABCDEFGHIJ', url).toUpperCase()).toBe(
      'FC70DD6467C916FBAA14EB89942644F9CF3F4CBF179923EE677413DC2E1CF2D8C5AA60C85A0A0BB3174960B8AA4FCFB0BC20CDE19BF21D567C671811C52CE631',
    );
  });

  it('sends private calls as GET with apikey and nonce in the query, signed over the full URL', async () => {
    replies.push(ok({ uuid: 'u-1' }));
    await client.market.buyLimit({ market: 'BTC-LTC', quantity: dec('1.2'), rate: dec('0.00000001'), timeInForce: 'IOC' });
    const s = seen[0]!;
    expect(s.method).toBe('GET');
    expect(s.url).toMatch(/^\/api\/v1\.1\/market\/buylimit\?market=BTC-LTC&quantity=1\.2&rate=0\.00000001&timeInForce=IOC&apikey=k3y&nonce=\d+$/);
    expect(hexEquals(s.apisign!, hmacSha512Hex(creds.apiSecret, `${base.replace('/api/v1.1', '')}${s.url}`))).toBe(true);
  });

  it('sends public calls unsigned and nonces strictly increasing', async () => {
    await client.public.getMarkets();
    expect(seen[0]!.apisign).toBeUndefined();
    expect(seen[0]!.query.has('apikey')).toBe(false);
    await Promise.all([client.account.getBalances(), client.account.getBalances(), client.account.getBalances()]);
    const nonces = seen.slice(1).map((s) => Number(s.query.get('nonce')));
    expect(new Set(nonces).size).toBe(3);
  });
});

describe('v1.1 answers', () => {
  it('read numbers exactly from the JSON text', async () => {
    replies.push({ body: '{"success":true,"message":"","result":[{"Bid":12345678901.12345678,"Ask":1e-08,"Last":0.1}]}' });
    const t = await client.public.getTicker('BTC-LTC');
    expect(t.Bid?.toFixed()).toBe('12345678901.12345678');
    expect(t.Ask?.toFixed()).toBe('0.00000001');
  });

  it('turn success:false into a V1ApiError carrying the message code', async () => {
    replies.push({ body: '{"success":false,"message":"ADDRESS_GENERATING","result":null}' });
    const err = await client.account.getDepositAddress('BTC').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(V1ApiError);
    expect(err).toMatchObject({ code: 'ADDRESS_GENERATING', serviceMessage: 'ADDRESS_GENERATING', request: { method: 'GET', path: '/api/v1.1/account/getdepositaddress' } });
  });

  it('report a throttled answer to the throttler, retry reads, and never re-send a placement', async () => {
    const clock = new VirtualClock(Date.parse('2021-06-14T00:00:10Z'));
    const throttler = createThrottler({ clock, random: () => 0 });
    const c = createV1RestClient({ baseUrl: base, credentials: creds, throttler, clock });
    const throttled = { body: '{"success":false,"message":"Call to GetBalances was throttled. Try again in 60 seconds.","result":null}' };
    replies.push(throttled, ok([]));
    const reading = c.account.getBalances();
    await vi.waitFor(() => expect(throttler.stats().pausedUntil).toBeDefined());
    expect(throttler.stats().pausedUntil).toBe(Date.parse('2021-06-14T00:01:00Z'));
    await clock.advance(60_000);
    await expect(reading).resolves.toEqual([]);
    expect(seen).toHaveLength(2);

    await clock.advance(60_000);
    replies.push({ body: throttled.body.replace('GetBalances', 'SellLimit') });
    const err = await c.market.sellLimit({ market: 'BTC-LTC', quantity: dec('1'), rate: dec('1') }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'THROTTLED' });
    expect(seen).toHaveLength(3);
    await c.close();
  });

  it('accept the service\'s single objects where the seed declares an array', async () => {
    replies.push(ok({ Bid: 1, Ask: 2, Last: 3 }));
    expect((await client.public.getTicker('BTC-LTC')).Last?.toString()).toBe('3');
    replies.push(ok({ Currency: 'VTC', Address: 'Vy5S' }));
    expect((await client.account.getDepositAddress('VTC')).Address).toBe('Vy5S');
    replies.push(ok([{ Quantity: 12.37, Rate: 0.02525 }]));
    expect((await client.public.getOrderBook('BTC-LTC', 'buy')).buy[0]!.rate.toString()).toBe('0.02525');
    replies.push(ok([{ buy: [{ quantity: 1, rate: 2 }], sell: [] }]));
    expect((await client.public.getOrderBook('BTC-LTC')).buy).toHaveLength(1);
  });

  it('name the endpoint on a malformed answer and keep HTTP failures typed', async () => {
    replies.push({ body: '<html>' });
    await expect(client.public.getMarkets()).rejects.toThrow(new WireFormatError('GET /api/v1.1/public/getmarkets', 'body', 'is not JSON: "<html>"'));
    replies.push(ok([{ MarketName: 'BTC-LTC' }]));
    await expect(client.public.getMarketSummaries()).rejects.toThrow(/result\[0\]\.TimeStamp is missing/);
    replies.push({ status: 503, body: 'down' });
    await expect(client.public.getCurrencies()).rejects.toBeInstanceOf(ApiError);
    replies.push({ status: 404, body: '{"success":false,"message":"NOT_FOUND","result":null}' });
    await expect(client.public.getCurrencies()).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    replies.push(ok([1, 2]));
    await expect(client.public.getOrderBook('BTC-LTC', 'buy')).rejects.toThrow(/result\[0\] is not an object: 1/);
  });

  it('refuses a private call without credentials before sending', async () => {
    const anon = createV1RestClient({ baseUrl: base });
    await expect(anon.account.getBalances()).rejects.toThrow(/is private/);
    expect(seen).toHaveLength(0);
    await anon.close();
  });
});
