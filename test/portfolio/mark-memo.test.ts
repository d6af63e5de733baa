/**
 * markToMarket reuses its last valuation when nothing it reads changed. Checked against valueEquity (which always
 * values afresh) over seeded random runs of fills, repeated and equal-but-new marks, missing marks and
 * cross-currency positions (where no valuation is reused).
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { type Decimal, dec } from '../../src/core/decimal.js';
import { type EquityValuation, type FillEvent, Portfolio } from '../../src/portfolio/portfolio.js';
import { Prng } from '../sync/prng.js';

const plain = (v: EquityValuation) => ({ equity: v.equity.toFixed(), stale: v.stale, unvalued: v.unvalued });

describe('Portfolio.markToMarket reuse', () => {
  for (const seed of [1, 7, 99]) {
    it(`values as valueEquity does, seed ${seed}`, async () => {
      const rng = new Prng(seed);
      const clock = new VirtualClock(0);
      const p = new Portfolio({ clock, quoteCurrency: 'USD' });
      const markets = ['BTC-USD', 'ETH-USD', 'ETH-BTC'];
      const marks = new Map<string, Decimal | undefined>();
      const staleness: EquityValuation[] = [];
      p.staleness$.subscribe((v) => staleness.push(v));
      let expectedStaleness = 0;
      let previous: EquityValuation = { equity: dec(0), stale: [], unvalued: [] };
      for (let i = 0; i < 600; i++) {
        const r = rng.int(10);
        if (r < 2) {
          // Cross-currency fills only in the second half: first the single-currency reuse, then with conversions.
          const market = rng.pick(i < 300 ? markets.slice(0, 2) : markets);
          const f: FillEvent = {
            type: 'fill', strategy: `s${rng.int(2)}`, intentKey: 'k', clientOrderId: `c${i}`, orderId: `o${i}`, marketSymbol: market,
            direction: rng.chance(0.5) ? 'BUY' : 'SELL', quantity: dec((1 + rng.int(100)) / 100), rate: dec(market === 'ETH-BTC' ? '0.05' : 1000 + rng.int(500)),
            commission: dec('0.01'), isTaker: false, executionId: `e${i}`, at: i,
          };
          p.onFill(f);
        } else if (r < 5) {
          const market = rng.pick(markets);
          // A missing mark, a new value, or the same value as a new object.
          const was = marks.get(market);
          marks.set(market, rng.chance(0.15) ? undefined : was && rng.chance(0.5) ? dec(was.toFixed()) : dec(1000 + rng.int(3)));
        }
        await clock.advance(rng.int(3));
        const markOf = (m: string) => marks.get(m);
        const point = p.markToMarket(markOf);
        const fresh = p.valueEquity(markOf);
        expect(plain(p.lastValuation)).toEqual(plain(fresh));
        expect(point.equity.toFixed()).toBe(fresh.equity.toFixed());
        if (previous.stale.join() !== fresh.stale.join() || previous.unvalued.join() !== fresh.unvalued.join()) expectedStaleness++;
        previous = fresh;
        expect(staleness).toHaveLength(expectedStaleness);
      }
    });
  }
});
