import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { ApiError } from '../../../src/core/errors.js';
import { createRestClient, type RestClient } from '../../../src/bittrex/rest/client.js';
import { createThrottler, nextMinuteBoundary, type Throttler } from '../../../src/bittrex/rest/throttler.js';
import { recording, type RecordingThrottler, T0 } from './harness.js';
import { startTestServer, type TestServer } from './test-server.js';

let server: TestServer;
let client: RestClient;
let throttler: RecordingThrottler;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(async () => {
  server.reset();
  // A real throttler whose 429 pause is recorded but not enforced, so retries run without waiting a minute.
  const base = createThrottler({ clock: new VirtualClock(T0), callsPerMinute: 1_000_000 });
  const inner: Throttler = { schedule: base.schedule, succeeded: base.succeeded, stats: base.stats, throttled: () => {} };
  throttler = recording(inner);
  await client?.close();
  client = createRestClient({ baseUrl: server.url, credentials: server.credentials, throttler, clock: new VirtualClock(T0) });
});
afterAll(() => client.close());

const THROTTLED = { status: 429, body: { code: 'THROTTLED' } } as const;
const order = { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'MARKET', quantity: dec('0.1'), timeInForce: 'FILL_OR_KILL' } as const;

describe('429 handling', () => {
  it('a GET answered 429 is reported to the throttler and retried through it', async () => {
    server.next({ ...THROTTLED, headers: { 'Retry-After': '7' } });
    const { data } = await client.balances.list();
    expect(data).toHaveLength(2);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v3/balances', 'GET /v3/balances']);
    expect(throttler.throttles).toEqual([7000]);
    expect(throttler.priorities).toEqual(['read', 'read']);
    expect(throttler.successes).toBe(1);
  });

  it('a HEAD answered 429 is retried too', async () => {
    server.next(THROTTLED);
    expect(await client.orders.openSequence()).toBe(2002);
    expect(server.requests).toHaveLength(2);
    expect(throttler.throttles).toEqual([undefined]);
  });

  it('reads give up after 5 tries with the THROTTLED ApiError', async () => {
    for (let i = 0; i < 5; i++) server.next(THROTTLED);
    const err = (await client.markets.list().catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 429, code: 'THROTTLED' });
    expect(server.requests).toHaveLength(5);
    expect(throttler.throttles).toHaveLength(5);
  });

  it('POST /orders answered 429 is never retried: it rejects with THROTTLED', async () => {
    server.next({ ...THROTTLED, headers: { 'Retry-After': '30' } });
    const err = (await client.orders.create(order).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 429, code: 'THROTTLED', retryAfterMs: 30_000, request: { method: 'POST', path: '/v3/orders' } });
    expect(server.requests).toHaveLength(1);
    expect(throttler.throttles).toEqual([30_000]);
    expect(throttler.priorities).toEqual(['place']);
  });

  it('a cancel answered 429 is not retried either', async () => {
    server.next(THROTTLED);
    await expect(client.orders.cancel('21b580eb-8d5d-4855-aa11-2013e3884dce')).rejects.toMatchObject({ code: 'THROTTLED' });
    expect(server.requests).toHaveLength(1);
    expect(throttler.priorities).toEqual(['cancel']);
  });

  it('any other answer, errors included, reports success (resets the backoff)', async () => {
    server.next({ status: 409, body: { code: 'INSUFFICIENT_FUNDS' } });
    await expect(client.orders.create(order)).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect(throttler.successes).toBe(1);
    expect(throttler.throttles).toEqual([]);
  });
});

describe('with the real throttler in virtual time', () => {
  it('a 429 pauses every caller until the next minute boundary, then the GET is retried', async () => {
    const clock = new VirtualClock(T0 + 12_345);
    const real = createThrottler({ clock, callsPerMinute: 60 });
    const c = createRestClient({ baseUrl: server.url, credentials: server.credentials, throttler: real, clock });
    server.next(THROTTLED);
    let done = false;
    const pending = c.markets.tickers().finally(() => {
      done = true;
    });
    await vi.waitFor(() => expect(real.stats().pausedUntil).toBe(nextMinuteBoundary(T0 + 12_345)), { timeout: 10_000 });
    expect(server.requests).toHaveLength(1);
    await clock.advance(10_000);
    expect(done).toBe(false);
    expect(server.requests).toHaveLength(1);
    await clock.advanceTo(nextMinuteBoundary(T0 + 12_345));
    const { sequence } = await pending;
    expect(sequence).toBe(7007);
    expect(server.requests).toHaveLength(2);
    await c.close();
  });
});

describe('logging', () => {
  it('logs method, path, status and duration at debug, and never keys, secrets or signatures', async () => {
    const lines: { level: string; obj: object; msg?: string }[] = [];
    const logger = {
      debug: (obj: object, msg?: string) => lines.push({ level: 'debug', obj, msg }),
      warn: (obj: object, msg?: string) => lines.push({ level: 'warn', obj, msg }),
    };
    const c = createRestClient({ baseUrl: server.url, credentials: server.credentials, throttler, logger, subaccountId: '7f3c2a18-94d6-4e0b-b1a2-0d5e6f7a8b9c' });
    await c.balances.list();
    server.next(THROTTLED);
    await c.orders.create(order).catch(() => undefined);
    await c.close();
    expect(lines[0]).toMatchObject({ level: 'debug', obj: { method: 'GET', path: '/v3/balances', status: 200 } });
    expect(typeof (lines[0]!.obj as { durationMs: unknown }).durationMs).toBe('number');
    expect(lines.some((l) => l.level === 'warn' && (l.obj as { status?: number }).status === 429)).toBe(true);
    const text = JSON.stringify(lines);
    const signatures = server.requests.map((r) => r.headers['api-signature'] as string);
    for (const secret of [server.credentials.apiKey, server.credentials.apiSecret, ...signatures]) expect(text).not.toContain(secret);
  });

  it('accepts a pino logger', async () => {
    const { pino } = await import('pino');
    const c = createRestClient({ baseUrl: server.url, throttler, logger: pino({ level: 'silent' }) });
    expect(await c.ping.get()).toEqual({ serverTime: 1623635700000 });
    await c.close();
  });
});
