/**
 * The metric rows shown by the report page and the terminal summary, in reading order: one label and one
 * formatter per row, applied to the total and to each market.
 */
import type { RatioName } from './curve-stats.js';
import type { MarketMetrics, TotalMetrics } from './metrics.js';
import { amount, fmtTime, pct, ratio } from './report-format.js';

type Metrics = TotalMetrics | MarketMetrics;

/** One row of the metric table. */
export interface MetricRow {
  label: string;
  value: (m: Metrics) => string;
  /** Shown in the terminal summary too (the page shows every row). */
  summary: boolean;
  /** The ratio this row shows, whose `unavailable` reason is told when it is left out. */
  ratio?: RatioName;
}

/** Every metric row. */
export const METRIC_ROWS: readonly MetricRow[] = [
  { label: 'net PnL', value: (m) => m.netPnl, summary: true },
  { label: 'return', value: (m) => pct(m.return), summary: true, ratio: 'return' },
  // Total only: a market's PnL already leaves the starting balances out.
  { label: 'holding the start balances (PnL, return)', value: (m) => ('holdPnl' in m && m.holdPnl !== null ? `${m.holdPnl} (${pct(m.holdReturn)})` : '–'), summary: true },
  { label: 'net PnL vs holding', value: (m) => ('netPnlVsHold' in m ? amount(m.netPnlVsHold) : '–'), summary: true },
  { label: 'CAGR', value: (m) => pct(m.cagr), summary: false, ratio: 'cagr' },
  { label: 'fees', value: (m) => m.fees, summary: true },
  { label: 'Sharpe', value: (m) => ratio(m.sharpe), summary: true, ratio: 'sharpe' },
  { label: 'Sortino', value: (m) => ratio(m.sortino), summary: false, ratio: 'sortino' },
  { label: 'Calmar', value: (m) => ratio(m.calmar), summary: false, ratio: 'calmar' },
  { label: 'max drawdown', value: (m) => `${pct(m.maxDrawdown.fraction)} (${m.maxDrawdown.amount})`, summary: true },
  { label: 'drawdown window', value: (m) => (m.maxDrawdown.peakAt === null ? '–' : `${fmtTime(m.maxDrawdown.peakAt)} → ${fmtTime(m.maxDrawdown.troughAt)}, recovered ${m.maxDrawdown.recoveredAt === null ? 'never' : fmtTime(m.maxDrawdown.recoveredAt)}`), summary: false },
  { label: 'trades (round trips)', value: (m) => String(m.trades), summary: true },
  { label: 'win rate', value: (m) => pct(m.winRate), summary: true },
  { label: 'profit factor', value: (m) => ratio(m.profitFactor), summary: true },
  { label: 'expectancy', value: (m) => amount(m.expectancy), summary: false },
  { label: 'average win', value: (m) => amount(m.averageWin), summary: false },
  { label: 'average loss', value: (m) => amount(m.averageLoss), summary: false },
  { label: 'turnover', value: (m) => m.turnover, summary: false },
  { label: 'turnover / equity', value: (m) => ratio(m.turnoverRatio), summary: false },
  { label: 'exposure time', value: (m) => pct(m.exposure), summary: true },
  { label: 'fills', value: (m) => String(m.fills), summary: true },
  // Each order placed in exactly one of the five (see OrderCounts): they add up to placed.
  {
    label: 'orders placed: filled / part / cancelled / rejected / open',
    value: (m) => `${m.orders.placed}: ${m.orders.filled} / ${m.orders.partiallyFilled} / ${m.orders.cancelled} / ${m.orders.rejected} / ${m.orders.open}`,
    summary: true,
  },
  { label: 'fill rate', value: (m) => pct(m.orders.fillRate), summary: false },
];
