/**
 * Shortcuts settlement takes on its hot path, each checked against the general computation on random amounts of
 * the engine's shapes (8-decimal quantities and rates from dust to large, zeros included):
 * - dsum(a, b) is a.plus(b), skipping the operation when either is zero;
 * - isDust answers "not dust" without a product for at least one unit at a rate of at least a satoshi.
 */
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO } from '../../../src/core/decimal.js';
import { dsum } from '../../../src/core/decimal-fast.js';
import { fillQuote } from '../../../src/model/trading-amounts.js';
import { isDust } from '../../../src/sim/trading-settle.js';
import { holds, sameAs } from '../../helpers/cheap-expect.js';

let seed = 99;
function rnd(n: number): number {
  seed = (seed * 48271) % 2147483647;
  return seed % n;
}

/** A random non-negative amount with up to `dp` decimals, magnitudes from 1e-10 to 1e9, zero now and then. */
function amount(dp = 8): Decimal {
  if (rnd(12) === 0) return ZERO;
  const digits = 1 + rnd(17);
  let s = '';
  for (let i = 0; i < digits; i++) s += String(rnd(10));
  return new Decimal(s).div(new Decimal(10).pow(rnd(dp + 1) + Math.max(0, digits - 9 - rnd(3))));
}

describe('settlement shortcuts', () => {
  it('dsum equals plus', () => {
    for (let i = 0; i < 20_000; i++) {
      const a = amount();
      const b = amount();
      const s = dsum(a, b);
      // 20,000 cases: compared in plain code first, the amounts written out only for a case that differs.
      const what = () => `${a} + ${b}`;
      holds(s.eq(a.plus(b)), what);
      sameAs(s.toFixed(8), a.plus(b).toFixed(8), what);
    }
  });

  it('isDust equals "the fill quote at the rate is zero"', () => {
    let dust = 0;
    let notDust = 0;
    for (let i = 0; i < 20_000; i++) {
      const remaining = amount();
      // Rates with more than 8 decimals too: recorded liquidity skips the rate precision rule.
      const rate = amount(rnd(2) === 0 ? 8 : 12);
      if (remaining.isZero() || rate.isZero()) continue;
      const want = fillQuote(remaining, rate).isZero();
      if (want) dust++;
      else notDust++;
      sameAs(isDust(remaining, rate), want, () => `${remaining} @ ${rate}`);
    }
    expect(dust).toBeGreaterThan(200);
    expect(notDust).toBeGreaterThan(500);
  });
});
