/**
 * The shared per-key budget (src/bittrex/rest/shared-throttler.ts) against a real Redis: several throttler
 * instances — standing for several bot processes on one API key — on one VirtualClock, each with its own Redis
 * connection. Tests that stop Redis use a throwaway redis-server of their own, never the machine's.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushMicrotasks, VirtualClock } from '../../../src/core/clock.js';
import { budgetKeyId, budgetRule } from '../../../src/bittrex/rest/shared-budget.js';
import { createSharedThrottler, type SharedThrottler, type SharedThrottlerOptions } from '../../../src/bittrex/rest/shared-throttler.js';
import type { RequestPriority } from '../../../src/bittrex/rest/throttler.js';
import { createMetrics, throttlerMetrics } from '../../../src/telemetry/metrics.js';
import {
  deleteKeys,
  dumpKeys,
  REDIS_URL,
  redisReachable,
  redisServerInstalled,
  skipReason,
  startThrowawayRedis,
  type ThrowawayRedis,
  uniquePrefix,
} from '../../helpers/redis.js';

const MINUTE = 60_000;
// 2024-03-01T00:00:10Z: ten seconds into a calendar minute.
const T0 = Date.parse('2024-03-01T00:00:10Z');
const NEXT = Date.parse('2024-03-01T00:01:00Z');
const API_KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const WAIT = { timeout: 10_000, interval: 5 };

const haveRedis = await redisReachable();
if (!haveRedis) console.warn(skipReason());
const haveRedisServer = redisServerInstalled();
if (!haveRedisServer) console.warn('SKIPPED: no redis-server binary on the PATH for the tests that stop and start Redis (apt-get install redis-server)');

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Log lines a throttler wrote. */
function captureLog() {
  const lines: { level: 'info' | 'warn'; msg: string; obj: object }[] = [];
  return {
    lines,
    logger: {
      info: (obj: object, msg: string) => lines.push({ level: 'info', msg, obj }),
      warn: (obj: object, msg: string) => lines.push({ level: 'warn', msg, obj }),
    },
  };
}

/** One "process": a throttler plus a record of the calls it started. */
function proc(name: string, clock: VirtualClock, opts: Omit<SharedThrottlerOptions, 'clock' | 'apiKey'>) {
  const log = captureLog();
  const throttler = createSharedThrottler({ clock, apiKey: API_KEY, memberId: name, logger: log.logger, ...opts });
  cleanups.push(() => throttler.close());
  const started: { priority: RequestPriority; at: number }[] = [];
  const call = (priority: RequestPriority) => {
    const p = throttler.schedule(priority, async () => {
      started.push({ priority, at: clock.now() });
    });
    p.catch(() => undefined); // still queued when the test closes the throttler
    return p;
  };
  const count = (priority?: RequestPriority, minute?: number) =>
    started.filter((s) => (priority === undefined || s.priority === priority) && (minute === undefined || Math.floor(s.at / MINUTE) === minute)).length;
  return { name, throttler, started, call, count, log };
}

/** Several processes on one key, one prefix, cleaned up after the test. */
async function processes(n: number, opts: Omit<SharedThrottlerOptions, 'clock' | 'apiKey' | 'url'> & { url?: string }, clock = new VirtualClock(T0)) {
  const keyPrefix = uniquePrefix('shared-throttler');
  const url = opts.url ?? REDIS_URL;
  if (url === REDIS_URL) cleanups.push(() => deleteKeys(keyPrefix));
  const ps = Array.from({ length: n }, (_, i) => proc(`p${i}`, clock, { keyPrefix, ...opts, url }));
  for (const p of ps) expect(await p.throttler.connected()).toBe(true);
  return { clock, ps, keyPrefix };
}

/**
 * Wait until no process has a request to Redis outstanding. The virtual clock stands still, so nothing starts
 * after that: a following "still no more than N" check means something.
 */
async function settle(ps: { throttler: SharedThrottler }[]): Promise<void> {
  await flushMicrotasks();
  await vi.waitFor(() => expect(ps.filter((p) => p.throttler.stats().shared.asking)).toHaveLength(0), WAIT);
  await flushMicrotasks();
}

const minuteOf = (t: number) => Math.floor(t / MINUTE);

describe('budgetRule', () => {
  it('defaults the fallback share to budget / processes and refuses shares that could overspend the key', () => {
    expect(budgetRule({ callsPerMinute: 60, maxProcesses: 4 })).toEqual({ callsPerMinute: 60, maxProcesses: 4, fallbackShare: 15, cancelReserve: 6 });
    expect(() => budgetRule({ callsPerMinute: 60, maxProcesses: 4, fallbackShare: 16 })).toThrow(/16 calls x 4 processes exceeds the key's 60/);
    expect(() => budgetRule({ callsPerMinute: 60, maxProcesses: 2, cancelReserve: 60 })).toThrow(/cancelReserve/);
    expect(() => budgetRule({ callsPerMinute: 3, maxProcesses: 4 })).toThrow(/fallbackShare/);
  });
});

describe.skipIf(!haveRedis)(haveRedis ? 'shared throttler on Redis' : `shared throttler on Redis — ${skipReason()}`, () => {
  it('several processes spend one budget atomically and resume at the next minute', async () => {
    const { clock, ps, keyPrefix } = await processes(3, { maxProcesses: 3, callsPerMinute: 30, cancelReserve: 0 });
    // Each joins the minute first (one read), so the cap is the whole budget; then all flood it at once.
    for (const p of ps) await p.call('read');
    for (const p of ps) for (let i = 0; i < 20; i++) void p.call('place');
    const total = () => ps.reduce((n, p) => n + p.count(), 0);
    await vi.waitFor(() => expect(total()).toBe(30), WAIT);
    await settle(ps);
    expect(total()).toBe(30);
    // Every process got some of the minute, and Redis holds the count under the key's hash, never the key.
    for (const p of ps) expect(p.count()).toBeGreaterThan(0);
    const keys = await dumpKeys(keyPrefix);
    expect(keys[`${keyPrefix}${budgetKeyId(API_KEY)}:used:${minuteOf(T0)}`]).toBe('30');
    expect(JSON.stringify(keys)).not.toContain(API_KEY);

    await clock.advanceTo(NEXT + 250);
    await vi.waitFor(() => expect(total()).toBe(60), WAIT);
    await settle(ps);
    expect(ps.reduce((n, p) => n + p.count(undefined, minuteOf(NEXT)), 0)).toBe(30);
    expect(ps.reduce((n, p) => n + p.throttler.stats().queued.place, 0)).toBe(3);
  });

  it("keeps a reserve for cancels: one process's flood of placements cannot starve another's cancels", async () => {
    const { ps } = await processes(2, { maxProcesses: 2, callsPerMinute: 20, cancelReserve: 5 });
    const [a, b] = ps as [ReturnType<typeof proc>, ReturnType<typeof proc>];
    await b.call('read'); // b has joined the minute: placements and reads of both may take 20 - 5
    for (let i = 0; i < 40; i++) void a.call('place');
    await vi.waitFor(() => expect(a.count('place')).toBe(14), WAIT);
    await settle(ps);
    expect(a.count('place')).toBe(14);
    void b.call('place');
    for (let i = 0; i < 5; i++) void b.call('cancel');
    await vi.waitFor(() => expect(b.count('cancel')).toBe(5), WAIT);
    await settle(ps);
    expect(b.count('place')).toBe(0);
    expect(b.throttler.stats().queued.place).toBe(1);
    expect(a.count('place') + b.count()).toBe(20); // 14 + 1 read + 5 cancels
    expect(b.throttler.stats().shared.startedByPriority.cancel).toBe(5);
  });

  it('a 429 seen by one process pauses every process until the next minute', async () => {
    const { clock, ps } = await processes(2, { maxProcesses: 2, callsPerMinute: 60 });
    const [a, b] = ps as [ReturnType<typeof proc>, ReturnType<typeof proc>];
    await a.call('read');
    a.throttler.throttled();
    expect(a.throttler.stats().pausedUntil).toBe(NEXT);
    // b hears of it from Redis on its next request, and waits too.
    const late = b.call('read');
    await vi.waitFor(() => expect(b.throttler.stats().pausedUntil).toBe(NEXT), WAIT);
    expect(b.count()).toBe(0);
    await clock.advanceTo(NEXT + 250);
    await late;
    expect(b.started[0]!.at).toBeGreaterThanOrEqual(NEXT);
  });

  it('does not start calls within the guard around a minute boundary', async () => {
    const clock = new VirtualClock(NEXT - 100);
    const { ps } = await processes(1, { maxProcesses: 1, callsPerMinute: 60, boundaryGuardMs: 250 }, clock);
    const p = ps[0]!;
    const done = p.call('read');
    await clock.advanceTo(NEXT + 250);
    await done;
    expect(p.started[0]!.at).toBe(NEXT + 250);
  });

  it('leaves a slot unused when Redis grants it too late for the minute it was counted in', async () => {
    const clock = new VirtualClock(NEXT - 300);
    const { ps, keyPrefix } = await processes(1, { maxProcesses: 1, callsPerMinute: 60, boundaryGuardMs: 250 }, clock);
    const p = ps[0]!;
    const done = p.call('read');
    // The answer for the old minute is still on its way (I/O cannot run inside advanceTo) when the minute ends.
    await clock.advanceTo(NEXT + 250);
    await done;
    expect(p.started).toEqual([{ priority: 'read', at: NEXT + 250 }]);
    const keys = await dumpKeys(keyPrefix);
    const used = (t: number) => keys[`${keyPrefix}${budgetKeyId(API_KEY)}:used:${minuteOf(t)}`];
    expect([used(NEXT - 300), used(NEXT)]).toEqual(['1', '1']);
  });

  it('a declared process that has not joined the minute holds back its fallback share until it does', async () => {
    const { clock, ps } = await processes(2, { maxProcesses: 2, callsPerMinute: 20, cancelReserve: 0, partialPollMs: 1000 });
    const [a, b] = ps as [ReturnType<typeof proc>, ReturnType<typeof proc>];
    for (let i = 0; i < 30; i++) void a.call('place');
    // Alone, a may only take 20 - 10 (b might be spending its fallback share without Redis).
    await vi.waitFor(() => expect(a.count()).toBe(10), WAIT);
    await settle(ps);
    expect(a.count()).toBe(10);
    await b.call('read'); // b joins the minute
    await clock.advance(1000); // a asks again
    await vi.waitFor(() => expect(a.count()).toBe(19), WAIT);
    await settle(ps);
    expect(a.count() + b.count()).toBe(20);
  });

  it('exposes the shared state as metrics', async () => {
    const { ps } = await processes(1, { maxProcesses: 1, callsPerMinute: 60 });
    const metrics = createMetrics();
    throttlerMetrics(ps[0]!.throttler, metrics.registry, { name: 'key1' });
    await ps[0]!.call('cancel');
    const text = await metrics.text();
    expect(text).toContain('rexbot_throttler_shared_fallback{throttler="key1"} 0');
    expect(text).toContain('rexbot_throttler_shared_calls_started_total{throttler="key1",priority="cancel"} 1');
  });
});

describe.skipIf(!haveRedis || !haveRedisServer)('shared throttler when Redis goes away (throwaway redis-server)', () => {
  async function throwaway(): Promise<ThrowawayRedis> {
    const r = await startThrowawayRedis();
    cleanups.push(() => r.kill());
    return r;
  }

  it('falls back to its local share, says so, never overspends, and returns when Redis does', async () => {
    const redis = await throwaway();
    // share = 20 / 2 = 10 a minute; cancels keep floor(2 * 10 / 20) = 1 of it, so placements get 9.
    const { clock, ps } = await processes(1, { url: redis.url, maxProcesses: 2, callsPerMinute: 20, cancelReserve: 2, probeMs: 500 });
    const a = ps[0]!;
    const metrics = createMetrics();
    throttlerMetrics(a.throttler, metrics.registry, { name: 'k' });
    await a.call('read');
    await redis.kill();
    for (let i = 0; i < 50; i++) void a.call('place');
    // The minute it already asked Redis in is not spent from the fallback: it waits for the next one.
    await vi.waitFor(() => expect(a.throttler.stats().shared.mode).toBe('fallback'), WAIT);
    expect(a.log.lines.some((l) => l.level === 'warn' && /fallback share/.test(l.msg))).toBe(true);
    expect(await metrics.text()).toContain('rexbot_throttler_shared_fallback{throttler="k"} 1');
    await settle(ps);
    expect(a.count('place', minuteOf(T0))).toBe(0);

    await clock.advanceTo(NEXT + 250);
    await vi.waitFor(() => expect(a.count('place', minuteOf(NEXT))).toBe(9), WAIT);
    void a.call('cancel');
    await vi.waitFor(() => expect(a.count('cancel', minuteOf(NEXT))).toBe(1), WAIT);
    await settle(ps);
    expect(a.count(undefined, minuteOf(NEXT))).toBe(10);

    await redis.start();
    await vi.waitFor(() => expect(a.log.lines.some((l) => /reachable again/.test(l.msg))).toBe(true), WAIT);
    // Still the fallback minute: nothing more until the boundary, then the shared budget (alone: 20 - 10 - 2).
    await settle(ps);
    expect(a.count(undefined, minuteOf(NEXT))).toBe(10);
    await clock.advanceTo(NEXT + MINUTE + 250);
    await vi.waitFor(() => expect(a.count('place', minuteOf(NEXT) + 1)).toBe(8), WAIT);
    expect(a.throttler.stats().shared.mode).toBe('shared');
    expect(a.log.lines.some((l) => /back on the shared rate budget/.test(l.msg))).toBe(true);
    expect(await metrics.text()).toContain('rexbot_throttler_shared_fallback{throttler="k"} 0');
  });

  it('a process that lost Redis while idle falls back at its next call in a new minute, and returns', async () => {
    const redis = await throwaway();
    const { clock, ps } = await processes(1, { url: redis.url, maxProcesses: 1, callsPerMinute: 10, cancelReserve: 0 });
    const a = ps[0]!;
    await a.call('read');
    await redis.kill();
    await vi.waitFor(() => expect(a.throttler.stats().shared.connected).toBe(false), WAIT);
    await clock.advanceTo(NEXT + 250);
    await a.call('read'); // from the fallback share: no Redis request was sent in this minute
    expect(a.throttler.stats().shared).toMatchObject({ mode: 'fallback', fallbacks: 1, redisErrors: 0 });
    expect(a.log.lines.find((l) => l.level === 'warn')?.obj).toMatchObject({ reason: 'redis not connected' });
    await redis.start();
    await vi.waitFor(() => expect(a.log.lines.some((l) => /reachable again/.test(l.msg))).toBe(true), WAIT);
    await clock.advanceTo(NEXT + MINUTE + 250);
    await a.call('read');
    expect(a.throttler.stats().shared.mode).toBe('shared');
  });

  it('one process cut off from Redis while another still reaches it: together they stay within the budget', async () => {
    const redis = await throwaway();
    const proxy = await tcpProxy(redis.port);
    cleanups.push(() => proxy.close());
    const clock = new VirtualClock(T0);
    const keyPrefix = uniquePrefix('partition');
    const opts = { keyPrefix, maxProcesses: 2, callsPerMinute: 20, cancelReserve: 0, probeMs: 500, partialPollMs: 1000 };
    const a = proc('a', clock, { ...opts, url: `redis://127.0.0.1:${proxy.port}` });
    const b = proc('b', clock, { ...opts, url: redis.url });
    expect(await a.throttler.connected()).toBe(true);
    expect(await b.throttler.connected()).toBe(true);
    await a.call('read');
    proxy.cut(); // a loses Redis; b keeps it
    for (let i = 0; i < 40; i++) {
      void a.call('place');
      void b.call('place');
    }
    await vi.waitFor(() => expect(a.throttler.stats().shared.mode).toBe('fallback'), WAIT);
    await settle([a, b]);
    await clock.advanceTo(NEXT + 250);
    // Next minute: a spends its share of 10 alone; b, alone in Redis, gets 20 - 10 = 10.
    await vi.waitFor(() => expect(a.count(undefined, minuteOf(NEXT))).toBe(10), WAIT);
    await vi.waitFor(() => expect(b.count(undefined, minuteOf(NEXT))).toBe(10), WAIT);
    await clock.advance(3000);
    await settle([a, b]);
    expect(a.count(undefined, minuteOf(NEXT)) + b.count(undefined, minuteOf(NEXT))).toBe(20);
    for (const m of [minuteOf(T0), minuteOf(NEXT)]) expect(a.count(undefined, m) + b.count(undefined, m)).toBeLessThanOrEqual(20);
  });
});

/** A TCP proxy to 127.0.0.1:`target` whose connections can be cut (new ones refused after). */
async function tcpProxy(target: number): Promise<{ port: number; cut(): void; close(): Promise<void> }> {
  const { connect } = await import('node:net');
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((client) => {
    if (!open) return client.destroy();
    const upstream = connect(target, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    cut() {
      open = false;
      for (const s of sockets) s.destroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
