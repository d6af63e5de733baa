/**
 * diffLadder compares a small ladder's levels directly instead of through text keys: on random small ladders —
 * duplicate levels, equal values in other objects or written with trailing zeros, NaN — it must keep, cancel and
 * place exactly what the keyed match (diffLadderByKey) does, in the same order.
 */
import { describe, expect, it } from 'vitest';
import { Decimal, dec } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import { diffLadder, diffLadderByKey, type LadderLevel, type RestingQuote } from '../../src/orders/planner-quotes.js';

describe('diffLadder on small ladders', () => {
  it('matches as the keyed match does (randomized)', () => {
    const rnd = mulberry32(17);
    const rates = ['99.5', '99.50', '99.4', '100', '100.1', '100.10', 'NaN'];
    const quantities = ['0.01', '0.010', '0.02', '0'];
    const value = (texts: string[]) => {
      const t = texts[Math.floor(rnd() * texts.length)]!;
      return t === 'NaN' && rnd() < 0.7 ? dec('99.5') : new Decimal(t);
    };
    const level = (): LadderLevel => ({ direction: rnd() < 0.5 ? 'BUY' : 'SELL', rate: value(rates), quantity: value(quantities) });
    let small = 0;
    for (let n = 0; n < 5000; n++) {
      const resting: RestingQuote<number>[] = Array.from({ length: Math.floor(rnd() * 9) }, (_, i) => ({ ...level(), ref: i }));
      // Desired levels: fresh ones, and some that are resting levels again (as objects or as equal values).
      const desired: LadderLevel[] = Array.from({ length: Math.floor(rnd() * 9) }, () => {
        const r = resting.length > 0 && rnd() < 0.5 ? resting[Math.floor(rnd() * resting.length)]! : undefined;
        if (!r) return level();
        return rnd() < 0.5 ? { direction: r.direction, rate: r.rate, quantity: r.quantity } : { direction: r.direction, rate: new Decimal(r.rate.toFixed()), quantity: new Decimal(r.quantity.toFixed()) };
      });
      if (resting.length * desired.length <= 64) small++;
      const got = diffLadder(resting, desired);
      const want = diffLadderByKey(resting, desired);
      expect(got.keep).toEqual(want.keep);
      expect(got.cancel).toEqual(want.cancel);
      expect(got.place.length).toBe(want.place.length);
      got.place.forEach((p, i) => expect(p).toBe(want.place[i]));
    }
    expect(small).toBeGreaterThan(4000);
  });
});
