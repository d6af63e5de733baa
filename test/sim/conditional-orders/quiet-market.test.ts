/**
 * ConditionalOrders.onTrades on a market where nothing is open takes a short way (only the last rate is kept, no
 * snapshot of open orders): checked against the loop every trade goes through while something is open, and against
 * the rule, by the trigger prices of trailing stops created between random batches of trades on two markets.
 */
import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { Prng } from '../../sync/prng.js';
import { A, B, marketSell, setup, stop } from './harness.js';

describe('onTrades on a market with nothing open', () => {
  it('leaves the same last rate as the loop over every trade (trailing stops start from it)', async () => {
    const rng = new Prng(41);
    const quiet = setup();
    const busy = setup();
    // On `busy`, account B keeps a stop on each market that never fires: every batch takes the general loop there.
    for (const m of ['BTC-USD', 'ETH-USD']) busy.co.create(B, stop('0.00000001', { marketSymbol: m, orderToCreate: marketSell(m) }));
    const lastRate = new Map<string, string>();
    const got: string[] = [];
    const want: string[] = [];
    for (let step = 0; step < 400; step++) {
      const market = rng.chance(0.5) ? 'BTC-USD' : 'ETH-USD';
      if (rng.chance(0.2)) {
        // A trailing stop starts from the market's last trade rate; cancelled at once so `quiet` stays quiet.
        const n = stop('1', { marketSymbol: market, orderToCreate: marketSell(market), triggerPrice: undefined, trailingStopPercent: dec('10') });
        const q = quiet.co.create(A, n);
        const b = busy.co.create(A, n);
        got.push(`${market} ${q.triggerPrice?.toString() ?? '-'}`);
        want.push(`${market} ${b.triggerPrice?.toString() ?? '-'}`);
        // And the rule itself: 10 % below the market's last trade rate.
        const last = lastRate.get(market);
        expect(q.triggerPrice?.toString()).toBe(last === undefined ? undefined : dec(last).times('0.9').toString());
        quiet.co.cancel(A, q.id);
        busy.co.cancel(A, b.id);
        continue;
      }
      const rates = Array.from({ length: 1 + rng.int(4) }, () => String(50 + rng.int(100)));
      // Named as given (the catalog upper-cases it), now one way, now another.
      const name = rng.chance(0.3) ? market.toLowerCase() : market;
      quiet.trade(name, ...rates);
      busy.trade(name, ...rates);
      lastRate.set(market, rates[rates.length - 1]!);
    }
    expect(got.length).toBeGreaterThan(50);
    expect(got).toEqual(want);
  });
});
