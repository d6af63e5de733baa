/**
 * V1HubClient's silence watchdog against the simulator's hub c2: the classic `{}` keep-alives count as signs of
 * life (c2 has no heartbeat stream), and a connection that delivers nothing for silenceTimeoutMs is closed, its
 * `closed` event saying why, so the owner reconnects. Without it a half-open socket looked alive forever.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHubTransport, type TransportEvent } from '../../../../src/bittrex/hub/transport.js';
import { V1HubClient, type V1HubEvent } from '../../../../src/bittrex/v1/hub/v1-hub-client.js';
import { VirtualClock } from '../../../../src/core/clock.js';
import { RexbotError } from '../../../../src/core/errors.js';
import { CLASSIC_KEEP_ALIVE_INTERVAL_MS } from '../../../../src/server/hub/classic-endpoint.js';
import { V1_HUB_NAME } from '../../../../src/wire/v1/hub/protocol.js';
import { startFixture, T0, type SimFixture } from '../../../server/sim-fixture.js';

let fx: SimFixture | undefined;
let client: V1HubClient | undefined;
afterEach(async () => {
  await client?.close();
  await fx?.close();
  client = undefined;
  fx = undefined;
});

describe('V1HubClient silence watchdog', () => {
  it('counts keep-alives as life, and closes a connection silent for silenceTimeoutMs, saying why', async () => {
    // The hub's keep-alives go out when the test moves its clock, and only then.
    const hubClock = new VirtualClock(T0);
    fx = await startFixture({ server: { hubClock } });
    const clock = new VirtualClock(T0);
    const transport = createHubTransport('classic', { url: fx.sim.hubUrl, hubName: V1_HUB_NAME });
    const frames: TransportEvent['type'][] = [];
    transport.events$.subscribe((e) => frames.push(e.type));
    client = new V1HubClient({ url: fx.sim.hubUrl, transport, clock, silenceTimeoutMs: 10_000 });
    const events: V1HubEvent[] = [];
    client.events$.subscribe((e) => events.push(e));
    await client.connect();

    await clock.advance(9_000);
    await hubClock.advance(CLASSIC_KEEP_ALIVE_INTERVAL_MS);
    await vi.waitFor(() => expect(frames).toContain('keepAlive'));
    await clock.advance(9_000); // 18 s since connecting, 9 s since the keep-alive
    expect(events).toEqual([]);
    expect(fx.sim.v1Hub.connections()).toHaveLength(1);

    await clock.advance(1_000); // 10 s of silence
    expect(events).toHaveLength(1);
    const closed = events[0]!;
    expect(closed.type).toBe('closed');
    const error = closed.type === 'closed' ? closed.error : undefined;
    expect(error).toBeInstanceOf(RexbotError);
    expect(error).toMatchObject({ code: 'HUB_SILENT' });
    expect(error?.message).toMatch(/no frame from the v1\.1 hub for 10000 ms/);
    await vi.waitFor(() => expect(fx!.sim.v1Hub.connections()).toHaveLength(0));
  });

  it('refuses a silenceTimeoutMs that is not a positive number, naming it', () => {
    for (const silenceTimeoutMs of [0, -5, Number.NaN, Infinity]) {
      expect(() => new V1HubClient({ url: 'http://127.0.0.1:1/signalr', silenceTimeoutMs })).toThrow(/V1HubClient: silenceTimeoutMs must be a finite number of ms > 0/);
    }
  });
});
