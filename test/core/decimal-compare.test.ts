/**
 * dcmp and its helpers compare without copying the argument; they must answer exactly what decimal.js's cmp, lt,
 * gt, lte, gte and eq answer, on values of every shape: signs, zeros (-0 too), NaN, infinities, many words and
 * few, equal exponents with different digits, and values a few units of their last digit apart.
 */
import { describe, it } from 'vitest';
import { Decimal, dcmp, decimalJs, deq, dgt, dgte, dlt, dlte, dmax, dmin } from '../../src/core/decimal.js';
import { holds, sameAs } from '../helpers/cheap-expect.js';
import { seededInts, specialDecimal } from '../helpers/random-decimal.js';

const rnd = seededInts(4242);

function randomDecimal(): Decimal {
  const special = specialDecimal(rnd, 40);
  if (special) return special;
  const digits = 1 + rnd(30);
  let s = String(1 + rnd(9));
  for (let i = 1; i < digits; i++) s += String(rnd(10));
  const point = rnd(digits + 12) - 6;
  const text = point <= 0 ? `0.${'0'.repeat(-point)}${s}` : point >= digits ? s + '0'.repeat(point - digits) : `${s.slice(0, point)}.${s.slice(point)}`;
  return new Decimal(rnd(4) === 0 ? `-${text}` : text);
}

/** A value close to `d`: equal, or a unit of some low digit either side. */
function near(d: Decimal): Decimal {
  if (!d.isFinite() || rnd(3) === 0) return new Decimal(d);
  return d.plus(new Decimal(10).pow(-rnd(30)).times(rnd(2) ? 1 : -1));
}

describe('dcmp', () => {
  it('answers what decimal.js answers', () => {
    for (let i = 0; i < 30_000; i++) {
      const a = randomDecimal();
      const b = rnd(2) ? near(a) : randomDecimal();
      // Up to 240k checks: sameAs and holds call `expect`, and write the values out, only for a case that differs.
      const what = () => `${a.toString()} vs ${b.toString()}`;
      holds(Object.is(dcmp(a, b), decimalJs.cmp.call(a, b)) || (Number.isNaN(dcmp(a, b)) && Number.isNaN(decimalJs.cmp.call(a, b))), what);
      sameAs(dlt(a, b), a.lt(b), what);
      sameAs(dgt(a, b), a.gt(b), what);
      sameAs(dlte(a, b), a.lte(b), what);
      sameAs(dgte(a, b), a.gte(b), what);
      sameAs(deq(a, b), a.eq(b), what);
      if (a.isFinite() && b.isFinite()) {
        sameAs(dmax(a, b), a.gte(b) ? a : b, () => `dmax of ${what()}`);
        sameAs(dmin(a, b), a.lte(b) ? a : b, () => `dmin of ${what()}`);
      }
    }
  });
});
