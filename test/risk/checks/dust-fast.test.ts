/**
 * The dust rule passes most orders without converting their value (a division through an inverse market such
 * as BTC-USD): quotientSurelyAtLeast says "surely at least the minimum" only when the division would say so too,
 * and the dust check with a context that offers btcAtLeast answers exactly as without it — on random amounts,
 * rates and minimums, at the edge exactly, a hair on either side, with rates of many digits (where the product
 * would be rounded and only the division can decide) and with the same rate and minimum objects repeated.
 */
import { describe, expect, it } from 'vitest';
import { Decimal, dec, dgte } from '../../../src/core/decimal.js';
import { mulberry32 } from '../../../src/core/prng.js';
import { dustCheck, quotientSurelyAtLeast } from '../../../src/risk/checks/dust.js';
import type { CheckContext } from '../../../src/risk/risk-context.js';
import { checkCtx, config, fixture, order } from '../fixture.js';

describe('dust without the division', () => {
  it('says "surely" only where the rounded quotient is at least the minimum', () => {
    const rnd = mulberry32(11);
    const digits = (n: number) => Array.from({ length: n }, () => String(Math.floor(rnd() * 10))).join('');
    let sure = 0;
    let rate = dec('30000.5');
    let min = dec('0.0005');
    for (let n = 0; n < 5000; n++) {
      if (rnd() < 0.3) rate = rnd() < 0.1 ? dec(`${1 + Math.floor(rnd() * 60000)}.${digits(38)}`) : dec(`${1 + Math.floor(rnd() * 60000)}.${digits(Math.floor(rnd() * 4))}`);
      if (rnd() < 0.1) min = rnd() < 0.5 ? dec('0.0005') : dec(`0.000${digits(3)}1`);
      const edge = min.times(rate);
      const r = rnd();
      const amount = r < 0.2 ? edge : r < 0.35 ? edge.minus(dec('1e-30')) : r < 0.5 ? edge.plus(dec('1e-30')) : edge.times(rnd() * 3);
      const got = quotientSurelyAtLeast(amount, rate, min);
      if (got) {
        sure++;
        expect(dgte(amount.div(rate), min)).toBe(true);
      }
    }
    expect(sure).toBeGreaterThan(1000);
    expect(quotientSurelyAtLeast(dec('300'), dec('-30000'), dec('0.0005'))).toBe(false);
    expect(quotientSurelyAtLeast(dec('300'), dec('0'), dec('0.0005'))).toBe(false);
  });

  it('leaves the dust check\'s answers (and messages) as they were', () => {
    const rnd = mulberry32(12);
    const fx = fixture();
    const plain = checkCtx(fx);
    const rate = new Decimal(30000);
    const fast: CheckContext = Object.assign(Object.create(plain) as CheckContext, {
      btcAtLeast: (c: string, a: Decimal, min: Decimal) => c === 'USD' && quotientSurelyAtLeast(a, rate, min),
    });
    let passedFast = 0;
    for (let n = 0; n < 3000; n++) {
      const q = rnd() < 0.5 ? dec('0.0005') : dec((rnd() * 0.001).toFixed(8));
      const o = order({ quantity: q.isZero() ? dec('0.00000001') : q, limit: dec(29000 + Math.floor(rnd() * 2000)) });
      const cfg = config({ dustMinValueSatoshi: rnd() < 0.7 ? 50_000 : 1 + Math.floor(rnd() * 100_000) });
      const want = dustCheck.check(o, plain, cfg);
      expect(dustCheck.check(o, fast, cfg)).toEqual(want);
      if (Array.isArray(want) && want.length === 0) passedFast++;
    }
    expect(passedFast).toBeGreaterThan(500);
  });
});
