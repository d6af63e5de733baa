/**
 * Whatever the lot method, PnL must agree with cash: for any sequence of fills, equity at a mark m equals
 * (quote received − quote paid − commission) + position × m. Checked exactly over seeded random sequences with
 * 8-decimal amounts, flips, partial closes, several strategies and replayed (duplicate) fills.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { type Decimal, dec, ZERO } from '../../src/core/decimal.js';
import { type FillEvent, Portfolio } from '../../src/portfolio/portfolio.js';
import { Prng } from '../sync/prng.js';

const amount = (rng: Prng, max: number): Decimal => dec((1 + rng.int(max * 1e8)) / 1e8);

describe('Portfolio agrees with cash accounting', () => {
  for (const seed of [1, 2, 3, 42, 2021]) {
    it(`seed ${seed}`, () => {
      const rng = new Prng(seed);
      const p = new Portfolio({ clock: new VirtualClock(0), quoteCurrency: 'USD' });
      const cash = new Map<string, Decimal>();
      const pos = new Map<string, Decimal>();
      const fills: FillEvent[] = [];
      for (let i = 0; i < 400; i++) {
        const strategy = `s${rng.int(3)}`;
        const direction = rng.chance(0.5) ? 'BUY' : 'SELL';
        const quantity = amount(rng, 2);
        const rate = dec(20000 + rng.int(20000)).plus(amount(rng, 1));
        const commission = quantity.times(rate).times('0.0025').toDecimalPlaces(8, 1);
        const f: FillEvent = {
          type: 'fill', strategy, intentKey: 'k', clientOrderId: `c${i}`, orderId: `o${i}`, marketSymbol: 'BTC-USD',
          direction, quantity, rate, commission, isTaker: true, executionId: `e${i}`, at: i,
        };
        fills.push(f);
        p.onFill(f);
        if (rng.chance(0.1)) p.onFill(fills[rng.int(fills.length)]!); // a replay changes nothing
        const value = quantity.times(rate);
        cash.set(strategy, (cash.get(strategy) ?? ZERO).plus(direction === 'SELL' ? value : value.neg()).minus(commission));
        pos.set(strategy, (pos.get(strategy) ?? ZERO).plus(direction === 'BUY' ? quantity : quantity.neg()));
      }
      const mark = dec('31234.56789012');
      const marks = () => mark;
      let total = ZERO;
      for (const [s, c] of cash) {
        const expected = c.plus(pos.get(s)!.times(mark));
        expect(p.position('BTC-USD', s).toString()).toBe(pos.get(s)!.toString());
        expect(p.equity(marks, s).toString()).toBe(expected.toString());
        total = total.plus(expected);
      }
      expect(p.equity(marks).toString()).toBe(total.toString());
    });
  }
});
