/**
 * RollingSummary remembers its last percent changes: every snapshot must still carry exactly
 * `(last - first) / first * 100` to 8 decimals of its window, as the rates move back and forth, repeat, are
 * equal values in new objects, and as the window's first bucket leaves.
 */
import { describe, expect, it } from 'vitest';
import { Decimal, dec } from '../../../src/core/decimal.js';
import { RollingSummary } from '../../../src/sim/market-data/rolling-summary.js';

describe('RollingSummary percentChange', () => {
  it('equals the formula on every snapshot of a random walk', () => {
    let seed = 31;
    const rnd = (n: number) => {
      seed = (seed * 48271) % 2147483647;
      return seed % n;
    };
    const rates = ['29990', '30010', '30000.5', '12.34567891', '0.00000123', '30010'];
    const s = new RollingSummary(0, 10_000, 1000);
    const trades: Array<{ at: number; rate: Decimal }> = [];
    let at = 0;
    for (let i = 0; i < 3000; i++) {
      at += rnd(4) === 0 ? rnd(3000) : 0;
      // A fresh object now and then for a value seen before: remembered by value, not identity.
      const rate = dec(rates[rnd(rates.length)]!);
      s.add(at, rate, dec('0.001'));
      trades.push({ at, rate });
      s.evict(at);
      const inWindow = trades.filter((t) => Math.floor(t.at / 1000) * 1000 + 1000 > at - 10_000);
      const first = inWindow[0]!.rate;
      const last = inWindow[inWindow.length - 1]!.rate;
      const want = last.minus(first).div(first).times(100).toDecimalPlaces(8);
      const got = s.snapshot('X').percentChange!;
      expect(got.eq(want), `${first} -> ${last}: ${got} vs ${want}`).toBe(true);
      expect(got.toFixed(8)).toBe(want.toFixed(8));
    }
  });
});
