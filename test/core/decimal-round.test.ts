/**
 * toPlaces must answer exactly what decimal.js's toDecimalPlaces answers with ROUND_DOWN and ROUND_UP: the same
 * value and the same representation (sign, exponent, words), on values of every shape — signs, zeros (-0 too),
 * NaN, infinities, integers and tiny fractions, runs of nines that carry across words and into a new first word,
 * and places from 0 to past every digit.
 */
import { describe, expect, it } from 'vitest';
import { Decimal, dec } from '../../src/core/decimal.js';
import { toPlaces } from '../../src/core/decimal-round.js';
import { expectSameDecimal, seededInts, specialDecimal } from '../helpers/random-decimal.js';

const rnd = seededInts(777);

function randomDecimal(): Decimal {
  const special = specialDecimal(rnd, 60);
  if (special) return special;
  const digits = 1 + rnd(30);
  // Runs of nines (carries) and of zeros (trailing zero words) are what rounding up and trimming get wrong.
  const pick = rnd(3);
  let s = String(pick === 0 ? 9 : 1 + rnd(9));
  for (let i = 1; i < digits; i++) s += String(pick === 0 ? (rnd(8) ? 9 : rnd(10)) : pick === 1 && rnd(2) ? 0 : rnd(10));
  const point = rnd(digits + 24) - 12;
  const text = point <= 0 ? `0.${'0'.repeat(-point)}${s}` : point >= digits ? s + '0'.repeat(point - digits) : `${s.slice(0, point)}.${s.slice(point)}`;
  return new Decimal(rnd(4) === 0 ? `-${text}` : text);
}

function check(x: Decimal, dp: number, up: boolean): void {
  const want = x.toDecimalPlaces(dp, up ? Decimal.ROUND_UP : Decimal.ROUND_DOWN);
  const got = toPlaces(x, dp, up);
  expectSameDecimal(got, want, () => `${x.toString()} to ${dp} ${up ? 'up' : 'down'}`);
}

describe('toPlaces', () => {
  it('answers what toDecimalPlaces answers, randomized', () => {
    for (let i = 0; i < 60_000; i++) check(randomDecimal(), rnd(30), rnd(2) === 1);
  });

  it('carries a run of nines into a new first word, and rounds what lies wholly below the last place', () => {
    for (const t of ['9999999.999', '0.9999999', '99999999999999.9999999', '0.00000000999', '0.000000001', '1e-20', '-0.0000000001', '123.45', '1234567', '0.0004'])
      for (let dp = 0; dp <= 16; dp++) for (const up of [false, true]) check(dec(t), dp, up);
    expect(toPlaces(dec('9999999.5'), 0, true).toString()).toBe('10000000');
    expect(toPlaces(dec('0.0004'), 2, true).toString()).toBe('0.01');
    expect(toPlaces(dec('0.0004'), 2, false).toString()).toBe('0');
  });

  it('gives back the value itself when nothing is cut', () => {
    const x = dec('30001.123');
    expect(toPlaces(x, 3, true)).toBe(x);
    expect(toPlaces(x, 8, false)).toBe(x);
  });
});
