import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { cagr, calmar, intervalReturns, maxDrawdown, MIN_CAGR_SPAN_MS, MIN_RETURNS, returnsInterval, sharpe, sortino, YEAR_MS } from '../../../backtest/report/ratios.js';

const pts = (vals: number[]) => vals.map((v, i) => ({ at: i * 1000, value: new Decimal(v) }));
const DAY = 86_400_000;

describe('ratios', () => {
  it('max drawdown: the deepest fall by fraction of its peak, its window and recovery', () => {
    // 100 → 80 is 20 %, 150 → 125 is 16.7 %: the first wins although the second is larger in money
    const dd = maxDrawdown(pts([100, 80, 120, 150, 125, 160]));
    expect({ ...dd, amount: dd.amount.toString() }).toEqual({ fraction: 0.2, amount: '20', peakAt: 0, troughAt: 1000, recoveredAt: 2000 });
    expect(maxDrawdown(pts([100, 90, 95])).recoveredAt).toBeNull();
    expect(maxDrawdown(pts([1, 2, 3])).fraction).toBe(0);
    expect(maxDrawdown([]).peakAt).toBeNull();
  });

  it('resampling interval: daily from 30 days on, else hourly (nothing shorter is annualised)', () => {
    expect(returnsInterval(60 * DAY).name).toBe('1d');
    expect(returnsInterval(30 * DAY).name).toBe('1d');
    expect(returnsInterval(10 * DAY).name).toBe('1h');
    // These were 5m, 10s and 1s: annualising them is what made a 12-second run's Sharpe read 1727.
    expect(returnsInterval(3 * 3_600_000).name).toBe('1h');
    expect(returnsInterval(600_000).name).toBe('1h');
    expect(returnsInterval(10).name).toBe('1h');
    expect(MIN_RETURNS).toBe(30);
  });

  it('interval returns of a step curve', () => {
    const curve = [
      { at: 0, value: new Decimal(100) },
      { at: 1500, value: new Decimal(110) },
      { at: 2000, value: new Decimal(99) },
    ];
    // samples at 0, 1000, 2000, 3000: 100, 100, 99, 99
    expect(intervalReturns(curve, 0, 3000, 1000)).toEqual([0, -0.01, 0]);
  });

  it('Sharpe and Sortino by hand: returns 1 %, −1 %, 2 % daily', () => {
    const r = [0.01, -0.01, 0.02];
    const mean = 0.02 / 3;
    const sd = Math.sqrt(((0.01 - mean) ** 2 + (-0.01 - mean) ** 2 + (0.02 - mean) ** 2) / 2);
    expect(sharpe(r, DAY)).toBeCloseTo((mean / sd) * Math.sqrt(365), 12);
    expect(sortino(r, DAY)).toBeCloseTo((mean / Math.sqrt(0.0001 / 3)) * Math.sqrt(365), 12);
    expect(sharpe([0.01], DAY)).toBeNull();
    expect(sharpe([0.01, 0.01], DAY)).toBeNull();
    expect(sortino([0.01, 0.02], DAY)).toBeNull();
  });

  it('CAGR and Calmar', () => {
    expect(cagr(new Decimal(100), new Decimal(121), 2 * YEAR_MS)).toBeCloseTo(0.1, 12);
    expect(cagr(new Decimal(100), new Decimal(99.97), 90_000)).toBeNull(); // a 90 s run: no CAGR
    // A +1 % day was a CAGR of +3678 % (1.01^365 − 1): no run shorter than 30 days has one now.
    expect(MIN_CAGR_SPAN_MS).toBe(30 * DAY);
    expect(cagr(new Decimal(100), new Decimal(101), DAY)).toBeNull();
    expect(cagr(new Decimal(100), new Decimal(101), 30 * DAY)).toBeCloseTo(1.01 ** (365 / 30) - 1, 12);
    expect(cagr(new Decimal(100), new Decimal('1e300'), 30 * DAY)).toBeNull(); // (1e298)^12.2 is not a finite number
    expect(cagr(new Decimal(0), new Decimal(1), YEAR_MS)).toBeNull();
    expect(calmar(0.1, 0.2)).toBeCloseTo(0.5, 12);
    expect(calmar(0.1, 0)).toBeNull();
    expect(calmar(null, 0.2)).toBeNull();
  });
});
