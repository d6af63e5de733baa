import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { Candle, OrderBookEntry, Ticker, Trade } from '../../src/model/index.js';
import { MarketStore } from '../../src/store/market-store.js';
import { bookDifference, OrderBookState } from '../../src/store/order-book.js';
import { Prng } from '../sync/prng.js';

const e = (quantity: string, rate: string): OrderBookEntry => ({ quantity: dec(quantity), rate: dec(rate) });
const ticker = (symbol: string, bid: string): Ticker => ({ symbol, lastTradeRate: dec(bid), bidRate: dec(bid), askRate: dec(bid).plus(1) });
const trade = (id: string, at: number): Trade => ({ id, executedAt: new Date(at), quantity: dec('1'), rate: dec('100'), takerSide: 'BUY' });
const candle = (at: number, close: string): Candle => {
  const c = dec(close);
  return { startsAt: new Date(at), open: c, high: c, low: c, close: c, volume: dec('1'), quoteVolume: c };
};

describe('MarketStore', () => {
  it('stores first, then publishes: a subscriber reads the state it is told about', () => {
    const store = new MarketStore();
    const seen: string[] = [];
    store.changes$.subscribe((ev) => {
      if (ev.kind === 'book') seen.push(`book ${store.bestBid('BTC-USD')?.rate} seq ${store.book('BTC-USD', 25)?.sequence}`);
      if (ev.kind === 'tickers') seen.push(`ticker ${store.ticker('BTC-USD')?.bidRate}`);
      if (ev.kind === 'trades') seen.push(`trades ${store.trades('BTC-USD').length}`);
      if (ev.kind === 'candles') seen.push(`candles ${store.candles('BTC-USD', 'MINUTE_1').at(-1)?.close}`);
    });
    store.book$('BTC-USD', 25).subscribe((b) => seen.push(`book$ ${b.bestBid()?.rate}`));
    store.resetBook('BTC-USD', 25, { bid: [e('1', '100')], ask: [e('1', '101')] }, 1);
    store.applyBookDeltas('BTC-USD', 25, [e('1', '100.5')], [], 2);
    store.setTickers([ticker('BTC-USD', '100.5')]);
    store.addTrades('BTC-USD', [trade('t1', 1)]);
    store.upsertCandles('BTC-USD', 'MINUTE_1', [candle(60_000, '7')]);
    expect(seen).toEqual([
      'book 100 seq 1',
      'book$ 100',
      'book 100.5 seq 2',
      'book$ 100.5',
      'ticker 100.5',
      'trades 1',
      'candles 7',
    ]);
  });

  it('per-entity observables start with the current value', () => {
    const store = new MarketStore();
    store.setTickers([ticker('A-B', '1'), ticker('C-D', '2')], true);
    const got: string[] = [];
    store.ticker$('A-B').subscribe((t) => got.push(t.bidRate.toString()));
    store.setTickers([ticker('C-D', '3')]); // another market: no emission
    store.setTickers([ticker('A-B', '4')]);
    expect(got).toEqual(['1', '4']);
    const states: number[] = [];
    store.state$.subscribe((s) => states.push(s.tickers().size));
    store.setTickers([ticker('E-F', '5')]);
    expect(states).toEqual([2, 3]);
    const summaries: string[] = [];
    store.summary$('A-B').subscribe((s) => summaries.push(s.high.toString()));
    store.setSummaries([{ symbol: 'A-B', high: dec('9'), low: dec('1'), volume: dec('1'), quoteVolume: dec('1'), updatedAt: new Date(0) }]);
    expect(summaries).toEqual(['9']);
  });

  it('keeps recent trades bounded, in time order, without duplicates', () => {
    const store = new MarketStore({ maxTrades: 3 });
    store.addTrades('X-Y', [trade('c', 3), trade('a', 1), trade('b', 2)], true); // REST: newest first
    expect(store.trades('X-Y').map((t) => t.id)).toEqual(['a', 'b', 'c']);
    const batches: string[][] = [];
    store.trades$('X-Y').subscribe((ts) => batches.push(ts.map((t) => t.id)));
    store.addTrades('X-Y', [trade('c', 3), trade('d', 4)]);
    expect(store.trades('X-Y').map((t) => t.id)).toEqual(['b', 'c', 'd']);
    expect(batches).toEqual([['d']]);
    store.addTrades('X-Y', [trade('d', 4)]); // nothing new: nothing published
    expect(batches).toHaveLength(1);
  });

  it('unread for many trades, still hands out only the newest maxTrades, in order, and forgets the dropped ids', () => {
    const store = new MarketStore({ maxTrades: 3 });
    for (let i = 1; i <= 10; i++) store.addTrades('X-Y', [trade(`t${i}`, i)]);
    expect(store.trades('X-Y').map((t) => t.id)).toEqual(['t8', 't9', 't10']);
    const held = store.trades('X-Y');
    store.addTrades('X-Y', [trade('t9', 9), trade('t1', 1)]); // t9 is still held, t1 was dropped long ago
    expect(store.trades('X-Y').map((t) => t.id)).toEqual(['t9', 't10', 't1']);
    expect(held).toBe(store.trades('X-Y')); // the same list, kept up to date
  });

  it('publishes and keeps the same trades as a plain dedup-and-trim model, batch by batch', () => {
    // Random batches (repeated ids within and across batches, some resets) against the obvious model: filter the
    // batch by the ids held (and already taken from it), append, trim the oldest. The store hands an all-new batch on
    // as it came and copies only from a repeated id on; what it publishes must not depend on that.
    let seed = 7;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 20; round++) {
      const max = 1 + rnd(6);
      const store = new MarketStore({ maxTrades: max });
      const published: { ids: string[]; reset: boolean }[] = [];
      store.changes$.subscribe((ev) => {
        if (ev.kind === 'trades') published.push({ ids: ev.trades.map((t) => t.id), reset: ev.reset });
      });
      let held: Trade[] = [];
      const expected: { ids: string[]; reset: boolean }[] = [];
      for (let step = 0; step < 60; step++) {
        const batch = Array.from({ length: rnd(4) }, () => {
          const n = rnd(15);
          return trade(`t${n}`, n);
        });
        const reset = rnd(10) === 0;
        const incoming = reset ? [...batch].sort((a, b) => a.executedAt.getTime() - b.executedAt.getTime()) : batch;
        if (reset) held = [];
        const added: Trade[] = [];
        for (const t of incoming) if (!held.some((h) => h.id === t.id)) (held.push(t), added.push(t));
        held = held.slice(Math.max(0, held.length - max));
        if (added.length > 0 || reset) expected.push({ ids: added.map((t) => t.id), reset });
        store.addTrades('X-Y', batch, reset);
        expect(store.trades('X-Y').map((t) => t.id)).toEqual(held.map((t) => t.id));
      }
      expect(published).toEqual(expected);
    }
  });

  it('upserts candles by startsAt, sorted and bounded', () => {
    const store = new MarketStore({ maxCandles: 3 });
    store.upsertCandles('X-Y', 'MINUTE_1', [candle(120_000, '2'), candle(60_000, '1')], true);
    store.upsertCandles('X-Y', 'MINUTE_1', [candle(120_000, '2.5')]); // the current candle, updated by a trade
    store.upsertCandles('X-Y', 'MINUTE_1', [candle(180_000, '3'), candle(240_000, '4')]);
    expect(store.candles('X-Y', 'MINUTE_1').map((c) => c.close.toString())).toEqual(['2.5', '3', '4']);
    expect(store.candles('X-Y', 'HOUR_1')).toEqual([]);
    const seen: number[] = [];
    store.candles$('X-Y', 'MINUTE_1').subscribe((cs) => seen.push(cs.length));
    store.upsertCandles('X-Y', 'MINUTE_1', [candle(240_000, '4.1')]);
    expect(seen).toEqual([3, 3]);
  });

  it('reads best bid/ask from the shallowest book of a market, and rejects deltas before a snapshot', () => {
    const store = new MarketStore();
    store.resetBook('X-Y', 500, { bid: [e('1', '10')], ask: [e('1', '12')] });
    expect(store.bestBid('X-Y')?.rate.toString()).toBe('10');
    store.resetBook('X-Y', 1, { bid: [e('1', '10.5')], ask: [e('1', '11')] });
    expect(store.bestBid('X-Y')?.rate.toString()).toBe('10.5');
    expect(store.mid('X-Y')?.toString()).toBe('10.75');
    expect(store.bestAsk('Z-W')).toBeUndefined();
    expect(() => store.applyBookDeltas('Z-W', 25, [], [])).toThrow(/before any snapshot/);
  });

  it('applies deltas to the right book whatever the order of books written (it remembers the last one)', () => {
    // Random writes over two markets and two depths, each also applied to its own OrderBookState found by name.
    const prng = new Prng(5);
    const rnd = (n: number): number => prng.int(n);
    const store = new MarketStore();
    const model = new Map<string, OrderBookState>();
    const level = () => e(String(rnd(3)), String(100 + rnd(8)));
    for (let i = 0; i < 3000; i++) {
      const m = ['X-Y', 'Z-W'][rnd(2)]!;
      const d = [1, 25][rnd(2)]!;
      const key = `${m}/${d}`;
      if (rnd(10) === 0) {
        const snapshot = { bid: [level()], ask: [level()] };
        store.resetBook(m, d, snapshot, i);
        if (!model.has(key)) model.set(key, new OrderBookState(m, d));
        model.get(key)!.reset(snapshot, i);
      } else if (!model.has(key)) {
        expect(() => store.applyBookDeltas(m, d, [level()], [], i)).toThrow(/before any snapshot/);
      } else {
        const bids = rnd(2) ? [level()] : [];
        const asks = rnd(2) ? [level(), level()] : [];
        store.applyBookDeltas(m, d, bids, asks, i);
        model.get(key)!.applyDeltas(bids, asks, i);
      }
      for (const [k, book] of model) {
        const [km, kd] = k.split('/');
        const held = store.book(km!, Number(kd))!;
        expect(bookDifference(held, book), `step ${i} ${k}`).toBeUndefined();
        expect(held.sequence).toBe(book.sequence);
      }
    }
    expect(model.size).toBe(4);
  });
});
