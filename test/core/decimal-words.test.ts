/**
 * wordSum (and dadd / dsub / dsum, which fall back to it past 15 digits) must answer exactly what decimal.js's plus
 * and minus answer: the same value and representation (sign, exponent, words), on long operands of every shape —
 * balances with 8 decimals past 10^7, values of 16 to 45 digits, operands words apart, carries through runs of
 * 9s, borrows through runs of 0s, cancellation to zero, and answers around the 40 significant digits where
 * decimal.js starts rounding and wordSum must hand over.
 */
import { describe, expect, it } from 'vitest';
import { Decimal, dec, decimalJs } from '../../src/core/decimal.js';
import { dadd, dsub, dsum } from '../../src/core/decimal-fast.js';
import { wordSum } from '../../src/core/decimal-words.js';
import { expectSameDecimal, seededInts, specialDecimal } from '../helpers/random-decimal.js';

const rnd = seededInts(4242);

function digitsText(n: number): string {
  // Runs of 9s and 0s make carries and borrows travel across words.
  const kind = rnd(4);
  let s = String(1 + rnd(9));
  for (let i = 1; i < n; i++) s += kind === 0 ? '9' : kind === 1 ? (rnd(4) === 0 ? String(rnd(10)) : '0') : String(rnd(10));
  return s;
}

function longDecimal(): Decimal {
  const special = specialDecimal(rnd, 100);
  if (special) return special;
  const digits = 1 + (rnd(3) === 0 ? rnd(45) : 14 + rnd(12));
  const s = digitsText(digits);
  const point = rnd(digits + 20) - 10;
  const text = point <= 0 ? `0.${'0'.repeat(-point)}${s}` : point >= digits ? s + '0'.repeat(point - digits) : `${s.slice(0, point)}.${s.slice(point)}`;
  return new Decimal(rnd(3) === 0 ? `-${text}` : text);
}

/** wordSum's answer, when it gives one, is decimal.js's; dadd/dsub/dsum always are. */
function check(a: Decimal, b: Decimal): number {
  const what = () => `${a.toString()} , ${b.toString()}`;
  let answered = 0;
  const plus = wordSum(a, b, 1);
  if (plus !== undefined) {
    expectSameDecimal(plus, decimalJs.plus.call(a, b), () => `${what()} wordSum +`);
    answered++;
  }
  const minus = wordSum(a, b, -1);
  if (minus !== undefined) {
    expectSameDecimal(minus, decimalJs.minus.call(a, b), () => `${what()} wordSum -`);
    answered++;
  }
  expectSameDecimal(dadd(a, b), decimalJs.plus.call(a, b), () => `${what()} dadd`);
  expectSameDecimal(dsub(a, b), decimalJs.minus.call(a, b), () => `${what()} dsub`);
  if (!a.isZero() && !b.isZero()) expectSameDecimal(dsum(a, b), decimalJs.plus.call(a, b), () => `${what()} dsum`);
  return answered;
}

describe('wordSum', () => {
  it('answers what plus and minus answer, randomized, and answers most long sums itself', () => {
    let answered = 0;
    for (let i = 0; i < 25_000; i++) {
      const a = longDecimal();
      // Often an operand of a nearby scale, or a's own negation or a near copy: sums then cancel, carry and borrow.
      const k = rnd(4);
      const b =
        k === 0 || !a.isFinite() || a.isZero()
          ? longDecimal()
          : k === 1
            ? a.neg()
            : k === 2
              ? a.plus(new Decimal(10).pow(a.e - rnd(30)))
              : new Decimal(10).pow(a.e - rnd(20)).times(rnd(2) ? 1 : -1).times(1 + rnd(999));
      answered += check(a, b);
    }
    // The fast path must not be trivially handing everything back.
    expect(answered).toBeGreaterThan(25_000);
  });

  it('at its edges', () => {
    const cases: [string, string][] = [
      ['10000000000', '-30.11503500'],
      ['9999999999.99999999', '0.00000001'],
      ['1000000000000', '0.00000001'],
      ['1000000000000.00000001', '-1000000000000'],
      ['1234567890123456789012345678901234567890', '1'],
      ['1234567890123456789012345678901234567890', '10'],
      ['9999999999999999999999999999999999999999', '1'],
      ['999999999999999999999999999999999999999', '1'],
      ['1e30', '1e-10'],
      ['1e30', '1e-9'],
      ['1e40', '1e-16'],
      ['1e-30', '1e-31'],
      ['12345678.12345678', '-12345678.12345679'],
      ['100000000000000000', '-0.00000001'],
      ['0', '12345678901234567.8'],
      ['-0', '12345678901234567.8'],
      ['0', '1.234567890123456789012345678901234567890123'],
      ['-0', '-0'],
      ['12345678901234567.8', 'NaN'],
      ['12345678901234567.8', 'Infinity'],
    ];
    for (const [x, y] of cases) {
      const a = new Decimal(x);
      const b = new Decimal(y);
      check(a, b);
      check(b, a);
      check(a.neg(), b);
    }
    // A balance after paying for a fill: exactly the answer, computed on words.
    expect(wordSum(dec('10000000000'), dec('30.115035'), -1)?.toFixed()).toBe('9999999969.884965');
  });
});
