/**
 * The hub client over real sockets against the simulator's hub server, in both wire flavours.
 *
 * Client and server share one VirtualClock, so heartbeats, authentication expiry, backoff and the watchdog move
 * only when the test advances time. Socket traffic is real, so the test waits for it with {@link until} (polling a
 * condition, never asserting how long anything took) and never advances the clock while a call is on the wire:
 * that keeps the client's call timeouts out of the way.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { createHubClient } from '../../../src/bittrex/hub/hub-client.js';
import type { HubClient, HubLifecycleEvent, HubMessage } from '../../../src/bittrex/hub/hub-client-types.js';
import { createHubTransport } from '../../../src/bittrex/hub/transport.js';
import { startHubServer, type HubBackend, type HubServer } from '../../../src/server/hub/index.js';
import { balancePayload, orderBookPayload } from './hub-client-harness.js';

const KEY = { apiKey: 'it-key', apiSecret: 'it-secret', accountId: '7c1f0a43-9d2e-4a51-8a0b-4b4a8b5f0c11' };

const backend: HubBackend = {
  findKey: (apiKey) => (apiKey === KEY.apiKey ? { secret: KEY.apiSecret, accountId: KEY.accountId } : undefined),
  subaccountsOf: () => [],
};

/** Wait for real socket traffic: poll `pred` on the event loop, up to a generous bound. */
async function until(pred: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 3_000; i++) {
    if (pred()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe.each(['classic', 'core'] as const)('hub client against the simulator hub (%s transport)', (kind) => {
  let clock: VirtualClock;
  let srv: HubServer;
  let client: HubClient;
  let messages: HubMessage[];
  let lifecycle: HubLifecycleEvent[];
  let errors: Error[];

  /** Advance virtual time in heartbeat-sized steps, letting each heartbeat reach the client. */
  async function live(ms: number): Promise<void> {
    for (let left = ms; left > 0; left -= 5_000) {
      const beats = messages.filter((m) => m.name === 'heartbeat').length;
      await clock.advance(Math.min(5_000, left));
      if (left >= 5_000) await until(() => messages.filter((m) => m.name === 'heartbeat').length > beats, 'a heartbeat');
    }
  }

  beforeEach(async () => {
    clock = new VirtualClock(Date.parse('2021-06-14T00:00:00Z'));
    srv = await startHubServer({ backend, clock });
    const url = kind === 'classic' ? srv.classicUrl : srv.coreUrl;
    client = createHubClient({
      transport: () => createHubTransport(kind, { url }),
      credentials: { apiKey: KEY.apiKey, apiSecret: KEY.apiSecret },
      clock,
      authRenewAfterMs: 60_000,
      reconnect: { initialDelayMs: 1_000, maxDelayMs: 8_000, factor: 2, jitter: 0 },
    });
    messages = [];
    lifecycle = [];
    errors = [];
    client.messages$.subscribe((m) => messages.push(m));
    client.lifecycle$.subscribe((e) => lifecycle.push(e));
    client.errors$.subscribe((e) => errors.push(e));
  });

  afterEach(async () => {
    await client.stop();
    await srv.close();
  });

  it('authenticates, subscribes, and receives published messages decoded', async () => {
    await client.start();
    const results = await client.subscribe(['orderbook_BTC-USD_25', 'balance', 'not_a_channel']);
    expect(results.map((r) => r.success)).toEqual([true, true, false]);
    const refused = results[2]!;
    expect(!refused.success && refused.error.errorCode).toBe('INVALID_CHANNEL');

    const [conn] = srv.hub.connections();
    expect(conn?.accountId).toBe(KEY.accountId);
    expect(conn?.subscriptions).toEqual(['heartbeat', 'orderbook_BTC-USD_25', 'balance']);

    srv.hub.publish('orderbook_BTC-USD_25', 'orderBook', orderBookPayload(12) as object);
    srv.hub.publish('balance', 'balance', balancePayload(3) as object, { accountId: KEY.accountId });
    await until(() => messages.filter((m) => m.name !== 'heartbeat').length >= 2, 'both pushes');

    const book = messages.find((m) => m.name === 'orderBook');
    expect(book).toMatchObject({ channel: 'orderbook_BTC-USD_25', epoch: 1 });
    expect(book?.name === 'orderBook' && book.message.sequence).toBe(12);
    const balance = messages.find((m) => m.name === 'balance');
    expect(balance?.name === 'balance' && balance.message.delta.total.toString()).toBe('1');

    await live(15_000);
    expect(messages.filter((m) => m.name === 'heartbeat').length).toBeGreaterThanOrEqual(3);
    expect(errors.filter((e) => !('channel' in e))).toEqual([]);
  });

  it('survives closeAll() by reconnecting, re-authenticating and resubscribing', async () => {
    await client.start();
    await client.subscribe(['trade_BTC-USD', 'order']);
    const statuses: string[] = [];
    client.status$.subscribe((s) => statuses.push(s.state));

    srv.hub.closeAll();
    await until(() => statuses.includes('reconnecting'), 'the client to notice the drop');
    await clock.advance(1_000); // the first backoff delay
    await until(() => lifecycle.some((e) => e.type === 'reconnected'), 'the reconnection');

    expect(client.connectionEpoch).toBe(2);
    const [conn] = srv.hub.connections();
    expect(conn?.accountId).toBe(KEY.accountId);
    expect(conn?.subscriptions).toEqual(['heartbeat', 'trade_BTC-USD', 'order']);

    srv.hub.publish('orderbook_BTC-USD_25', 'orderBook', orderBookPayload(1) as object); // not subscribed
    srv.hub.publish(
      'trade_BTC-USD',
      'trade',
      {
        sequence: 5,
        marketSymbol: 'BTC-USD',
        deltas: [{
          id: 'a4b1f6c2-2f5e-4f8b-9d53-0c1c7e8f9a10', executedAt: '2021-06-14T00:00:02Z',
          quantity: '0.01000000', rate: '35000.00000000', takerSide: 'BUY',
        }],
      },
    );
    await until(() => messages.some((m) => m.name === 'trade'), 'the trade push');
    expect(messages.find((m) => m.name === 'trade')).toMatchObject({ epoch: 2, channel: 'trade_BTC-USD' });
    expect(messages.some((m) => m.name === 'orderBook')).toBe(false);
  });

  it('renews after expireAuth and gets the cancelled private streams back', async () => {
    await client.start();
    await client.subscribe(['balance', 'ticker_BTC-USD']);
    srv.hub.expireAuth();
    expect(srv.hub.connections()[0]?.subscriptions).toEqual(['heartbeat', 'ticker_BTC-USD']);

    await live(60_000); // the client's renewal timer (authRenewAfterMs) fires on the way
    await until(() => lifecycle.some((e) => e.type === 'resubscribed'), 'the private resubscription');

    expect(lifecycle.find((e) => e.type === 'resubscribed')).toMatchObject({ channels: ['balance'], epoch: 1 });
    const [conn] = srv.hub.connections();
    expect(conn?.accountId).toBe(KEY.accountId);
    expect(conn?.subscriptions).toContain('balance');
    srv.hub.publish('balance', 'balance', balancePayload(4) as object, { accountId: KEY.accountId });
    await until(() => messages.some((m) => m.name === 'balance'), 'the balance push');
    expect(client.connectionEpoch).toBe(1);
  });
});
