/**
 * decimal-fast.ts puts exact fast paths in front of decimal.js's own `cmp`, `plus`, `minus`, `times` and `div`, so
 * a strategy's `a.times(b)` or `a.lt(b)` gets them too. Every method must still answer exactly what decimal.js
 * answers (same value, same representation), for every argument it accepts: Decimals of ours, strings, numbers,
 * Decimals of another decimal.js clone (clones share the prototype), and after the constructor's precision changed.
 */
import { Decimal as DecimalJs } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { Decimal, dec, decimalJs } from '../../src/core/decimal.js';
import '../../src/core/decimal-fast.js';
import { holds, sameAs } from '../helpers/cheap-expect.js';
import { expectSameDecimal, randomMoneyDecimal, seededInts } from '../helpers/random-decimal.js';

const rnd = seededInts(4242);

const randomDecimal = (): Decimal => randomMoneyDecimal(rnd);

/** Each method against decimal.js's own, for `a` and an argument `y` (a Decimal, string or number). */
function expectSameAnswers(a: Decimal, y: Decimal | string | number, what: () => string): void {
  const c = a.cmp(y);
  const want = decimalJs.cmp.call(a, y);
  holds(Object.is(c, want) || (Number.isNaN(c) && Number.isNaN(want)), () => `${what()} cmp`);
  sameAs(a.eq(y), want === 0, () => `${what()} eq`);
  sameAs(a.lt(y), want < 0, () => `${what()} lt`);
  sameAs(a.gt(y), want > 0, () => `${what()} gt`);
  sameAs(a.lte(y), want <= 0, () => `${what()} lte`);
  sameAs(a.gte(y), want >= 0, () => `${what()} gte`);
  expectSameDecimal(a.plus(y), decimalJs.plus.call(a, y), () => `${what()} plus`);
  expectSameDecimal(a.add(y), decimalJs.plus.call(a, y), () => `${what()} add`);
  expectSameDecimal(a.minus(y), decimalJs.minus.call(a, y), () => `${what()} minus`);
  expectSameDecimal(a.sub(y), decimalJs.minus.call(a, y), () => `${what()} sub`);
  expectSameDecimal(a.times(y), decimalJs.times.call(a, y), () => `${what()} times`);
  expectSameDecimal(a.mul(y), decimalJs.times.call(a, y), () => `${what()} mul`);
  expectSameDecimal(a.div(y), decimalJs.div.call(a, y), () => `${what()} div`);
}

describe('Decimal methods with fast paths', () => {
  it('are installed on the prototype', () => {
    expect(Decimal.prototype.plus).not.toBe(decimalJs.plus);
    expect(Decimal.prototype.cmp).not.toBe(decimalJs.cmp);
    expect(Decimal.prototype.comparedTo).toBe(Decimal.prototype.cmp);
    expect(Decimal.prototype.dividedBy).toBe(Decimal.prototype.div);
  });

  it('answer what decimal.js answers, randomized, Decimal arguments', () => {
    for (let i = 0; i < 20_000; i++) {
      const a = randomDecimal();
      const b = rnd(3) === 0 ? dec(2) : rnd(2) ? randomDecimal() : rnd(2) ? a.neg() : decimalJs.plus.call(a, new Decimal(10).pow(a.isFinite() && !a.isZero() ? a.e - rnd(16) : 0));
      expectSameAnswers(a, b, () => `${a.toString()} , ${b.toString()}`);
    }
  });

  it('answer what decimal.js answers for string and number arguments', () => {
    for (let i = 0; i < 5_000; i++) {
      const a = randomDecimal();
      const b = randomDecimal();
      expectSameAnswers(a, b.toString(), () => `${a.toString()} , '${b.toString()}'`);
      expectSameAnswers(a, b.toNumber(), () => `${a.toString()} , ${b.toNumber()}`);
    }
    expectSameAnswers(dec('30001.5'), 2, () => '30001.5 , 2 (number)');
  });

  it("leave another decimal.js clone's values to decimal.js (its own precision)", () => {
    const Other = DecimalJs.clone({ precision: 5 });
    const a = new Other('1.23456789');
    const b = new Other('2.00000001');
    expect(a.plus(b).toString()).toBe('3.2346');
    expect(a.times(b).toString()).toBe('2.4691');
    expect(a.div(2).toString()).toBe('0.61728');
    // Ours with theirs: decimal.js converts the argument to our constructor and answers by our rules.
    const ours = dec('1.23456789');
    expectSameDecimal(ours.plus(b as unknown as Decimal), decimalJs.plus.call(ours, b as unknown as Decimal), 'ours + theirs');
    expect(ours.eq(a as unknown as Decimal)).toBe(true);
  });

  it('follow a change of the precision (decimal.js rounds, the fast paths stand aside)', () => {
    const D = Decimal as unknown as { precision: number };
    D.precision = 5;
    try {
      expect(dec('1.23456789').plus(dec('1')).toString()).toBe('2.2346');
      expect(dec('123.45').times(dec('1.5')).toString()).toBe('185.18');
      expect(dec('12345.7').div(dec(2)).toString()).toBe('6172.8');
    } finally {
      D.precision = 40;
    }
    expect(dec('1.23456789').plus(dec('1')).toString()).toBe('2.23456789');
  });
});
