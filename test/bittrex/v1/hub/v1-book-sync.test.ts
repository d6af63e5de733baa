/**
 * The seed's v1.1 resynchronization against the simulator server: a synced book equals the engine's; a lost uE
 * (nonce gap), a dropped connection, and deltas that stop while uL shows the market trading each recycle the
 * connection, after which the book is in step again.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { V1BookSync, type V1BookSyncEvent } from '../../../../src/bittrex/v1/hub/v1-book-sync.js';
import { V1HubClient } from '../../../../src/bittrex/v1/hub/v1-hub-client.js';
import { VirtualClock } from '../../../../src/core/clock.js';
import { dec } from '../../../../src/core/decimal.js';
import { startFixture, type SimFixture, type TestAccount } from '../../../server/sim-fixture.js';

let fx: SimFixture;
let maker: TestAccount;
let taker: TestAccount;
let sync: V1BookSync;
const events: V1BookSyncEvent[] = [];
const syncClock = new VirtualClock(0);
let price = 20_000;

beforeAll(async () => {
  fx = await startFixture();
  maker = await fx.account({ USD: '10000000', BTC: '1000' });
  taker = await fx.account({ USD: '10000000', BTC: '1000' });
  for (let i = 1; i <= 5; i++) {
    place(maker, 'BUY', String(20_000 - i * 10));
    place(maker, 'SELL', String(20_100 + i * 10));
  }
  sync = new V1BookSync({ markets: ['USD-BTC'], newClient: () => new V1HubClient({ url: fx.sim.hubUrl }), clock: syncClock, staleAfterMs: 5_000, reconnect: { initialDelayMs: 10, maxDelayMs: 10, jitter: 0 } });
  sync.events$.subscribe((e) => events.push(e));
  sync.start();
});
afterAll(async () => {
  await sync.stop();
  await fx.close();
});

function place(a: TestAccount, direction: 'BUY' | 'SELL', limit: string, tif: 'GOOD_TIL_CANCELLED' | 'IMMEDIATE_OR_CANCEL' = 'GOOD_TIL_CANCELLED') {
  return fx.engine.placeOrder(a.accountId, { marketSymbol: 'BTC-USD', direction, type: 'LIMIT', timeInForce: tif, quantity: dec('0.1'), limit: dec(limit) });
}

/** Some book changes and a trade. */
function churn(): void {
  price += 1;
  place(maker, 'BUY', String(price - 500));
  place(maker, 'SELL', String(price + 500));
  place(taker, 'SELL', String(price - 500), 'IMMEDIATE_OR_CANCEL');
}

/** Let the sync's (virtual) reconnect delay pass, then compare; for vi.waitFor. */
async function inStep(): Promise<void> {
  await syncClock.advance(10);
  expectInStep();
}

function expectInStep(): void {
  const book = sync.book('USD-BTC');
  expect(book, 'book in step').toBeDefined();
  const truth = fx.engine.orderBook('BTC-USD', 500).data;
  const show = (ls: { rate: { toString(): string }; quantity: { toString(): string } }[]) => ls.map((l) => `${l.quantity.toString()}@${l.rate.toString()}`);
  expect(show(book!.bids())).toEqual(show(truth.bid));
  expect(show(book!.asks())).toEqual(show(truth.ask));
  expect(book!.crossed()).toBe(false);
}

const resyncs = (cause: string) => events.filter((e) => e.type === 'resync' && e.cause === cause).length;

describe('V1BookSync against the simulator', () => {
  it('builds the book from QueryExchangeState and keeps it in step through uE', async () => {
    await vi.waitFor(() => expect(sync.book('USD-BTC')).toBeDefined());
    for (let i = 0; i < 5; i++) churn();
    await vi.waitFor(inStep);
    expect(events.some((e) => e.type === 'fills')).toBe(true);
  });

  it('recycles the connection on a nonce gap and comes back in step', async () => {
    fx.sim.v1Hub.faults.dropExchangeDeltas = true;
    churn();
    await Promise.resolve();
    fx.sim.v1Hub.faults.dropExchangeDeltas = false;
    await new Promise((r) => setImmediate(r)); // the dropped uE's turn is over before the next change
    churn();
    await vi.waitFor(() => expect(resyncs('gap')).toBe(1));
    // A first lost uE is fetched again at once; only repeated losses and failures wait the backoff.
    expect(events.find((e) => e.type === 'resync' && e.cause === 'gap')).toMatchObject({ attempt: 1, delayMs: 0 });
    await vi.waitFor(inStep);
  });

  it('recycles when the server drops the connection', async () => {
    await vi.waitFor(() => expect(fx.sim.v1Hub.connections()).toHaveLength(1));
    fx.sim.v1Hub.close(fx.sim.v1Hub.connections()[0]!.id);
    await vi.waitFor(() => expect(resyncs('closed')).toBe(1));
    await vi.waitFor(async () => {
      await syncClock.advance(10);
      expect(sync.book('USD-BTC')).toBeDefined();
    });
    churn();
    await vi.waitFor(inStep);
  });

  it('recycles when uE stop while uL shows the market trading', async () => {
    await vi.waitFor(inStep);
    churn();
    await fx.clock.advance(1); // summaries go out: uL learns the volume
    await vi.waitFor(inStep);
    fx.sim.v1Hub.faults.dropExchangeDeltas = true;
    await syncClock.advance(6_000);
    churn();
    await fx.clock.advance(1);
    await vi.waitFor(() => expect(resyncs('stale')).toBe(1));
    fx.sim.v1Hub.faults.dropExchangeDeltas = false;
    await vi.waitFor(inStep);
    expect(sync.resyncs).toBe(3);
  });
});
