/**
 * The v1.1 gateway's REST client logs to the bot's logger, as the v3 gateway's does: a request that fails below HTTP
 * and a throttled answer (HTTP 429, or v1.1's 200 + "THROTTLED") that it retries are warnings, every request a debug
 * line. It got no logger: a v1.1 bot retried and failed in silence. Nothing logged, and no error thrown, carries the
 * key, the secret or a request's `apisign` (the key rides in v1.1's query string, the signature in a header).
 *
 * A scripted loopback server answers; the gateway runs on a virtual clock so the throttler's pause after a 429 (to
 * the next minute) is moved through, not waited.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createV1Gateway, type V1Gateway } from '../../../../src/bittrex/v1/gateway/v1-gateway.js';
import { VirtualClock } from '../../../../src/core/clock.js';

const creds = { apiKey: 'K3Y-5b0d7c1e9a', apiSecret: 'S3CRET-e41f09a2c7' };
type Reply = { status?: number; headers?: Record<string, string>; body?: string; destroy?: boolean };
const ok = (result: unknown): Reply => ({ body: JSON.stringify({ success: true, message: '', result }) });
const refused = (message: string): Reply => ({ body: JSON.stringify({ success: false, message, result: null }) });

let server: Server;
let base: string;
const replies: Reply[] = [];
const signatures: string[] = [];
let g: V1Gateway;
let clock: VirtualClock;
const logs: { level: string; msg: string; text: string }[] = [];

/** Everything a value holds, errors' messages, stacks and causes included. */
function deepText(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (v instanceof Error ? { ...v, name: v.name, message: v.message, stack: v.stack, cause: v.cause } : v)) ?? String(value);
}

beforeEach(async () => {
  replies.length = 0;
  signatures.length = 0;
  logs.length = 0;
  server = createServer((req, res) => {
    const sign = req.headers.apisign;
    if (typeof sign === 'string') signatures.push(sign);
    const r = replies.shift() ?? ok([]);
    if (r.destroy) {
      req.socket.destroy();
      return;
    }
    res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers });
    res.end(r.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  clock = new VirtualClock(Date.parse('2021-06-14T12:00:00Z'));
  const at = (level: string) => (obj: Record<string, unknown>, msg: string) => logs.push({ level, msg, text: `${msg} ${deepText(obj)}` });
  const logger = { debug: at('debug'), info: at('info'), warn: at('warn') };
  g = createV1Gateway({ restUrl: `${base}/api/v1.1`, hubUrl: `${base}/signalr`, credentials: creds, clock, logger });
});
afterEach(async () => {
  await g.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Settle `p` while moving the virtual clock to each timer the client sets (the throttler's pause). */
async function settle<T>(p: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  let out: { value?: T; error?: unknown } | undefined;
  p.then((value) => (out = { value }), (error: unknown) => (out = { error }));
  await vi.waitFor(async () => {
    const next = clock.nextTimerAt();
    if (next !== undefined) await clock.advanceTo(next);
    expect(out).toBeDefined();
  }, { timeout: 10_000, interval: 10 });
  return out!;
}

describe('v1.1 gateway REST log', () => {
  it('warns of failed and throttled requests, retried, with no key, secret or signature in any line or error', async () => {
    replies.push({ destroy: true });
    const lost = await settle(g.balances());
    expect(lost.error).toBeInstanceOf(Error);

    replies.push({ status: 429, headers: { 'retry-after': '1' }, body: '' }, refused('THROTTLED'), ok([]));
    expect((await settle(g.balances())).value?.data).toEqual([]);

    replies.push(refused('APIKEY_INVALID'));
    const refusal = await settle(g.balances());
    replies.push({ status: 500, body: '<html>upstream down</html>' });
    const down = await settle(g.balances());

    const warnings = logs.filter((l) => l.level === 'warn').map((l) => l.msg);
    expect(warnings).toEqual(['v1.1 request failed', 'v1.1 request throttled', 'v1.1 request throttled']);
    expect(logs.filter((l) => l.level === 'warn')[0]!.text).toContain('/api/v1.1/account/getbalances');
    expect(logs.filter((l) => l.msg === 'v1.1 request').length).toBe(5); // one debug line per answered request

    expect(signatures).toHaveLength(6);
    const everything = [...logs.map((l) => l.text), deepText(lost.error), deepText(refusal.error), deepText(down.error)].join('\n');
    for (const secret of [creds.apiKey, creds.apiSecret, ...signatures]) expect(everything).not.toContain(secret);
  });
});
