/** How the report writes numbers for people. */
import { describe, expect, it } from 'vitest';
import { pct } from '../../../backtest/report/report-format.js';

describe('pct', () => {
  it('writes a fraction as a percentage with 2 decimals; a loss too small to show is 0.00 %, never -0.00 %', () => {
    expect(pct(0.12345)).toBe('12.35 %');
    expect(pct(-0.5)).toBe('-50.00 %');
    expect(pct(-0.00001)).toBe('0.00 %');
    expect(pct(0)).toBe('0.00 %');
    expect(pct(null)).toBe('–');
  });
});
