/**
 * Ranking a sweep's results by one metric (`--metric`), and the table printed at the end.
 */
import Table from 'cli-table3';
import type { TotalMetrics } from '../report/metrics.js';
import { pct, ratio } from '../report/report-format.js';
import type { SweepResult } from './sweep-job.js';

/** A metric a sweep can be ranked by. */
export interface RankMetric {
  get: (m: TotalMetrics) => number | null;
  /** True when more is better (so it ranks first). */
  higherIsBetter: boolean;
}

/** The metrics `--metric` accepts. */
export const RANK_METRICS: Record<string, RankMetric> = {
  netPnl: { get: (m) => Number(m.netPnl), higherIsBetter: true },
  // Net PnL less what holding the starting balances made: what the parameters themselves earned.
  netPnlVsHold: { get: (m) => (m.netPnlVsHold == null ? null : Number(m.netPnlVsHold)), higherIsBetter: true },
  return: { get: (m) => m.return, higherIsBetter: true },
  cagr: { get: (m) => m.cagr, higherIsBetter: true },
  sharpe: { get: (m) => m.sharpe, higherIsBetter: true },
  sortino: { get: (m) => m.sortino, higherIsBetter: true },
  calmar: { get: (m) => m.calmar, higherIsBetter: true },
  maxDrawdown: { get: (m) => m.maxDrawdown.fraction, higherIsBetter: false },
  winRate: { get: (m) => m.winRate, higherIsBetter: true },
  profitFactor: { get: (m) => m.profitFactor, higherIsBetter: true },
  expectancy: { get: (m) => (m.expectancy === null ? null : Number(m.expectancy)), higherIsBetter: true },
  fees: { get: (m) => Number(m.fees), higherIsBetter: false },
  trades: { get: (m) => m.trades, higherIsBetter: true },
  fillRate: { get: (m) => m.orders.fillRate, higherIsBetter: true },
  exposure: { get: (m) => m.exposure, higherIsBetter: false },
};

/** The metric named `name`; throws listing the known ones. */
export function rankMetric(name: string): RankMetric {
  const m = RANK_METRICS[name];
  if (!m) throw new Error(`--metric ${name}: unknown; one of ${Object.keys(RANK_METRICS).join(', ')}`);
  return m;
}

/**
 * Results best first by `metric`; a result without a value for it comes after those with one, and failed jobs
 * come last, each group in grid order.
 */
export function rankResults(results: readonly SweepResult[], metric: string): SweepResult[] {
  const m = rankMetric(metric);
  const key = (r: SweepResult): number | null => (r.ok ? m.get(r.metrics) : null);
  const group = (r: SweepResult): number => (!r.ok ? 2 : key(r) === null ? 1 : 0);
  return [...results].sort((a, b) => {
    const ga = group(a);
    const gb = group(b);
    if (ga !== gb) return ga - gb;
    if (ga === 0) {
      const d = (key(a)! - key(b)!) * (m.higherIsBetter ? -1 : 1);
      if (d !== 0) return d;
    }
    return a.index - b.index;
  });
}

/** The value of `metric` in `r` as the table prints it. */
export function metricText(r: SweepResult, metric: string): string {
  if (!r.ok) return '–';
  const v = rankMetric(metric).get(r.metrics);
  if (v === null) return '–';
  if (['return', 'cagr', 'maxDrawdown', 'winRate', 'fillRate', 'exposure'].includes(metric)) return pct(v);
  if (metric === 'netPnl') return r.metrics.netPnl;
  if (metric === 'netPnlVsHold') return r.metrics.netPnlVsHold ?? '–';
  if (metric === 'fees') return r.metrics.fees;
  if (metric === 'expectancy') return r.metrics.expectancy ?? '–';
  if (metric === 'trades') return String(v);
  return ratio(v);
}

/** The parameter keys of a sweep, in grid order. */
export function paramKeys(results: readonly SweepResult[]): string[] {
  const keys: string[] = [];
  for (const r of results) for (const k of Object.keys(r.params)) if (!keys.includes(k)) keys.push(k);
  return keys;
}

/** The ranked table as text: the rank metric, then net PnL, Sharpe, max drawdown and trades (each once). */
export function sweepTable(ranked: readonly SweepResult[], metric: string, opts: { color?: boolean } = {}): string {
  const keys = paramKeys(ranked);
  const style = opts.color ? {} : { head: [], border: [] };
  const extra = ['netPnl', 'sharpe', 'maxDrawdown', 'trades'].filter((m) => m !== metric);
  const t = new Table({ head: ['#', ...keys, metric, ...extra, 'report or error'], style });
  ranked.forEach((r, i) => {
    const params = keys.map((k) => (k in r.params ? JSON.stringify(r.params[k]) : ''));
    if (r.ok) t.push([String(i + 1), ...params, metricText(r, metric), ...extra.map((m) => metricText(r, m)), r.html]);
    else t.push([String(i + 1), ...params, '–', ...extra.map(() => '–'), `FAILED: ${r.error}`]);
  });
  return t.toString();
}
