/**
 * V1BookSync waits the bot's backoff between connections (the v3 hub client's ReconnectPolicy): a book resync that
 * keeps failing is tried again after growing, capped, jittered delays, which start over once the books were in step
 * on a connection that stayed up; each resync is reported and logged with its reason and that delay. It used to try
 * again after a fixed 1 s, forever: a hub whose subscribe or snapshot kept failing was asked once a second.
 *
 * Over HTTP on loopback: the simulator server, and a server that answers every request 503. The hub clients run
 * on the system clock, the synchronizer on a virtual one that the test moves only to the retry timer it set, so
 * the time of each attempt is exactly the delay the synchronizer chose.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { V1BookSync, type V1BookSyncEvent, type V1BookSyncOptions } from '../../../../src/bittrex/v1/hub/v1-book-sync.js';
import { V1HubClient } from '../../../../src/bittrex/v1/hub/v1-hub-client.js';
import { VirtualClock } from '../../../../src/core/clock.js';
import { startFixture, type SimFixture } from '../../../server/sim-fixture.js';

/** Real connections on a machine others share: each awaited step ends as soon as it holds. */
const WAIT = { timeout: 10_000, interval: 10 };

let fx: SimFixture | undefined;
let down: Server | undefined;
let sync: V1BookSync | undefined;
afterEach(async () => {
  await sync?.stop();
  await fx?.close();
  if (down) await new Promise<void>((resolve) => down!.close(() => resolve()));
  sync = undefined;
  fx = undefined;
  down = undefined;
});

/** A synchronizer on a virtual clock, with what it reports, logs, and the clock time of each connection made. */
function follow(markets: string[], url: (n: number) => string, opts: Partial<V1BookSyncOptions>) {
  const clock = new VirtualClock(0);
  const events: Extract<V1BookSyncEvent, { type: 'resync' }>[] = [];
  const logs: string[] = [];
  const attemptsAt: number[] = [];
  const record = (level: string) => (obj: Record<string, unknown>, msg: string) => {
    const fields = ['reason', 'attempt', 'delay'].filter((k) => obj[k] !== undefined).map((k) => `${k}=${String(obj[k])}`);
    logs.push([level, msg, ...fields].join(' '));
  };
  const s = new V1BookSync({
    markets,
    clock,
    newClient: () => {
      attemptsAt.push(clock.now());
      return new V1HubClient({ url: url(attemptsAt.length) });
    },
    logger: { debug: () => undefined, info: record('info'), warn: record('warn') },
    ...opts,
  });
  s.events$.subscribe((e) => e.type === 'resync' && events.push(e));
  sync = s;
  s.start();
  const resyncs = () => events;
  /** Wait for resync number `n`, then move the clock to the retry it set. */
  const retry = async (n: number) => {
    await vi.waitFor(() => expect(resyncs()).toHaveLength(n), WAIT);
    await clock.advanceTo(clock.nextTimerAt()!);
  };
  const gaps = () => attemptsAt.slice(1).map((t, i) => t - attemptsAt[i]!);
  return { clock, events, logs, attemptsAt, resyncs, retry, gaps };
}

describe('V1BookSync backoff', () => {
  it('asks a hub whose subscription keeps failing again after growing, capped, jittered delays, each logged', async () => {
    fx = await startFixture();
    const t = follow(['USD-NOPE'], () => fx!.sim.hubUrl, {
      reconnect: { initialDelayMs: 1_000, maxDelayMs: 4_000, factor: 2, jitter: 0.5 },
      random: () => 0.5,
    });
    for (let n = 1; n <= 5; n++) await t.retry(n);

    expect(t.gaps()).toEqual([750, 1_500, 3_000, 3_000, 3_000]); // 1 s, 2 s, 4 s capped at 4 s, less 25 % jitter
    expect(t.resyncs().map(({ cause, attempt, delayMs }) => ({ cause, attempt, delayMs }))).toEqual([
      { cause: 'connect-failed', attempt: 1, delayMs: 750 },
      { cause: 'connect-failed', attempt: 2, delayMs: 1_500 },
      { cause: 'connect-failed', attempt: 3, delayMs: 3_000 },
      { cause: 'connect-failed', attempt: 4, delayMs: 3_000 },
      { cause: 'connect-failed', attempt: 5, delayMs: 3_000 },
    ]);
    expect(t.resyncs()[0]!.detail).toMatch(/SubscribeToExchangeDeltas\(USD-NOPE\) answered false/);
    expect(t.logs.slice(0, 3)).toEqual([
      'warn books resyncing reason=connect-failed attempt=1 delay=750',
      'warn books resyncing reason=connect-failed attempt=2 delay=1500',
      'warn books resyncing reason=connect-failed attempt=3 delay=3000',
    ]);

    await sync!.stop();
    expect(t.clock.pendingTimers).toBe(0); // the pending retry is cancelled, not left to fire
  });

  it('starts the delays over once the books were in step on a connection that stayed up for stableAfterMs', async () => {
    fx = await startFixture();
    let refused = 0;
    down = createServer((_req, res) => {
      refused++;
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('down for maintenance');
    });
    await new Promise<void>((resolve) => down!.listen(0, '127.0.0.1', resolve));
    const downUrl = `http://127.0.0.1:${(down.address() as AddressInfo).port}/signalr`;
    // The first three connections reach the failing server, the next ones the simulator.
    const t = follow(['USD-BTC'], (n) => (n <= 3 ? downUrl : fx!.sim.hubUrl), {
      reconnect: { initialDelayMs: 1_000, maxDelayMs: 30_000, factor: 2, jitter: 0, stableAfterMs: 10_000 },
    });
    for (let n = 1; n <= 3; n++) await t.retry(n);
    await vi.waitFor(() => expect(sync!.book('USD-BTC')).toBeDefined(), WAIT);
    expect(refused).toBe(3); // once per attempt, not hammered
    expect(t.gaps()).toEqual([1_000, 2_000, 4_000]);

    // Dropped as soon as it was in step: the outage goes on, the delay keeps growing.
    const dropCurrent = () => fx!.sim.v1Hub.close(fx!.sim.v1Hub.connections()[0]!.id);
    await vi.waitFor(() => expect(fx!.sim.v1Hub.connections()).toHaveLength(1), WAIT);
    dropCurrent();
    await t.retry(4);
    await vi.waitFor(() => expect(sync!.book('USD-BTC')).toBeDefined(), WAIT);
    // In step for 10 s, then dropped: a fresh outage, from the initial delay.
    await t.clock.advance(10_000);
    await vi.waitFor(() => expect(fx!.sim.v1Hub.connections()).toHaveLength(1), WAIT);
    dropCurrent();
    await t.retry(5);
    await vi.waitFor(() => expect(sync!.book('USD-BTC')).toBeDefined(), WAIT);

    expect(t.resyncs().map(({ cause, attempt, delayMs }) => `${cause} ${attempt} ${delayMs}`)).toEqual([
      'connect-failed 1 1000', 'connect-failed 2 2000', 'connect-failed 3 4000', 'closed 4 8000', 'closed 1 1000',
    ]);
    expect(t.resyncs()[0]!.detail).toMatch(/503/);
    expect(t.logs).toEqual([
      'warn books resyncing reason=connect-failed attempt=1 delay=1000',
      'warn books resyncing reason=connect-failed attempt=2 delay=2000',
      'warn books resyncing reason=connect-failed attempt=3 delay=4000',
      'info books in step again reason=connect-failed',
      'warn books resyncing reason=closed attempt=4 delay=8000',
      'info books in step again reason=closed',
      'warn books resyncing reason=closed attempt=1 delay=1000',
      'info books in step again reason=closed',
    ]);
  });
});
