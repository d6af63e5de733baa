/**
 * RecordedSide keeps its levels ranked in typed arrays (slots into a pool of levels): against a plain sorted model
 * on random writes over more levels than its first allocation, with clears between rounds.
 */
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import { RecordedSide } from '../../backtest/venue/recorded-book.js';

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
