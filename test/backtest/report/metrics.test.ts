import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { METRIC_ROWS } from '../../../backtest/report/metric-rows.js';
import { computeMetrics, orderCounts } from '../../../backtest/report/metrics.js';
import { YEAR_MS } from '../../../backtest/report/ratios.js';
import { roundTrips } from '../../../backtest/report/round-trips.js';
import { DAY, T0, workedExample } from './fixture.js';

describe('round trips (FIFO per market)', () => {
  it('closes the oldest lot first, splits commissions pro rata, and flips the position', () => {
    const trips = roundTrips(workedExample().fills).get('BTC-USD')!;
    expect(trips.trips.map((t) => [t.side, t.quantity.toString(), t.entryRate.toString(), t.exitRate.toString(), t.pnl.toString()])).toEqual([
      // 0.5 × (110 − 100) − 0.5 × (0.2/1 + 0.11/0.5) = 5 − 0.21
      ['LONG', '0.5', '100', '110', '4.79'],
      // 0.5 × (90 − 100) − 0.5 × (0.2 + 0.18) = −5 − 0.19
      ['LONG', '0.5', '100', '90', '-5.19'],
      // short 0.5 from the flip: 0.5 × (90 − 80) − 0.5 × (0.18 + 0.08/0.5) = 5 − 0.17
      ['SHORT', '0.5', '90', '80', '4.83'],
    ]);
    expect(trips.open).toEqual([]);
  });

  it('leaves unmatched quantity as an open lot carrying its unspent commission', () => {
    const f = workedExample().fills.slice(0, 2);
    const { trips, open } = roundTrips(f).get('BTC-USD')!;
    expect(trips).toHaveLength(1);
    expect(open.map((l) => [l.side, l.quantity.toString(), l.commission.toString()])).toEqual([['LONG', '0.5', '0.1']]);
  });

  it('matches same-time fills in their input order', () => {
    const f = workedExample().fills.slice(0, 2).map((x) => ({ ...x, at: T0 }));
    expect(roundTrips(f).get('BTC-USD')!.trips[0]!.side).toBe('LONG');
  });
});

describe('metrics of the worked example', () => {
  const m = computeMetrics(workedExample());
  const btc = m.markets['BTC-USD']!;

  it('PnL, fees and turnover per market, exactly', () => {
    // cash: −100.2 +54.89 +89.82 −40.08 = 4.43, flat at the end
    expect(btc.netPnl).toBe('4.43000000');
    expect(btc.realisedPnl).toBe('4.43000000');
    expect(btc.unrealisedPnl).toBe('0.00000000');
    expect(btc.fees).toBe('0.57000000');
    expect(btc.turnover).toBe('285.00000000');
    expect(btc.turnoverRatio).toBeCloseTo(0.285, 12);
    expect(btc.return).toBeCloseTo(0.00443, 12);
    expect(btc.finalPosition).toBe('0');
  });

  it('trade statistics over round trips', () => {
    expect(btc.trades).toBe(3);
    expect(btc.wins).toBe(2);
    expect(btc.losses).toBe(1);
    expect(btc.winRate).toBeCloseTo(2 / 3, 12);
    expect(btc.grossProfit).toBe('9.62000000');
    expect(btc.grossLoss).toBe('5.19000000');
    expect(btc.profitFactor).toBeCloseTo(9.62 / 5.19, 12);
    expect(btc.expectancy).toBe('1.47666667'); // 4.43 / 3
    expect(btc.averageWin).toBe('4.81000000');
    expect(btc.averageLoss).toBe('-5.19000000');
  });

  it('exposure: a position from day 1 to day 4 of 10 (the flip at day 3 is not flat)', () => {
    expect(btc.exposure).toBeCloseTo(0.3, 12);
    // ETH-BTC holds from day 5 to the end: the union with BTC-USD is 3 + 5 days of 10
    expect(m.total.exposure).toBeCloseTo(0.8, 12);
  });

  it('order counts and fill rate', () => {
    // Each order once, by how it ended: o1, o3, o4 filled; o2 part filled then cancelled; o5 cancelled with
    // nothing; o6 rejected; o7 open. (This was filled 4, cancelled 2: o2 counted in both.)
    expect(btc.orders).toEqual({ placed: 7, filled: 3, partiallyFilled: 1, cancelled: 1, rejected: 1, open: 1, fillRate: 4 / 6 });
    const o = btc.orders;
    expect(o.filled + o.partiallyFilled + o.cancelled + o.rejected + o.open).toBe(o.placed);
    expect(m.total.orders.placed).toBe(8);
    expect(orderCounts([]).fillRate).toBeNull();
  });

  it('an order refused before its market was known counts in the total only, not as a market of its own', () => {
    const input = workedExample();
    input.orders.push({ ...input.orders[5]!, clientOrderId: 'c-x', id: undefined, marketSymbol: '', type: '' });
    const r = computeMetrics(input);
    expect(Object.keys(r.markets)).toEqual(['BTC-USD', 'ETH-BTC']);
    expect(r.total.orders).toMatchObject({ placed: 9, rejected: 2 });
  });

  it('totals: equity change, drawdown and its window, other-quote markets left out of money totals', () => {
    const t = m.total;
    expect(t.initialEquity).toBe('1000.00000000');
    expect(t.finalEquity).toBe('1004.43000000');
    expect(t.netPnl).toBe('4.43000000');
    expect(t.return).toBeCloseTo(0.00443, 12);
    expect(t.fees).toBe('0.57000000');
    expect(t.trades).toBe(3);
    expect(t.excludedFromTotals).toEqual(['ETH-BTC']);
    expect(t.maxDrawdown).toEqual({ fraction: 20 / 1010, amount: '20.00000000', peakAt: T0 + 2 * DAY, troughAt: T0 + 3 * DAY, recoveredAt: null });
    expect(t.denials).toEqual({ MAX_OPEN_ORDERS: 1, MAX_POSITION: 2 });
    expect(Object.keys(t.denials)).toEqual(['MAX_OPEN_ORDERS', 'MAX_POSITION']);
  });

  it('CAGR, Sharpe, Sortino and Calmar on hourly returns of a 10-day run, 365-day year', () => {
    const t = m.total;
    expect(t.returnsInterval).toBe('1h');
    // 240 hourly returns; all zero except the three day closes
    const r = [0.01, 990 / 1010 - 1, 1004.43 / 990 - 1];
    const n = 240;
    const mean = r.reduce((a, b) => a + b, 0) / n;
    const ss = r.reduce((a, x) => a + (x - mean) ** 2, 0) + (n - r.length) * mean ** 2;
    const sd = Math.sqrt(ss / (n - 1));
    const ann = Math.sqrt(365 * 24);
    expect(t.sharpe).toBeCloseTo((mean / sd) * ann, 9);
    const down = Math.sqrt((990 / 1010 - 1) ** 2 / n);
    expect(t.sortino).toBeCloseTo((mean / down) * ann, 9);
    // CAGR (and so Calmar) needs 30 days: these were 17.5 % and 8.84, 0.443 % compounded 36.5 times.
    expect([t.cagr, t.calmar]).toEqual([null, null]);
    expect(t.unavailable).toEqual({
      cagr: "needs a run of at least 30 days (a shorter run's return compounded into a year says nothing); this run is 10d 0h",
      calmar: 'needs a CAGR (see CAGR)',
    });
  });

  it('CAGR and Calmar of the same account over 40 days (flat after day 4)', () => {
    const input = workedExample();
    input.to = T0 + 40 * DAY;
    const t = computeMetrics(input).total;
    const cagr = 1.00443 ** (YEAR_MS / (40 * DAY)) - 1;
    expect(t.cagr).toBeCloseTo(cagr, 9);
    expect(t.calmar).toBeCloseTo(cagr / (20 / 1010), 9);
    expect(t.returnsInterval).toBe('1d');
    expect(t.unavailable).toEqual({});
  });

  it('Sharpe and Sortino of a run shorter than 30 hourly returns are left out, saying why', () => {
    const input = workedExample();
    input.to = T0 + 20 * 3_600_000;
    input.equity = [
      { at: T0, equity: '1000', positions: {} },
      { at: T0 + 3_600_000, equity: '1010', positions: {} },
      { at: T0 + 2 * 3_600_000, equity: '990', positions: {} },
    ];
    const t = computeMetrics(input).total;
    expect([t.sharpe, t.sortino, t.cagr, t.calmar]).toEqual([null, null, null, null]);
    expect(t.unavailable.sharpe).toBe('needs at least 30 hourly returns (a run of 30 h); this run of 20h 0m has 20');
    expect(t.unavailable.sortino).toBe(t.unavailable.sharpe);
    expect(t.return).toBeCloseTo(-0.01, 12);
    expect(t.unavailable.return).toBeUndefined();
  });

  it('per-market curve: first equity plus the market marked at its prices', () => {
    // BTC-USD alone: 1000 → day 2 marks 0.5 @ 110 with cash −45.31 → 1009.69; day 3 short 0.5 @ 90 → 1000+44.51−45 = 999.51
    expect(btc.maxDrawdown.amount).toBe('10.18000000');
    expect(btc.maxDrawdown.fraction).toBeCloseTo(10.18 / 1009.69, 12);
  });

  it('market in another quote currency: its own PnL in that currency', () => {
    const eth = m.markets['ETH-BTC']!;
    expect(eth.quoteCurrency).toBe('BTC');
    // bought 1 @ 0.03 paying 0.00006, marked at 0.03
    expect(eth.netPnl).toBe('-0.00006000');
    expect(eth.unrealisedPnl).toBe('-0.00006000');
    expect(eth.trades).toBe(0);
    // no exchange rate is invented: ratios against the USD equity are left out
    expect([eth.return, eth.sharpe, eth.cagr, eth.turnoverRatio, eth.maxDrawdown.fraction]).toEqual([null, null, null, null, null]);
    expect(eth.maxDrawdown.amount).toBe('0.00006000');
    expect(eth.profitFactor).toBeNull();
  });

  it('decimals stay exact where floats would not', () => {
    const input = workedExample();
    input.fills = [
      { ...input.fills[0]!, quantity: '0.1', rate: '0.1', commission: '0' },
      { ...input.fills[1]!, quantity: '0.1', rate: '0.2', commission: '0' },
    ];
    expect(computeMetrics(input).markets['BTC-USD']!.realisedPnl).toBe(new Decimal('0.01').toFixed(8));
  });
});

describe('holding the starting balances', () => {
  it('hold PnL and return over the first and last valued points; net PnL vs holding is the rest', () => {
    const input = workedExample();
    // The start held coins whose value fell from 1000 to 900 over the run (hold), while the account ended at 1004.43.
    input.equity = input.equity.map((p, d) => ({ ...p, hold: String(1000 - 10 * d) }));
    const t = computeMetrics(input).total;
    expect(t.holdPnl).toBe('-100.00000000');
    expect(t.holdReturn).toBeCloseTo(-0.1, 12);
    expect(t.netPnlVsHold).toBe('104.43000000');
    // A stale first point is left out of both: the hold line starts where the equity does.
    input.equity[0] = { ...input.equity[0]!, equity: '10', hold: '10', stale: true };
    const u = computeMetrics(input).total;
    expect(u.holdPnl).toBe('-90.00000000');
    expect(u.netPnlVsHold).toBe('94.43000000');
  });

  it('is unknown (null, and – in the tables) when the first or last point has no hold value', () => {
    const input = workedExample();
    const t = computeMetrics(input).total;
    expect([t.holdPnl, t.holdReturn, t.netPnlVsHold]).toEqual([null, null, null]);
    input.equity = input.equity.map((p, d) => (d === 0 ? p : { ...p, hold: '1000' }));
    expect(computeMetrics(input).total.holdPnl).toBeNull();
    const row = METRIC_ROWS.find((r) => r.label === 'net PnL vs holding')!;
    expect(row.value(computeMetrics(input).total)).toBe('–');
    expect(row.value(computeMetrics(input).markets['BTC-USD']!)).toBe('–');
  });
});

describe('stale equity points', () => {
  it('are left out of the curve: a holding first valued at nothing is not profit', () => {
    const input = workedExample();
    input.equity = [{ at: T0, equity: '10', positions: {}, stale: true }, ...input.equity.slice(1)];
    const m = computeMetrics(input).total;
    expect(m.initialEquity).toBe('1000.00000000');
    expect(m.netPnl).toBe('4.43000000');
    input.equity = input.equity.map((p) => ({ ...p, stale: true }));
    expect(computeMetrics(input).total.initialEquity).toBe('10.00000000');
  });
});
