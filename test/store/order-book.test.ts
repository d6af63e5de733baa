import { describe, expect, it } from 'vitest';
import { Decimal, dec } from '../../src/core/decimal.js';
import { WireFormatError } from '../../src/core/errors.js';
import type { OrderBookEntry } from '../../src/model/index.js';
import { bookDifference, booksEqual, orderingKey, OrderBookState, type OrderBookLadder } from '../../src/store/order-book.js';
import { Prng } from '../sync/prng.js';

const e = (quantity: string, rate: string): OrderBookEntry => ({ quantity: dec(quantity), rate: dec(rate) });
const show = (l: readonly OrderBookEntry[]) => l.map((x) => `${x.quantity}@${x.rate}`);

describe('OrderBookState', () => {
  it('loads a snapshot in any order, skipping zero levels, later duplicate wins; reads best first', () => {
    const b = new OrderBookState('BTC-USD', 25);
    b.reset({ bid: [e('1', '99'), e('2', '100'), e('0', '98'), e('3', '97'), e('4', '99')], ask: [e('5', '102'), e('6', '101')] }, 7);
    expect(b.sequence).toBe(7);
    expect(show(b.ladder().bid)).toEqual(['2@100', '4@99', '3@97']);
    expect(show(b.ladder().ask)).toEqual(['6@101', '5@102']);
    expect(b.bestBid()?.rate.toString()).toBe('100');
    expect(b.bestAsk()?.rate.toString()).toBe('101');
    expect(show(b.top(2).bid)).toEqual(['2@100', '4@99']);
    expect(show(b.top(10).ask)).toEqual(['6@101', '5@102']);
    expect(b.top(0)).toEqual({ bid: [], ask: [] });
    expect([b.bidCount, b.askCount]).toEqual([3, 2]);
    expect(b.quantityAt('bid', dec('99.000'))?.toString()).toBe('4');
    expect(b.quantityAt('ask', dec('99'))).toBeUndefined();
  });

  it('applies deltas: quantity replaces, 0 removes, removing an absent level is ignored', () => {
    const b = new OrderBookState('BTC-USD', 25);
    b.reset({ bid: [e('1', '100'), e('1', '99')], ask: [e('1', '101')] });
    b.applyDeltas([e('5', '100'), e('0', '99'), e('2', '100.5'), e('0', '42')], [e('0', '101'), e('3', '103'), e('4', '102')], 8);
    expect(show(b.ladder().bid)).toEqual(['2@100.5', '5@100']);
    expect(show(b.ladder().ask)).toEqual(['4@102', '3@103']);
    expect(b.sequence).toBe(8);
    b.applyDeltas([], [e('0', '102'), e('0', '103')]);
    expect(b.bestAsk()).toBeUndefined();
    expect(b.crossed()).toBe(false);
  });

  it('keeps the entry of a delta itself as the level (entries are immutable values: no copy per delta)', () => {
    const b = new OrderBookState('BTC-USD', 25);
    b.reset({ bid: [e('1', '100')], ask: [e('1', '101')] });
    const bid = e('2', '100');
    const ask = e('3', '100.5');
    b.applyDeltas([bid], [ask]);
    expect(b.bestBid()).toBe(bid);
    expect(b.bestAsk()).toBe(ask);
    expect(b.top(1).bid[0]).toBe(bid);
    expect(Object.keys(b.bestAsk()!)).toEqual(['quantity', 'rate']);
  });

  it('knows when it is crossed', () => {
    const b = new OrderBookState('X-Y', 1);
    b.reset({ bid: [e('1', '100')], ask: [e('1', '101')] });
    expect(b.crossed()).toBe(false);
    b.applyDeltas([e('1', '101')], []);
    expect(b.crossed()).toBe(true);
  });

  it('rejects a bad delta with a WireFormatError and leaves the book exactly as it was', () => {
    const b = new OrderBookState('X-Y', 25);
    b.reset({ bid: [e('1', '100')], ask: [e('1', '101')] }, 1);
    const before = b.ladder();
    expect(() => b.applyDeltas([e('9', '99.5')], [e('-1', '105')], 2)).toThrow(WireFormatError);
    expect(() => b.applyDeltas([e('9', '99.5'), e('1', '0')], [], 2)).toThrow(/bidDeltas\[1\]\.rate is not a finite rate > 0/);
    expect(() => b.applyDeltas([{ quantity: new Decimal(NaN), rate: dec('1') }], [], 2)).toThrow(/quantity/);
    expect(booksEqual(b, before)).toBe(true);
    expect(b.sequence).toBe(1);
  });

  it('orders by the exact rate even when two rates round to the same double', () => {
    const a = '1.00000000000000001';
    const c = '1.00000000000000002';
    expect(orderingKey(dec(a))).toBe(orderingKey(dec(c)));
    const b = new OrderBookState('X-Y', 25);
    b.reset({ bid: [e('1', a), e('2', c), e('3', '1')], ask: [e('1', c), e('2', a), e('3', '2')] });
    expect(show(b.ladder().bid)).toEqual([`2@${c}`, `1@${a}`, '3@1']);
    expect(show(b.ladder().ask)).toEqual([`2@${a}`, `1@${c}`, '3@2']);
    b.applyDeltas([e('0', a), e('7', '1.000000000000000015')], [e('0', c)]);
    expect(show(b.ladder().bid)).toEqual([`2@${c}`, '7@1.000000000000000015', '3@1']);
    expect(show(b.ladder().ask)).toEqual([`2@${a}`, '3@2']);
  });

  it('orderingKey is the correctly rounded double of the exact value', () => {
    const rng = new Prng(7);
    const wrong: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const digits = 1 + rng.int(22);
      let s = '';
      for (let j = 0; j < digits; j++) s += rng.int(10);
      const point = rng.int(digits + 1);
      const text = `${s.slice(0, point) || '0'}.${s.slice(point)}0e${rng.int(50) - 25}`;
      const d = dec(text);
      if (orderingKey(d) !== d.toNumber()) wrong.push(text);
    }
    expect(wrong).toEqual([]);
  });

  it('matches a naive reference book over random deltas', () => {
    const rng = new Prng(99);
    const b = new OrderBookState('X-Y', 500);
    const ref = { bid: new Map<string, string>(), ask: new Map<string, string>() };
    b.reset({ bid: [], ask: [] });
    for (let step = 0; step < 3000; step++) {
      const bids: OrderBookEntry[] = [];
      const asks: OrderBookEntry[] = [];
      for (let k = rng.int(6); k >= 0; k--) {
        const isBid = rng.chance(0.5);
        const rate = isBid ? `${(1 + rng.int(400)) / 100}` : `${(500 + rng.int(400)) / 100}`;
        const q = rng.chance(0.35) ? '0' : `${rng.int(1000)}.${rng.int(1000)}`;
        (isBid ? bids : asks).push(e(q, rate));
        const m = isBid ? ref.bid : ref.ask;
        const key = dec(rate).toString();
        if (dec(q).isZero()) m.delete(key);
        else m.set(key, q);
      }
      b.applyDeltas(bids, asks);
    }
    const ladder = (m: Map<string, string>, desc: boolean) =>
      [...m].map(([r, q]) => e(q, r)).sort((x, y) => (desc ? y.rate.cmp(x.rate) : x.rate.cmp(y.rate)));
    const expected: OrderBookLadder = { bid: ladder(ref.bid, true), ask: ladder(ref.ask, false) };
    expect(bookDifference(b, expected)).toBeUndefined();
    expect(b.crossed()).toBe(false);
  });

  it('matches a naive reference book when deltas cluster at the top, go deep, or share a double', () => {
    // Level search probes back from the best level before bisecting: deltas at the top, a few levels down, at
    // the far end and beyond either end, and rates that round to one double, checked level by level after each.
    const rng = new Prng(7);
    const b = new OrderBookState('X-Y', 500);
    const ref = { bid: new Map<string, string>(), ask: new Map<string, string>() };
    const snapshot = { bid: [] as OrderBookEntry[], ask: [] as OrderBookEntry[] };
    for (let i = 0; i < 300; i++) {
      snapshot.bid.push(e('1', String(1000 - i)));
      snapshot.ask.push(e('1', String(1001 + i)));
      ref.bid.set(dec(1000 - i).toString(), '1');
      ref.ask.set(dec(1001 + i).toString(), '1');
    }
    b.reset(snapshot);
    const ladder = (m: Map<string, string>, desc: boolean) =>
      [...m].map(([r, q]) => e(q, r)).sort((x, y) => (desc ? y.rate.cmp(x.rate) : x.rate.cmp(y.rate)));
    for (let step = 0; step < 4000; step++) {
      const isBid = rng.chance(0.5);
      const m = isBid ? ref.bid : ref.ask;
      const sorted = ladder(m, isBid);
      const where = rng.int(10);
      let rate: string;
      if (where < 4 && sorted.length > 0) rate = sorted[Math.min(sorted.length - 1, rng.int(3))]!.rate.toString(); // at the top
      else if (where < 6) rate = isBid ? String(1000 - rng.int(300) + rng.int(4) / 4) : String(1001 + rng.int(300) + rng.int(4) / 4); // anywhere
      else if (where < 7) rate = isBid ? String(1001 + rng.int(3)) : String(998 - rng.int(3)); // a new best
      else if (where < 8) rate = isBid ? String(600 - rng.int(50)) : String(1400 + rng.int(50)); // beyond the far end
      else rate = `${isBid ? 1000 : 1001}.0000000000000000${1 + rng.int(9)}`; // one double, several rates
      const q = rng.chance(0.3) ? '0' : `${1 + rng.int(9)}`;
      const key = dec(rate).toString();
      if (q === '0') m.delete(key);
      else m.set(key, q);
      b.applyDeltas(isBid ? [e(q, rate)] : [], isBid ? [] : [e(q, rate)]);
      if (step % 50 === 0 || where >= 8) {
        expect(bookDifference(b, { bid: ladder(ref.bid, true), ask: ladder(ref.ask, false) }), `step ${step}`).toBeUndefined();
      }
      expect(b.quantityAt(isBid ? 'bid' : 'ask', dec(rate))?.toString()).toBe(m.get(key));
    }
    expect(bookDifference(b, { bid: ladder(ref.bid, true), ask: ladder(ref.ask, false) })).toBeUndefined();
  });

  it('bookDifference names the first differing level', () => {
    const x = { bid: [e('1', '100')], ask: [e('1', '101')] };
    expect(bookDifference(x, { bid: [e('1', '100.0')], ask: [e('1.00', '101')] })).toBeUndefined();
    expect(bookDifference(x, { bid: [e('2', '100')], ask: [e('1', '101')] })).toBe('bid[0]: 1@100 vs 2@100');
    expect(bookDifference(x, { bid: [e('1', '100')], ask: [] })).toBe('ask[0]: 1@101 vs missing');
  });
});
