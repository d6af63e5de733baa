import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import { diffLadder, type LadderLevel, type RestingQuote } from '../../src/orders/planner-quotes.js';

/** A seeded PRNG, so failures reproduce. */
const prng = mulberry32;

const key = (l: LadderLevel) => `${l.direction}|${l.rate.toFixed()}|${l.quantity.toFixed()}`;
const multiset = (ls: readonly LadderLevel[]) => {
  const m = new Map<string, number>();
  for (const l of ls) m.set(key(l), (m.get(key(l)) ?? 0) + 1);
  return m;
};

function randomLadder(rnd: () => number, n: number): LadderLevel[] {
  // Few distinct rates and quantities, so current and desired overlap often (and repeat levels happen).
  return Array.from({ length: n }, () => ({
    direction: rnd() < 0.5 ? 'BUY' : 'SELL',
    // '0.5' and '0.50' are the same rate: the match must not depend on how a decimal was written.
    rate: dec(100 + Math.floor(rnd() * 6)).add(dec(rnd() < 0.5 ? '0.5' : '0.50')),
    quantity: dec(1 + Math.floor(rnd() * 3)),
  }));
}

describe('diffLadder', () => {
  it('keeps matching orders, cancels and places the rest (a changed quantity is cancel + place)', () => {
    const a = { direction: 'BUY' as const, rate: dec('99'), quantity: dec('1'), ref: 'a' };
    const b = { direction: 'BUY' as const, rate: dec('98'), quantity: dec('1'), ref: 'b' };
    const c = { direction: 'SELL' as const, rate: dec('101'), quantity: dec('1'), ref: 'c' };
    const d = diffLadder(
      [a, b, c],
      [
        { direction: 'BUY', rate: dec('99.00'), quantity: dec('1') },
        { direction: 'BUY', rate: dec('97'), quantity: dec('1') },
        { direction: 'SELL', rate: dec('101'), quantity: dec('2') },
      ],
    );
    expect(d.keep.map((k) => k.ref)).toEqual(['a']);
    expect(d.cancel.map((k) => k.ref)).toEqual(['b', 'c']);
    expect(d.place.map((p) => `${p.direction} ${p.rate} ${p.quantity}`)).toEqual(['BUY 97 1', 'SELL 101 2']);
  });

  it('property: the result reaches the desired ladder with the minimal number of operations', () => {
    const rnd = prng(20210614);
    for (let run = 0; run < 2000; run++) {
      const current: RestingQuote<number>[] = randomLadder(rnd, Math.floor(rnd() * 12)).map((l, i) => ({ ...l, ref: i }));
      const desired = randomLadder(rnd, Math.floor(rnd() * 12));
      const diff = diffLadder(current, desired);
      // Applying the operations yields exactly the desired multiset.
      const after = [...current.filter((c) => !diff.cancel.includes(c)), ...diff.place];
      expect(multiset(after)).toEqual(multiset(desired));
      // Every resting order is either kept or cancelled, never both.
      expect(diff.keep.length + diff.cancel.length).toBe(current.length);
      // Lower bound: |current| + |desired| - 2 * |multiset intersection|.
      const cur = multiset(current);
      let common = 0;
      for (const [k, n] of multiset(desired)) common += Math.min(n, cur.get(k) ?? 0);
      expect(diff.cancel.length + diff.place.length).toBe(current.length + desired.length - 2 * common);
    }
  });
});
