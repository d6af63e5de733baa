/**
 * LiveData over a scripted gateway (no sockets): when it reports live, what the resync signals do, and how it
 * starts and stops. The end-to-end behaviour under hub faults is in stream-faults.test.ts.
 */
import { BehaviorSubject, Subject } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { HubSubscriptionError } from '../../src/bittrex/hub/hub-errors.js';
import type { StreamMessage } from '../../src/bittrex/hub/messages.js';
import { VirtualClock, flushMicrotasks } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import type { ExchangeGateway, GatewayStreams, StreamResyncNotice } from '../../src/gateway/exchange-gateway.js';
import { createLiveData, type LiveStreamStatus } from '../../src/sync/live-data.js';

/** A gateway whose snapshots are at sequence 10 and whose streams the test drives. */
function scripted(opts: { resyncs?: boolean; refuse?: string } = {}) {
  const messages = new Subject<StreamMessage>();
  const epoch = new BehaviorSubject(1);
  const resyncs = new Subject<StreamResyncNotice>();
  const subscribed: string[] = [];
  const streams: GatewayStreams = {
    messages$: messages,
    connectionEpoch$: epoch,
    ...(opts.resyncs === false ? {} : { resyncs$: resyncs }),
    async subscribe(channels) {
      if (opts.refuse) throw new HubSubscriptionError(opts.refuse, 'INVALID_CHANNEL', 'Subscribe');
      subscribed.push(...channels);
    },
    async unsubscribe() {},
  };
  const snap = <T>(data: T) => async () => ({ data, sequence: 10 });
  const fetches = { orderBook: 0 };
  /** The Sequence the next book snapshot is served with. */
  const bookAt = { sequence: 10 };
  const gateway = {
    venue: 'scripted',
    streams,
    orderBook: async () => {
      fetches.orderBook++;
      return { data: { bid: [{ rate: dec('100'), quantity: dec('1') }], ask: [{ rate: dec('101'), quantity: dec('2') }] }, sequence: bookAt.sequence };
    },
    balances: snap([]),
    openOrders: snap([]),
    openConditionalOrders: snap([]),
    lastExecution: snap({}),
    executions: async () => [],
  } as unknown as ExchangeGateway;
  const book = (sequence: number, rate = '100', quantity = '3'): StreamMessage => ({
    name: 'orderBook',
    data: { marketSymbol: 'BTC-USD', depth: 25, sequence, bidDeltas: [{ rate: dec(rate), quantity: dec(quantity) }], askDeltas: [] },
  });
  return { gateway, messages, epoch, resyncs, subscribed, fetches, bookAt, book };
}

describe('createLiveData', () => {
  it('is live for a market once its books and the account are synchronized, and not while a book resyncs', async () => {
    const g = scripted();
    const live = createLiveData(g.gateway, { clock: new VirtualClock(0), markets: ['BTC-USD'] });
    expect(live.channels).toEqual(['orderbook_BTC-USD_25', 'balance', 'order', 'execution', 'conditional_order']);
    expect(live.isLive('BTC-USD')).toBe(false);
    await live.start();
    expect(g.subscribed).toEqual(live.channels);
    await vi.waitFor(() => expect(live.allLive()).toBe(true));
    expect(live.isLive('BTC-USD')).toBe(true);
    expect(live.isLive('ETH-USD')).toBe(false); // not followed: never live
    expect(live.sequence('orderbook_BTC-USD_25')).toBe(10);

    g.messages.next(g.book(11));
    expect(live.market.book('BTC-USD', 25)?.bestBid()?.quantity.toString()).toBe('3');
    g.bookAt.sequence = 13; // the service moved on; the resync's snapshot includes 12 and 13
    g.messages.next(g.book(13)); // 12 never came
    expect(live.status('orderbook_BTC-USD_25')?.status).toMatchObject({ state: 'resyncing', reason: 'gap', expected: 12, got: 13 });
    expect(live.isLive('BTC-USD')).toBe(false);
    await vi.waitFor(() => expect(live.isLive('BTC-USD')).toBe(true));
    await live.stop();
    expect(live.isLive('BTC-USD')).toBe(false);
  });

  it('resyncs only the channels a notice names, with its reason as the cause', async () => {
    const g = scripted();
    const live = createLiveData(g.gateway, { clock: new VirtualClock(0), markets: ['BTC-USD'] });
    const statuses: LiveStreamStatus[] = [];
    live.status$.subscribe((s) => statuses.push(s));
    await live.start();
    await vi.waitFor(() => expect(live.allLive()).toBe(true));
    const from = statuses.length;
    g.resyncs.next({ channels: ['balance', 'order'], reason: 'auth-lapsed', epoch: 1 });
    const resyncs = statuses.slice(from).filter((s) => s.status.state === 'resyncing');
    expect(resyncs.map((s) => [s.stream, s.cause])).toEqual([['balance', 'auth-lapsed'], ['order', 'auth-lapsed']]);
    await vi.waitFor(() => expect(live.allLive()).toBe(true));
    await live.stop();
  });

  it('falls back to connectionEpoch$ on a gateway without resync notices', async () => {
    const g = scripted({ resyncs: false });
    const live = createLiveData(g.gateway, { clock: new VirtualClock(0), markets: ['BTC-USD'], account: false });
    expect(live.account).toBeUndefined();
    expect(live.channels).toEqual(['orderbook_BTC-USD_25']);
    await live.start();
    await vi.waitFor(() => expect(live.isLive('BTC-USD')).toBe(true));
    expect(g.fetches.orderBook).toBe(1);
    g.epoch.next(1); // the same connection: nothing to do
    expect(live.status('orderbook_BTC-USD_25')?.status.state).toBe('live');
    g.epoch.next(2);
    expect(live.status('orderbook_BTC-USD_25')).toMatchObject({ status: { state: 'resyncing', reason: 'reconnect' }, cause: 'reconnect' });
    await vi.waitFor(() => expect(live.isLive('BTC-USD')).toBe(true));
    expect(g.fetches.orderBook).toBe(2);
    await live.stop();
  });

  it('queues messages that arrive before the snapshot and applies the ones after it', async () => {
    const g = scripted();
    const live = createLiveData(g.gateway, { clock: new VirtualClock(0), markets: ['BTC-USD'], account: false });
    const starting = live.start();
    g.messages.next(g.book(10, '99', '5')); // already in the snapshot (sequence 10): dropped
    g.messages.next(g.book(11, '98', '6'));
    await starting;
    await flushMicrotasks();
    await vi.waitFor(() => expect(live.isLive('BTC-USD')).toBe(true));
    const bids = live.market.book('BTC-USD', 25)!.ladder().bid.map((l) => `${l.rate}:${l.quantity}`);
    expect(bids).toEqual(['100:1', '98:6']);
    expect(live.stats('orderbook_BTC-USD_25')).toMatchObject({ dropped: 1, applied: 1 });
    await live.stop();
  });

  it('rejects start() when the gateway refuses a channel, and is stopped afterwards', async () => {
    const g = scripted({ refuse: 'order' });
    const live = createLiveData(g.gateway, { clock: new VirtualClock(0), markets: ['BTC-USD'] });
    let completed = false;
    live.status$.subscribe({ complete: () => (completed = true) });
    await expect(live.start()).rejects.toBeInstanceOf(HubSubscriptionError);
    expect(completed).toBe(true);
    expect(live.isLive('BTC-USD')).toBe(false);
    await expect(live.start()).rejects.toThrow(/already stopped/);
  });
});
