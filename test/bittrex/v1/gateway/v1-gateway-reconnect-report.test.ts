/**
 * What the v1.1 gateway's streams tell about a lost connection, as the v3 gateway does: the gateway's logger gets
 * the loss with its reason, each retry's backoff delay and the recovery, and `resyncs$` says why the streams
 * resync (so the kernel's `streams resync` log and resync metric carry `HUB_SILENT` or `closed`, not a bare
 * `reconnect`). The v1.1 streams reconnected in silence: an operator saw nothing when the connection dropped.
 *
 * Against the simulator server on port 0; the streams run on a virtual clock the test moves only to the timers the
 * streams themselves set.
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
    fx = await startFixture();
    const clock = new VirtualClock(T0);
    const t = gateway(fx, clock, { reconnect: { initialDelayMs: 1_000, maxDelayMs: 8_000, factor: 2, jitter: 0 }, silenceTimeoutMs: SILENCE_MS });
    g = t.g;
    await g.streams.subscribe([BOOK]);
    const sim = fx.sim;
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
