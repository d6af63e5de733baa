/**
 * Retention (issue 9 item 6): closed orders and executions are kept per account within an age and a count;
 * idempotency keys for their 24-hour window. Paging through history keeps working while the oldest items are
 * dropped under it: a token naming a dropped item reaches the end (an empty page), never INVALID_NEXT_PAGE_TOKEN.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import { defaultSimConfig } from '../../src/sim/config.js';
import { createSimEngine } from '../../src/sim/engine.js';
import { IdempotencyIndex } from '../../src/sim/idempotency.js';

const HOUR = 3_600_000;

function world(maxPerAccount = 32) {
  const clock = new VirtualClock(Date.parse('2021-06-14T00:00:00Z'));
  const limits = { maxAgeMs: HOUR, maxPerAccount };
  const engine = createSimEngine({ clock, config: defaultSimConfig({ retention: { closedOrders: limits, executions: limits } }) });
  const me = engine.createParticipant({ USD: dec('10000000'), BTC: dec('1000') });
  const other = engine.createParticipant({ USD: dec('10000000'), BTC: dec('1000') });
  const cycle = (n: number): string[] => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const o = engine.placeOrder(me, { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('10000') });
      engine.cancelOrder(me, o.id);
      ids.push(o.id);
    }
    return ids;
  };
  return { clock, engine, me, other, cycle };
}

describe('retention of closed orders and executions', () => {
  it('keeps at most the newest maxPerAccount closed orders (plus a small batch); dropped ones are gone', () => {
    const { engine, me, cycle } = world();
    const ids = cycle(500);
    const closed = engine.closedOrders(me, { pageSize: 200 });
    expect(closed.length).toBeGreaterThanOrEqual(32);
    expect(closed.length).toBeLessThanOrEqual(34);
    expect(closed[0]!.id).toBe(ids[499]);
    expect(() => engine.getOrder(me, ids[0]!)).toThrow(/not found/);
  });

  it('drops closed orders older than maxAgeMs', async () => {
    const { clock, engine, me, cycle } = world(1_000);
    cycle(20);
    await clock.advance(2 * HOUR);
    const [last] = cycle(1);
    expect(engine.closedOrders(me, { pageSize: 200 }).map((o) => o.id)).toEqual([last]);
  });

  it('a page walk goes on while the items under its token are dropped: it ends with an empty page', () => {
    const { engine, me, cycle } = world();
    cycle(40);
    const first = engine.closedOrders(me, { pageSize: 10 });
    const second = engine.closedOrders(me, { pageSize: 10, nextPageToken: first.at(-1)!.id });
    expect(second).toHaveLength(10);
    cycle(200);
    // The token's order is dropped now: nothing older is kept.
    expect(engine.closedOrders(me, { pageSize: 10, nextPageToken: second.at(-1)!.id })).toEqual([]);
    // Walking back from it gives the oldest orders kept.
    const back = engine.closedOrders(me, { pageSize: 10, previousPageToken: second.at(-1)!.id });
    const all = engine.closedOrders(me, { pageSize: 200 });
    expect(back.map((o) => o.id)).toEqual(all.slice(-10).map((o) => o.id));
    // A token that never existed is still an error.
    expect(() => engine.closedOrders(me, { nextPageToken: '00000000-0000-4000-8000-000000000000' })).toThrow(/no item with id/);
  });

  it('keeps at most maxPerAccount executions; paging past dropped ones ends cleanly', () => {
    const { engine, me, other } = world();
    let token: string | undefined;
    for (let i = 0; i < 120; i++) {
      engine.placeOrder(other, { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('30000') });
      engine.placeOrder(me, { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.01'), limit: dec('30000') });
      if (i === 40) token = engine.executions(me, { pageSize: 5 }).at(-1)!.id;
    }
    const kept = engine.executions(me, { pageSize: 200 });
    expect(kept.length).toBeGreaterThanOrEqual(32);
    expect(kept.length).toBeLessThanOrEqual(34);
    expect(engine.executions(me, { nextPageToken: token! })).toEqual([]);
  });
});

describe('idempotency keys', () => {
  it('are forgotten once their 24-hour window has passed', async () => {
    const clock = new VirtualClock(0);
    const idem = new IdempotencyIndex(clock);
    for (let i = 0; i < 1_000; i++) idem.remember('a', `k${i}`, `o${i}`);
    expect(idem.find('a', 'k5')).toBe('o5');
    await clock.advance(24 * HOUR);
    idem.remember('a', 'new', 'o-new');
    expect(idem.size).toBe(1);
    expect(idem.find('a', 'k5')).toBeUndefined();
    expect(idem.find('a', 'new')).toBe('o-new');
  });

  it('are per account, forgotten oldest first across accounts, and a key remembered again counts once', async () => {
    const clock = new VirtualClock(0);
    const idem = new IdempotencyIndex(clock);
    idem.remember('a', 'k', 'oa');
    idem.remember('b', 'k', 'ob');
    expect([idem.find('a', 'k'), idem.find('b', 'k'), idem.find('c', 'k'), idem.size]).toEqual(['oa', 'ob', undefined, 2]);
    await clock.advance(12 * HOUR);
    idem.remember('b', 'later', 'o-later');
    await clock.advance(12 * HOUR);
    // a/k and b/k are past the window; b/later is not.
    expect([idem.find('a', 'k'), idem.find('b', 'k'), idem.find('b', 'later')]).toEqual([undefined, undefined, 'o-later']);
    idem.remember('a', 'k', 'oa2');
    expect([idem.find('a', 'k'), idem.size]).toEqual(['oa2', 2]);
    for (let i = 0; i < 5_000; i++) idem.remember('a', `n${i}`, `o${i}`);
    await clock.advance(24 * HOUR);
    idem.remember('b', 'last', 'o-last');
    expect([idem.size, idem.find('a', 'n4999'), idem.find('b', 'last')]).toEqual([1, undefined, 'o-last']);
  });
});
