import { afterEach, describe, expect, it } from 'vitest';
import { encodePayload } from '../../../src/bittrex/hub/codec.js';
import type { HubMessage } from '../../../src/bittrex/hub/hub-client-types.js';
import { HubAuthError, HubMessageDecodeError, HubSubscriptionError } from '../../../src/bittrex/hub/hub-errors.js';
import { balancePayload, CREDS, harness, orderBookPayload, type Harness } from './hub-client-harness.js';

let h: Harness;
afterEach(async () => {
  await h?.client.stop();
});

describe('hub client: connect, authenticate, subscribe', () => {
  it('authenticates with a signed Authenticate from the clock, then subscribes heartbeat and the remembered channels', async () => {
    h = harness();
    const pending = h.client.subscribe(['orderbook_BTC-USD_25', 'order']);
    await h.client.start();

    const [auth] = h.hub.calls('Authenticate');
    expect(auth).toBeDefined();
    const [apiKey, timestamp, randomContent] = auth!.args;
    expect(apiKey).toBe(CREDS.apiKey);
    expect(timestamp).toBe(auth!.at); // a number taken from the injected clock
    expect(randomContent).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(h.hub.current.authenticated).toBe(true); // the fake verified the HMAC

    const subs = h.hub.calls('Subscribe');
    expect(subs).toHaveLength(1);
    expect(subs[0]!.args).toEqual([['heartbeat', 'orderbook_BTC-USD_25', 'order']]);
    expect(h.hub.invocations.indexOf(auth!)).toBeLessThan(h.hub.invocations.indexOf(subs[0]!));

    expect(await pending).toEqual([
      { channel: 'orderbook_BTC-USD_25', success: true },
      { channel: 'order', success: true },
    ]);
    expect(h.statuses.map((s) => s.state)).toEqual(['stopped', 'connecting', 'connected', 'authenticated']);
    expect(h.lifecycle.map((e) => e.type)).toEqual(['authenticated', 'connected']);
    expect(h.client.connectionEpoch).toBe(1);
    expect(h.client.channels).toEqual(['orderbook_BTC-USD_25', 'order']);
  });

  it('rejects start() with a typed HubAuthError carrying the ErrorCode and stays stopped', async () => {
    h = harness({ credentials: { apiKey: 'unknown-key', apiSecret: 'x' } });
    const err = await h.client.start().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HubAuthError);
    expect((err as HubAuthError).errorCode).toBe('INVALID_APIKEY');
    expect(h.statuses.at(-1)).toEqual({ state: 'stopped' });
    expect(h.hub.current.closed).toBe(true);
    expect(h.clock.pendingTimers).toBe(0);
    await h.clock.advance(10 * 60_000);
    expect(h.hub.transports).toHaveLength(1); // no retry in the background
  });

  it('reports a wrong secret as INVALID_SIGNATURE', async () => {
    h = harness({ credentials: { apiKey: CREDS.apiKey, apiSecret: 'wrong' } });
    const err = await h.client.start().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HubAuthError);
    expect((err as HubAuthError).errorCode).toBe('INVALID_SIGNATURE');
  });

  it('types per-channel refusals as HubSubscriptionError, in the result and on errors$, and forgets them', async () => {
    h = harness({ credentials: undefined });
    await h.client.start();
    expect(h.hub.calls('Authenticate')).toHaveLength(0);
    expect(h.statuses.at(-1)).toEqual({ state: 'connected', epoch: 1 });

    const results = await h.client.subscribe(['trade_BTC-USD', 'order', 'subaccounts_balance']);
    expect(results[0]).toEqual({ channel: 'trade_BTC-USD', success: true });
    for (const [i, channel] of [[1, 'order'], [2, 'subaccounts_balance']] as const) {
      const r = results[i]!;
      expect(r.success).toBe(false);
      if (r.success) continue;
      expect(r.error).toBeInstanceOf(HubSubscriptionError);
      expect(r.error.channel).toBe(channel);
      expect(r.error.errorCode).toBe('UNAUTHORIZED_USER');
    }
    const refused = h.errors.filter((e): e is HubSubscriptionError => e instanceof HubSubscriptionError);
    expect(refused.map((e) => e.channel)).toEqual(['order', 'subaccounts_balance']);
    expect(h.client.channels).toEqual(['trade_BTC-USD']);
  });

  it('answers a subscribe() made while a connection is still subscribing, with a follow-up Subscribe', async () => {
    h = harness();
    let late: Promise<unknown> | undefined;
    h.hub.handlers.set('Subscribe', (args, t) => {
      h.hub.handlers.delete('Subscribe');
      late = h.client.subscribe(['ticker_BTC-USD']); // arrives after the connection's channel list was sent
      return (args[0] as string[]).map((c) => (t.subscriptions.add(c), { Success: true }));
    });
    await h.client.start();
    expect(await late).toEqual([{ channel: 'ticker_BTC-USD', success: true }]);
    expect(h.hub.calls('Subscribe').map((c) => c.args)).toEqual([[['heartbeat']], [['ticker_BTC-USD']]]);
    expect(h.hub.current.subscriptions.has('ticker_BTC-USD')).toBe(true);
  });

  it('unsubscribes on the wire but keeps heartbeat there, and forgets the channels', async () => {
    h = harness();
    await h.client.start();
    await h.client.subscribe(['trade_BTC-USD', 'ticker_BTC-USD']);
    const results = await h.client.unsubscribe(['trade_BTC-USD', 'heartbeat']);
    expect(results.every((r) => r.success)).toBe(true);
    expect(h.hub.calls('Unsubscribe').map((c) => c.args)).toEqual([[['trade_BTC-USD']]]);
    expect(h.hub.current.subscriptions.has('heartbeat')).toBe(true);
    expect(h.client.channels).toEqual(['ticker_BTC-USD']);
  });
});

describe('hub client: messages', () => {
  it('decodes pushes into typed messages with their channel, arrival time and connection epoch', async () => {
    h = harness();
    const books: HubMessage<'orderBook'>[] = [];
    h.client.stream('orderBook').subscribe((m) => books.push(m));
    await h.client.start();
    await h.client.subscribe(['orderbook_BTC-USD_25', 'balance']);

    h.hub.publish('orderbook_BTC-USD_25', 'orderBook', orderBookPayload(41));
    h.hub.publish('balance', 'balance', balancePayload(7));
    h.hub.heartbeat();

    expect(books).toHaveLength(1);
    const book = books[0]!;
    expect(book.channel).toBe('orderbook_BTC-USD_25');
    expect(book.epoch).toBe(1);
    expect(book.receivedAt).toBe(h.clock.now());
    expect(book.message.sequence).toBe(41);
    expect(book.message.depth).toBe(25);
    expect(book.message.bidDeltas[0]!.rate.toString()).toBe('35000');
    expect(book.message.askDeltas[0]!.quantity.isZero()).toBe(true);

    expect(h.messages.map((m) => [m.name, m.channel])).toEqual([
      ['orderBook', 'orderbook_BTC-USD_25'],
      ['balance', 'balance'],
      ['heartbeat', 'heartbeat'],
    ]);
    const balance = h.messages[1]!;
    if (balance.name !== 'balance') throw new Error('expected a balance message');
    expect(balance.message.delta.available.toString()).toBe('0.75');
    expect(h.client.stats.messages).toBe(3);
  });

  it('matches message names in any case, as classic hubs send them', async () => {
    h = harness();
    await h.client.start();
    h.hub.current.push('ORDERBOOK', [encodePayload(orderBookPayload(1))]);
    expect(h.messages.map((m) => m.name)).toEqual(['orderBook']);
  });

  it('reports a message that fails to decode on errors$ with its stream name, and keeps the stream going', async () => {
    h = harness();
    await h.client.start();
    const t = h.hub.current;
    t.push('orderBook', ['%%% not base64 %%%']);
    t.push('orderBook', [encodePayload({ ...(orderBookPayload(2) as object), depth: 7 })]);
    t.push('orderBook', []);
    t.push('someNewStream', [encodePayload({})]);
    t.push('orderBook', [encodePayload(orderBookPayload(3))]);

    const decodeErrors = h.errors.filter((e): e is HubMessageDecodeError => e instanceof HubMessageDecodeError);
    expect(decodeErrors.map((e) => e.messageName)).toEqual(['orderBook', 'orderBook', 'orderBook', 'someNewStream']);
    expect(decodeErrors[1]!.message).toContain('depth');
    expect(h.messages).toHaveLength(1);
    expect(h.messages[0]!.name === 'orderBook' && h.messages[0]!.message.sequence).toBe(3);
    expect(h.client.stats.decodeErrors).toBe(4);
    expect(h.hub.transports).toHaveLength(1); // bad messages never cost the connection
  });
});
