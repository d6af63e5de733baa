/**
 * dmul, dadd, dsub and dhalf must answer exactly what decimal.js's times, plus, minus and div(2) answer: the same value and the
 * same representation (sign, exponent, words), on operands of every shape — few digits and many, integers with
 * trailing zeros, tiny fractions, signs, zeros (-0 too), NaN, infinities — including the edges where the fast path
 * must hand over (results or aligned operands reaching 15 digits, sums that cancel to zero).
 */
import { describe, it } from 'vitest';
import { Decimal, dec, decimalJs } from '../../src/core/decimal.js';
import { dadd, dhalf, dmul, dsub } from '../../src/core/decimal-fast.js';
import { expectSameDecimal, randomMoneyDecimal, seededInts } from '../helpers/random-decimal.js';

const rnd = seededInts(9001);

const randomDecimal = (): Decimal => randomMoneyDecimal(rnd);

describe('dmul, dadd, dsub, dhalf', () => {
  it('answer what times, plus and minus answer, randomized', () => {
    for (let i = 0; i < 60_000; i++) {
      const a = randomDecimal();
      // Half the time an operand of the same scale, so sums cancel and carry.
      const b = rnd(2) ? randomDecimal() : rnd(2) ? a.neg() : a.plus(new Decimal(10).pow(a.isFinite() && !a.isZero() ? a.e - rnd(16) : 0));
      const what = () => `${a.toString()} , ${b.toString()}`;
      expectSameDecimal(dmul(a, b), decimalJs.times.call(a, b), () => `${what()} times`);
      expectSameDecimal(dadd(a, b), decimalJs.plus.call(a, b), () => `${what()} plus`);
      expectSameDecimal(dsub(a, b), decimalJs.minus.call(a, b), () => `${what()} minus`);
      expectSameDecimal(dhalf(a), decimalJs.div.call(a, 2), () => `${a.toString()} / 2`);
    }
  });

  it('at the edges of the fast path', () => {
    const cases: [string, string][] = [
      ['999999999999999', '1'],
      ['99999999999999.9', '0.1'],
      ['0.01', '43123.456'],
      ['31622776.6016838', '31622776.6016838'],
      ['1e-30', '1e30'],
      ['123456789012345', '1e-10'],
      ['4312345600', '0.0025'],
      ['-0.00000001', '0.00000001'],
      ['10000000', '0.0000001'],
      ['0', '123.45'],
      ['-0', '0.001'],
      ['0', '-0'],
      ['-0', '-0'],
      ['0', '1.2345678901234567890123'],
    ];
    for (const [x, y] of cases) {
      const a = dec(x);
      const b = dec(y);
      expectSameDecimal(dmul(a, b), decimalJs.times.call(a, b), `${x} x ${y}`);
      expectSameDecimal(dadd(a, b), decimalJs.plus.call(a, b), `${x} + ${y}`);
      expectSameDecimal(dsub(a, b), decimalJs.minus.call(a, b), `${x} - ${y}`);
      expectSameDecimal(dsub(b, a), decimalJs.minus.call(b, a), `${y} - ${x}`);
      expectSameDecimal(dhalf(a), decimalJs.div.call(a, 2), `${x} / 2`);
    }
  });
});
