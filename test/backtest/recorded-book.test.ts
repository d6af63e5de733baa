/**
 * RecordedSide keeps its levels ranked in typed arrays (slots into a pool of levels): against a plain sorted model
 * on random writes over more levels than its first allocation, with clears between rounds. RecordedBook.applyWatched
 * (the changes of the levels where our orders rest only) against apply filtered.
 */
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import { type BookSide, type LevelChange, RecordedBook, RecordedSide } from '../../backtest/venue/recorded-book.js';

describe('RecordedSide', () => {
  for (const side of ['bid', 'ask'] as const) {
    it(`ranks levels best first through inserts, updates, removals and clears (${side})`, () => {
      const random = mulberry32(side === 'bid' ? 11 : 12);
      const s = new RecordedSide(side);
      const model = new Map<number, Decimal>();
      const ranked = () => [...model].sort((a, b) => (side === 'bid' ? b[0] - a[0] : a[0] - b[0]));
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 4000; i++) {
          const rate = new Decimal(100 + Math.floor(random() * 300)).div(4);
          const q = random() < 0.3 ? ZERO : new Decimal(1 + Math.floor(random() * 99));
          const before = s.set(rate, q);
          expect(before.toString()).toBe((model.get(rate.toNumber()) ?? ZERO).toString());
          if (q.isZero()) model.delete(rate.toNumber());
          else model.set(rate.toNumber(), q);
          if (i % 97 === 0) {
            const want = ranked();
            expect(s.size).toBe(want.length);
            expect([...s.levels()].map((l) => [l.key, l.quantity.toString()])).toEqual(want.map(([k, v]) => [k, v.toString()]));
            for (let r = 0; r < want.length; r += 7) expect(s.atRank(r)!.key).toBe(want[r]![0]);
            expect(s.atRank(want.length)).toBeUndefined();
            expect(s.atRank(-1)).toBeUndefined();
            const [k] = want[0] ?? [];
            if (k !== undefined) expect(s.get(k)!.quantity.toString()).toBe(model.get(k)!.toString());
          }
        }
        expect(s.size).toBeGreaterThan(64);
        s.clear();
        model.clear();
        expect(s.size).toBe(0);
        expect(s.best()).toBeUndefined();
      }
    });
  }
});

describe('RecordedBook.applyWatched', () => {
  it('keeps exactly the changes of watched levels that apply gives, and says whether anything changed', () => {
    const random = mulberry32(21);
    const general = new RecordedBook();
    const watched = new RecordedBook();
    const levels = { bid: new Set<number>(), ask: new Set<number>() };
    const watch = { watches: (side: BookSide, key: number) => levels[side].has(key) };
    const entries = () =>
      Array.from({ length: Math.floor(random() * 4) }, () => {
        const rate = new Decimal(90 + Math.floor(random() * 20));
        // Often the quantity already there (no change), often zero (a removal, or nothing for a missing level).
        const roll = random();
        const quantity = roll < 0.25 ? ZERO : roll < 0.45 ? new Decimal(1 + Math.floor(random() * 3)) : new Decimal(1 + Math.floor(random() * 40));
        return { rate, quantity };
      });
    let kept = 0;
    let leftOut = 0;
    let noneWatched = 0;
    for (let i = 0; i < 5000; i++) {
      if (random() < 0.2) {
        const side: BookSide = random() < 0.5 ? 'bid' : 'ask';
        const key = 90 + Math.floor(random() * 20);
        if (levels[side].has(key)) levels[side].delete(key);
        else levels[side].add(key);
      }
      const bid = entries();
      const ask = entries();
      const all = general.apply(bid, ask);
      const some = watched.applyWatched(bid, ask, watch);
      const text = (cs: readonly LevelChange[]) => cs.map((c) => `${c.side} ${c.key} ${c.rate} ${c.before} -> ${c.after}`);
      if (all.length === 0) expect(some).toBeUndefined();
      else {
        expect(some).toBeDefined();
        expect(text(some!)).toEqual(text(all.filter((c) => watch.watches(c.side, c.key))));
        kept += some!.length;
        leftOut += all.length - some!.length;
        if (some!.length === 0) noneWatched++;
      }
      expect([...watched.bid.levels()].map((l) => `${l.key}:${l.quantity}`)).toEqual([...general.bid.levels()].map((l) => `${l.key}:${l.quantity}`));
      expect([...watched.ask.levels()].map((l) => `${l.key}:${l.quantity}`)).toEqual([...general.ask.levels()].map((l) => `${l.key}:${l.quantity}`));
    }
    // Every outcome occurs often: watched changes kept, others left out, steps that changed only unwatched levels.
    expect(kept).toBeGreaterThan(1000);
    expect(leftOut).toBeGreaterThan(1000);
    expect(noneWatched).toBeGreaterThan(300);
  });
});
