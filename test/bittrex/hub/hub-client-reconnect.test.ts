import { afterEach, describe, expect, it } from 'vitest';
import { HubClientStoppedError, HubConnectionLostError } from '../../../src/bittrex/hub/hub-errors.js';
import { HubConnectError } from '../../../src/bittrex/hub/transport.js';
import { HANG } from './fake-transport.js';
import { harness, orderBookPayload, type Harness } from './hub-client-harness.js';

let h: Harness;
afterEach(async () => {
  await h?.client.stop();
});

describe('hub client: heartbeat watchdog', () => {
  it('keeps a connection that sends heartbeats, and replaces one that falls silent', async () => {
    h = harness();
    const beat = h.heartbeats();
    await h.client.start();
    await h.client.subscribe(['orderbook_BTC-USD_25', 'order']);
    await h.clock.advance(5 * 60_000);
    expect(h.hub.transports).toHaveLength(1);

    beat.cancel(); // the connection goes half-open: nothing arrives any more
    await h.clock.advance(14_000);
    expect(h.hub.transports).toHaveLength(1); // 3 × 5 s have not passed yet
    await h.clock.advance(10_000);

    expect(h.hub.transports).toHaveLength(2);
    expect(h.hub.transports[0]!.closed).toBe(true);
    expect(h.errors.some((e) => e instanceof HubConnectionLostError && e.reason === 'watchdog')).toBe(true);
    expect(h.hub.calls('Authenticate', 1)).toHaveLength(1);
    expect(h.hub.calls('Subscribe', 1).map((c) => c.args)).toEqual([[['heartbeat', 'orderbook_BTC-USD_25', 'order']]]);
    expect(h.client.connectionEpoch).toBe(2);
    expect(h.lifecycle.at(-1)).toMatchObject({ type: 'reconnected', epoch: 2, attempts: 1, reason: 'watchdog' });
  });

  it('counts any message as a sign of life, and honours watchdogMultiple', async () => {
    h = harness({ watchdogMultiple: 2 });
    await h.client.start();
    await h.client.subscribe(['orderbook_BTC-USD_25']);
    for (let seq = 1; seq <= 30; seq++) {
      h.hub.publish('orderbook_BTC-USD_25', 'orderBook', orderBookPayload(seq));
      await h.clock.advance(9_000);
    }
    expect(h.hub.transports).toHaveLength(1);
    await h.clock.advance(11_000);
    expect(h.hub.transports.length).toBeGreaterThan(1);
  });
});

describe('hub client: reconnect', () => {
  it('reconnects after the server closes, resubscribing everything, including channels asked for meanwhile', async () => {
    h = harness();
    h.heartbeats();
    await h.client.start();
    await h.client.subscribe(['trade_BTC-USD', 'balance']);
    const reconnects: number[] = [];
    h.client.reconnects$.subscribe((e) => reconnects.push(e.epoch));

    h.hub.current.serverClose(new Error('socket reset'));
    expect(h.statuses.at(-1)).toEqual({ state: 'reconnecting', attempt: 1, reason: 'closed' });
    const late = h.client.subscribe(['orderbook_ETH-USD_500']);

    await h.clock.advance(2_000);
    expect(await late).toEqual([{ channel: 'orderbook_ETH-USD_500', success: true }]);
    expect(h.hub.calls('Subscribe', 1).map((c) => c.args)).toEqual([
      [['heartbeat', 'trade_BTC-USD', 'balance', 'orderbook_ETH-USD_500']],
    ]);
    expect(h.hub.current.authenticated).toBe(true);
    expect(reconnects).toEqual([2]);
    expect(h.client.stats.reconnects).toBe(1);

    h.hub.publish('orderbook_ETH-USD_500', 'orderBook', orderBookPayload(9, 'ETH-USD', 500));
    expect(h.messages.at(-1)).toMatchObject({ name: 'orderBook', epoch: 2, channel: 'orderbook_ETH-USD_500' });
  });

  it('backs off exponentially up to the cap, and starts again from the initial delay after a success', async () => {
    h = harness({ reconnect: { initialDelayMs: 1_000, maxDelayMs: 4_000, factor: 2, jitter: 0 } });
    h.heartbeats();
    await h.client.start();
    h.hub.connectOutcomes.push('fail', 'fail', 'fail', 'fail');

    const lostAt = h.clock.now();
    h.hub.current.serverClose();
    await h.clock.advance(60_000);
    const gaps = h.attemptsAt.slice(1).map((t, i) => t - (i === 0 ? lostAt : h.attemptsAt[i]!));
    expect(gaps).toEqual([1_000, 2_000, 4_000, 4_000, 4_000]);
    expect(h.statuses.filter((s) => s.state === 'reconnecting').map((s) => s.state === 'reconnecting' && s.attempt)).toEqual([1, 2, 3, 4, 5]);
    expect(h.errors.filter((e) => e instanceof HubConnectError)).toHaveLength(4);
    expect(h.statuses.at(-1)).toMatchObject({ state: 'authenticated', epoch: 2 });

    const lostAgainAt = h.clock.now();
    h.hub.current.serverClose();
    await h.clock.advance(60_000);
    expect(h.attemptsAt.at(-1)! - lostAgainAt).toBe(1_000);
  });

  it('keeps backing off from a server that drops every connection as soon as it is up', async () => {
    h = harness({ reconnect: { initialDelayMs: 1_000, maxDelayMs: 16_000, factor: 2, jitter: 0 } });
    h.heartbeats();
    await h.client.start();
    // Accepts, authenticates and subscribes every connection, then drops it: each one reaches "ready".
    h.client.lifecycle$.subscribe((e) => e.type === 'reconnected' && queueMicrotask(() => h.hub.current.serverClose()));
    const lostAt = h.clock.now();
    h.hub.current.serverClose();
    await h.clock.advance(120_000);
    const gaps = h.attemptsAt.slice(1).map((t, i) => t - (i === 0 ? lostAt : h.attemptsAt[i]!));
    expect(gaps).toEqual([1_000, 2_000, 4_000, 8_000, ...Array<number>(6).fill(16_000)]); // 111 s of the 120
    expect(h.client.stats.reconnects).toBe(gaps.length);
  });

  it('starts the backoff over only for a connection that stayed up for stableAfterMs', async () => {
    h = harness({ reconnect: { initialDelayMs: 1_000, maxDelayMs: 30_000, factor: 2, jitter: 0, stableAfterMs: 10_000 } });
    h.heartbeats();
    await h.client.start();
    const delayAfterLoss = async (upMs: number): Promise<number> => {
      await h.clock.advance(upMs);
      const lostAt = h.clock.now();
      const before = h.attemptsAt.length;
      h.hub.current.serverClose();
      while (h.attemptsAt.length === before) await h.clock.advance(100);
      return h.attemptsAt.at(-1)! - lostAt;
    };
    expect(await delayAfterLoss(60_000)).toBe(1_000); // the first connection proved itself
    expect(await delayAfterLoss(9_000)).toBe(2_000); // up 9 s: not yet stable, the outage goes on
    expect(await delayAfterLoss(5_000)).toBe(4_000);
    expect(await delayAfterLoss(10_000)).toBe(1_000); // up 10 s: stable, a new outage starts from the beginning
  });

  it('applies jitter from the injected random source, never beyond the cap', async () => {
    h = harness({ reconnect: { initialDelayMs: 1_000, maxDelayMs: 2_000, factor: 2, jitter: 0.5 }, random: () => 0.5 });
    h.heartbeats();
    await h.client.start();
    h.hub.connectOutcomes.push('fail', 'fail');
    const lostAt = h.clock.now();
    h.hub.current.serverClose();
    await h.clock.advance(60_000);
    const gaps = h.attemptsAt.slice(1).map((t, i) => t - (i === 0 ? lostAt : h.attemptsAt[i]!));
    expect(gaps).toEqual([750, 1_500, 1_500]);
  });

  it('logs each retry\'s delay before waiting it and each failed attempt, as the v1.1 streams do', async () => {
    // The v3 client used to say a retry's delay only once that attempt had failed: while it waited, and for the
    // attempt that then succeeded, the log never said when the next try would come.
    const logs: string[] = [];
    const record = (level: string) => (obj: Record<string, unknown>, msg: string) => {
      const fields = ['epoch', 'attempt', 'delay', 'reason'].filter((k) => obj[k] !== undefined).map((k) => `${k}=${String(obj[k])}`);
      logs.push([level, msg, ...fields].join(' '));
    };
    const logger = { debug: () => undefined, info: record('info'), warn: record('warn') };
    h = harness({ reconnect: { initialDelayMs: 1_000, maxDelayMs: 30_000, factor: 2, jitter: 0 }, logger });
    h.heartbeats();
    await h.client.start();
    h.hub.connectOutcomes.push('fail');
    h.hub.current.serverClose();
    expect(logs).toEqual(['info hub connected epoch=1', 'warn hub connection lost epoch=1 reason=closed', 'info hub reconnecting attempt=1 delay=1000 reason=closed']);

    await h.clock.advance(60_000);
    const failure = h.errors.find((e) => e instanceof HubConnectError)!.code;
    expect(logs.slice(2)).toEqual([
      'info hub reconnecting attempt=1 delay=1000 reason=closed',
      `warn hub reconnect attempt failed attempt=1 reason=${failure}`,
      `info hub reconnecting attempt=2 delay=2000 reason=${failure}`,
      'info hub reconnected epoch=2 reason=closed',
    ]);
  });

  it('gives up a connection whose call is never answered, and answers the caller from the next one', async () => {
    h = harness({ invokeTimeoutMs: 10_000 });
    h.heartbeats();
    await h.client.start();
    h.hub.handlers.set('Subscribe', (args, t) => {
      if (t === h.hub.transports[0]) return HANG;
      h.hub.handlers.delete('Subscribe');
      return (args[0] as string[]).map(() => ({ Success: true }));
    });
    const pending = h.client.subscribe(['ticker_BTC-USD']);
    await h.clock.advance(15_000);

    expect(await pending).toEqual([{ channel: 'ticker_BTC-USD', success: true }]);
    expect(h.hub.transports).toHaveLength(2);
    expect(h.errors.some((e) => e instanceof HubConnectionLostError && e.reason === 'Subscribe-timeout')).toBe(true);
  });

  it('counts a connect that never completes as a failed attempt', async () => {
    h = harness({ connectTimeoutMs: 5_000 });
    h.heartbeats();
    await h.client.start();
    h.hub.connectOutcomes.push('hang');
    h.hub.current.serverClose();
    await h.clock.advance(30_000);
    expect(h.hub.transports).toHaveLength(3);
    expect(h.hub.transports[1]!.closed).toBe(true);
    expect(h.client.connectionEpoch).toBe(2);
  });

  it('rejects start() when the first connection cannot be opened, without retrying', async () => {
    h = harness();
    h.hub.connectOutcomes.push('fail');
    await expect(h.client.start()).rejects.toBeInstanceOf(HubConnectError);
    expect(h.clock.pendingTimers).toBe(0);
    await h.clock.advance(60_000);
    expect(h.hub.transports).toHaveLength(1);
    // A later start() is a fresh try.
    await h.client.start();
    expect(h.statuses.at(-1)).toMatchObject({ state: 'authenticated' });
  });
});

describe('hub client: stop', () => {
  it('stop() cancels every timer and pending reconnect, and rejects waiting subscribe calls', async () => {
    h = harness();
    const beat = h.heartbeats();
    await h.client.start();
    await h.client.subscribe(['order']);
    h.hub.current.serverClose();
    const waiting = h.client.subscribe(['trade_BTC-USD']);
    expect(h.statuses.at(-1)).toMatchObject({ state: 'reconnecting' });

    await h.client.stop();
    beat.cancel();
    await expect(waiting).rejects.toBeInstanceOf(HubClientStoppedError);
    expect(h.clock.pendingTimers).toBe(0);
    await h.clock.advance(10 * 60_000);
    expect(h.hub.transports).toHaveLength(1);
    expect(h.statuses.at(-1)).toEqual({ state: 'stopped' });
  });

  it('stop() on a live connection closes it quietly: no watchdog, renewal or reconnect afterwards', async () => {
    h = harness();
    await h.client.start();
    await h.client.stop();
    expect(h.hub.current.closed).toBe(true);
    expect(h.clock.pendingTimers).toBe(0);
    expect(h.errors).toEqual([]);

    // Started again, it connects afresh with the channels it remembers.
    const sub = h.client.subscribe(['trade_BTC-USD']); // remembered while stopped, answered once connected
    await h.client.start();
    expect(await sub).toEqual([{ channel: 'trade_BTC-USD', success: true }]);
    expect(h.hub.transports).toHaveLength(2);
    expect(h.hub.calls('Subscribe', 1)[0]!.args).toEqual([['heartbeat', 'trade_BTC-USD']]);
    expect(h.client.connectionEpoch).toBe(2);
  });

  it('stop() during start() rejects start with HubClientStoppedError', async () => {
    h = harness();
    h.hub.connectOutcomes.push('hang');
    const starting = h.client.start();
    await h.client.stop();
    await expect(starting).rejects.toBeInstanceOf(HubClientStoppedError);
    expect(h.clock.pendingTimers).toBe(0);
  });
});
