/**
 * The v1.1 gateway's streams against a flapping or silently dead hub c2 (the simulator server, over loopback):
 * a server that drops every connection as soon as it is up is reconnected to with a growing backoff, not once a
 * second forever; a connection that goes silent (no keep-alive, no callback) is closed and replaced, on a new
 * epoch, so every book resyncs. Found by an attack pass: v1.1 reconnected after a fixed 1 s and never noticed a
 * half-open socket, trading on a stale book.
 *
 * And what they tell about it, as the v3 gateway does: the gateway's logger gets the loss with its reason, each
 * retry's backoff delay and the recovery, and `resyncs$` says why the streams resync (so the kernel's `streams
 * resync` log and resync metric carry `HUB_SILENT` or `closed`, not a bare `reconnect`). They used to reconnect in
 * silence: an operator saw nothing when the connection dropped.
 *
 * The streams run on a virtual clock; the test moves it only to the timer the streams themselves set.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createV1Gateway, type V1Gateway } from '../../../../src/bittrex/v1/gateway/v1-gateway.js';
import type { StreamResyncNotice } from '../../../../src/gateway/exchange-gateway.js';
import { VirtualClock } from '../../../../src/core/clock.js';
import { startFixture, T0, type SimFixture } from '../../../server/sim-fixture.js';

const BOOK = 'orderbook_BTC-USD_25';
/** Far beyond any backoff below, so the watchdog's timer is never taken for the reconnect timer. */
const SILENCE_MS = 60_000;
/** Real connections on a machine others share: give each awaited step time, it ends as soon as it holds. */
const WAIT = { timeout: 10_000, interval: 20 };

let fx: SimFixture | undefined;
let g: V1Gateway | undefined;
afterEach(async () => {
  await g?.close();
  await fx?.close();
  g = undefined;
  fx = undefined;
});

interface LogRecord { level: 'debug' | 'info' | 'warn'; msg: string; obj: Record<string, unknown> }

function gateway(f: SimFixture, clock: VirtualClock, hub: Parameters<typeof createV1Gateway>[0]['hub']) {
  const logs: LogRecord[] = [];
  const logger = {
    debug: (obj: Record<string, unknown>, msg: string) => logs.push({ level: 'debug', msg, obj }),
    info: (obj: Record<string, unknown>, msg: string) => logs.push({ level: 'info', msg, obj }),
    warn: (obj: Record<string, unknown>, msg: string) => logs.push({ level: 'warn', msg, obj }),
  };
  const made = createV1Gateway({ restUrl: f.sim.restV1Url, hubUrl: f.sim.hubUrl, clock, hub, logger });
  const epochs: number[] = [];
  const resyncs: StreamResyncNotice[] = [];
  made.streams.connectionEpoch$.subscribe((e) => epochs.push(e));
  made.streams.resyncs$.subscribe((n) => resyncs.push(n));
  return { g: made, logs, epochs, resyncs };
}

/** The connection records in order, each as `level msg` plus the fields an operator reads. */
function lines(logs: readonly LogRecord[]): string[] {
  return logs.map(({ level, msg, obj }) => {
    const fields = ['epoch', 'reason', 'attempt', 'delay'].filter((k) => obj[k] !== undefined).map((k) => `${k}=${String(obj[k])}`);
    return [level, msg, ...fields].join(' ');
  });
}

/** A simulator and streams following BOOK, backing off 1, 2, 4, 8, 8 s; the test decides when the hub drops them. */
async function flappable() {
  const f = (fx = await startFixture());
  const clock = new VirtualClock(T0);
  const t = gateway(f, clock, { reconnect: { initialDelayMs: 1_000, maxDelayMs: 8_000, factor: 2, jitter: 0 }, silenceTimeoutMs: SILENCE_MS });
  g = t.g;
  await g.streams.subscribe([BOOK]);
  return { clock, t, sim: f.sim };
}

describe('v1.1 gateway streams', () => {
  it('back off more and more from a hub that drops every connection as soon as it is up', async () => {
    const { clock, t, sim } = await flappable();
    // From now on the hub accepts each connection, answers its calls, and drops it once it is set up.
    t.g.streams.connectionEpoch$.subscribe(() => setImmediate(() => sim.v1Hub.closeAll()));
    sim.v1Hub.closeAll();

    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      // The reconnect timer is set once the loss is noticed (until then only the watchdog's, SILENCE_MS away).
      await vi.waitFor(() => expect((clock.nextTimerAt() ?? Infinity) - clock.now()).toBeLessThan(SILENCE_MS), WAIT);
      delays.push(clock.nextTimerAt()! - clock.now());
      const epoch = t.epochs.at(-1)!;
      await clock.advanceTo(clock.nextTimerAt()!);
      await vi.waitFor(() => expect(t.epochs.at(-1)).toBeGreaterThan(epoch), WAIT);
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 8_000]);
  });

  it('close a connection that falls silent (no keep-alive, no callback) and resync on a new one', async () => {
    // The hub's keep-alives run on a clock nobody moves: the socket stays open and says nothing, as a half-open one.
    fx = await startFixture({ server: { hubClock: new VirtualClock(T0) } });
    const clock = new VirtualClock(T0);
    const t = gateway(fx, clock, { reconnect: { jitter: 0 } });
    g = t.g;
    await g.streams.subscribe([BOOK]);
    expect(t.epochs.at(-1)).toBe(1);
    const [silent] = fx.sim.v1Hub.connections().map((c) => c.id);

    await clock.advance(20_000); // the default silence timeout: the classic KeepAliveTimeout
    // Closed for its silence; what the streams wait for now is their reconnect's backoff.
    await vi.waitFor(() => expect(clock.nextTimerAt()).toBeDefined(), WAIT);
    await clock.advanceTo(clock.nextTimerAt()!);
    await vi.waitFor(() => expect(t.epochs.at(-1)).toBe(2), WAIT);
    const now = fx.sim.v1Hub.connections();
    expect(now.map((c) => c.id)).not.toContain(silent);
    expect(now).toHaveLength(1);
    expect(now[0]!.markets).toEqual(['USD-BTC']); // the followed market, subscribed again on the new connection
    const book = await g.orderBook('BTC-USD', 25);
    expect(book.sequence).toBeGreaterThan(0);
  });
});

describe('v1.1 gateway streams report their connection', () => {
  it('log a silent connection closed (HUB_SILENT), the retry and its delay, and the recovery; resync saying why', async () => {
    // The hub's keep-alives run on a clock nobody moves: the socket stays open and says nothing, as a half-open one.
    fx = await startFixture({ server: { hubClock: new VirtualClock(T0) } });
    const clock = new VirtualClock(T0);
    const t = gateway(fx, clock, { reconnect: { initialDelayMs: 1_000, jitter: 0 } });
    g = t.g;
    await g.streams.subscribe([BOOK]);
    expect(lines(t.logs)).toEqual(['info hub connected epoch=1']);

    await clock.advance(20_000); // the default silence timeout
    await vi.waitFor(() => expect(t.logs.length).toBe(3), WAIT);
    await clock.advanceTo(clock.nextTimerAt()!);
    await vi.waitFor(() => expect(t.epochs.at(-1)).toBe(2), WAIT);

    expect(lines(t.logs)).toEqual([
      'info hub connected epoch=1',
      'warn hub connection lost epoch=1 reason=HUB_SILENT',
      'info hub reconnecting reason=HUB_SILENT attempt=1 delay=1000',
      'info hub reconnected epoch=2 reason=HUB_SILENT',
    ]);
    expect(String(t.logs[1]!.obj.error)).toMatch(/no frame from the v1\.1 hub/);
    expect(t.resyncs).toEqual([{ reason: 'HUB_SILENT', epoch: 2 }]);
  });

  it('log each drop of a flapping hub (socket closed) with the growing delay of its retry', async () => {
    const { clock, t, sim } = await flappable();
    // Drop the first connection, and the next one once it is set up; the third stays.
    t.g.streams.connectionEpoch$.subscribe((e) => {
      if (e === 2) setImmediate(() => sim.v1Hub.closeAll());
    });
    sim.v1Hub.closeAll();
    for (const epoch of [2, 3]) {
      await vi.waitFor(() => expect((clock.nextTimerAt() ?? Infinity) - clock.now()).toBeLessThan(SILENCE_MS), WAIT);
      await clock.advanceTo(clock.nextTimerAt()!);
      await vi.waitFor(() => expect(t.epochs.at(-1)).toBe(epoch), WAIT);
    }

    expect(lines(t.logs)).toEqual([
      'info hub connected epoch=1',
      'warn hub connection lost epoch=1 reason=closed',
      'info hub reconnecting reason=closed attempt=1 delay=1000',
      'info hub reconnected epoch=2 reason=closed',
      'warn hub connection lost epoch=2 reason=closed',
      'info hub reconnecting reason=closed attempt=1 delay=2000',
      'info hub reconnected epoch=3 reason=closed',
    ]);
    expect(t.resyncs).toEqual([{ reason: 'closed', epoch: 2 }, { reason: 'closed', epoch: 3 }]);
  });
});
