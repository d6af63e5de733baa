import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/decimal.js';
import { formatFixed } from '../../src/core/decimal-format.js';
import { Prng } from '../sync/prng.js';

describe('formatFixed', () => {
  it('writes exactly what decimal.js toFixed(dp) and toFixed() write, for random values of every size and sign', () => {
    const rng = new Prng(23);
    const digits = (n: number): string => Array.from({ length: n }, () => String(rng.int(10))).join('');
    const failures: string[] = [];
    for (let k = 0; k < 40_000; k++) {
      const text = `${rng.chance(0.3) ? '-' : ''}${rng.chance(0.3) ? '0' : digits(1 + rng.int(24))}${rng.chance(0.7) ? `.${digits(1 + rng.int(14))}` : ''}`;
      const base = new Decimal(text);
      // Arithmetic results too: their word arrays are built by decimal.js's operations, not its parser.
      for (const d of [base, base.times(`1e${rng.int(30) - 15}`), base.plus('0.00000001'), base.minus(base), base.div(3)]) {
        for (const dp of [8, undefined, 0, 2]) {
          const want = dp === undefined ? d.toFixed() : d.toFixed(dp);
          if (formatFixed(d, dp) !== want) failures.push(`${d.toString()} dp=${dp}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('covers the edges: zero and negative zero, rounding beyond dp (half even), huge and tiny exponents, non-finite', () => {
    const cases = ['0', '-0', '0.00000001', '-0.000000005', '0.000000015', '1.000000025', '99999999.99999999', '1e40', '1e41', '-1e-41', '1e-9', '123456789012345678901234567890.12345678', 'NaN', 'Infinity', '-Infinity'];
    for (const text of cases) {
      const d = new Decimal(text);
      for (const dp of [8, undefined, 0]) expect(formatFixed(d, dp), `${text} dp=${dp}`).toBe(dp === undefined ? d.toFixed() : d.toFixed(dp));
    }
    // Zero's text comes from a table made once: every number of places it covers, and beyond.
    for (let dp = 0; dp <= 60; dp++) for (const z of ['0', '-0', '0.000']) expect(formatFixed(new Decimal(z), dp), `${z} dp=${dp}`).toBe(new Decimal(z).toFixed(dp));
    // More places than a 50-zero pad holds.
    for (const text of ['1', '-12.5', '0.001', '123456789']) expect(formatFixed(new Decimal(text), 60), text).toBe(new Decimal(text).toFixed(60));
    expect(formatFixed(new Decimal('30010'), 8)).toBe('30010.00000000');
    expect(formatFixed(new Decimal('-0.1'))).toBe('-0.1');
  });
});
