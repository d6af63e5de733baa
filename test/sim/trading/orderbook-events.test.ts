import { describe, expect, it } from 'vitest';
import type { OrderBookEntry } from '../../../src/model/market.js';
import type { SimEvent } from '../../../src/sim/events.js';
import { seqKey } from '../../../src/sim/sequences.js';
import { setup } from './harness.js';

type BookEvent = Extract<SimEvent, { kind: 'orderBook' }>;
const bookEvents = (events: SimEvent[]) => events.filter((e): e is BookEvent => e.kind === 'orderBook');
const txt = (entries: OrderBookEntry[]) => entries.map((e) => `${e.quantity.toFixed()}@${e.rate.toFixed()}`);

function funded() {
  const h = setup();
  for (const a of ['a', 'b', 'c']) {
    h.fund(a, 'BTC', '100');
    h.fund(a, 'USD', '10000000');
  }
  return h;
}

describe('orderbook events per depth', () => {
  it('publishes only to the depths whose view changed, each with its own sequence', () => {
    const h = funded();
    h.limit('a', 'BUY', '0.1', '30000');
    expect(bookEvents(h.events).map((e) => [e.depth, e.sequence, txt(e.bidDeltas)])).toEqual([
      [1, 1, ['0.1@30000']],
      [25, 1, ['0.1@30000']],
      [500, 1, ['0.1@30000']],
    ]);
    h.events.length = 0;
    h.limit('b', 'BUY', '0.2', '29990'); // worse: not in depth 1
    expect(bookEvents(h.events).map((e) => [e.depth, e.sequence])).toEqual([[25, 2], [500, 2]]);
    h.events.length = 0;
    h.limit('c', 'BUY', '0.3', '30010'); // new best: depth 1 sees it arrive and 30000 leave
    const d1 = bookEvents(h.events).find((e) => e.depth === 1)!;
    expect([d1.sequence, txt(d1.bidDeltas)]).toEqual([2, ['0.3@30010', '0@30000']]);
    expect(h.sequences.current(seqKey.orderBook('BTC-USD', 1))).toBe(2);
    expect(h.trading.reads.orderBook('BTC-USD', 25).sequence).toBe(3);
  });

  it('sends quantity 0 for a level pushed out of depth 25 and the full quantity for one coming back', () => {
    const h = funded();
    for (let i = 0; i < 25; i++) h.limit('a', 'SELL', '0.01', String(31000 + i));
    h.events.length = 0;
    h.limit('a', 'SELL', '0.05', '30999');
    const d25 = bookEvents(h.events).find((e) => e.depth === 25)!;
    expect(txt(d25.askDeltas)).toEqual(['0.05@30999', '0@31024']);
    const d500 = bookEvents(h.events).find((e) => e.depth === 500)!;
    expect(txt(d500.askDeltas)).toEqual(['0.05@30999']);
    h.events.length = 0;
    // A taker empties the best level: 31024 comes back into depth 25.
    h.limit('b', 'BUY', '0.05', '30999', 'IMMEDIATE_OR_CANCEL');
    const back = bookEvents(h.events).find((e) => e.depth === 25)!;
    expect(txt(back.askDeltas)).toEqual(['0@30999', '0.01@31024']);
  });

  it('lets a client synchronize by seed rule 4 at every depth through trading activity', () => {
    const h = funded();
    let seed = 7;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const views = new Map<number, { bid: Map<string, string>; ask: Map<string, string>; seq: number }>();
    // Snapshot first (sequence 0), then apply every later event whose sequence is exactly the next.
    for (const depth of [1, 25, 500] as const) {
      const snap = h.trading.reads.orderBook('BTC-USD', depth);
      views.set(depth, { bid: new Map(), ask: new Map(), seq: snap.sequence });
    }
    h.bus.on((e) => {
      if (e.kind !== 'orderBook') return;
      const v = views.get(e.depth)!;
      expect(e.sequence).toBe(v.seq + 1);
      v.seq = e.sequence;
      for (const [side, deltas] of [[v.bid, e.bidDeltas], [v.ask, e.askDeltas]] as const) {
        for (const d of deltas) {
          if (d.quantity.isZero()) side.delete(d.rate.toFixed());
          else side.set(d.rate.toFixed(), d.quantity.toFixed());
        }
      }
    });
    const accounts = ['a', 'b', 'c'];
    for (let i = 0; i < 400; i++) {
      const acct = accounts[Math.floor(rnd() * 3)]!;
      const open = h.trading.reads.openOrders(acct).data;
      if (rnd() < 0.25 && open.length > 0) {
        h.trading.cancelOrder(acct, open[Math.floor(rnd() * open.length)]!.id);
        continue;
      }
      const buy = rnd() < 0.5;
      const rate = String(30000 + Math.floor((rnd() - (buy ? 0.6 : 0.4)) * 60));
      try {
        h.limit(acct, buy ? 'BUY' : 'SELL', (0.001 + Math.floor(rnd() * 50) / 1000).toFixed(3), rate, rnd() < 0.2 ? 'IMMEDIATE_OR_CANCEL' : 'GOOD_TIL_CANCELLED');
      } catch {
        // SELF_TRADE and the like are part of the flow.
      }
      for (const [depth, v] of views) {
        const snap = h.trading.reads.orderBook('BTC-USD', depth);
        expect(snap.sequence).toBe(v.seq);
        expect(new Map(snap.data.bid.map((e) => [e.rate.toFixed(), e.quantity.toFixed()]))).toEqual(v.bid);
        expect(new Map(snap.data.ask.map((e) => [e.rate.toFixed(), e.quantity.toFixed()]))).toEqual(v.ask);
      }
    }
    expect(views.get(500)!.seq).toBeGreaterThan(views.get(1)!.seq);
  });

  it('refuses a depth other than 1, 25 or 500', () => {
    const h = funded();
    expect(() => h.trading.reads.orderBook('BTC-USD', 10)).toThrow(/depth/);
    expect(h.trading.reads.orderBook('btc-usd').data).toEqual({ bid: [], ask: [] });
  });
});
