/**
 * `report.json`: everything the report shows, as data. Objects are written with their keys sorted and arrays in
 * a fixed order, and nothing depends on the wall clock, so identical input gives byte-identical files.
 */
import type { ReportBandRun, ReportFill, ReportInput, ReportOrder, ReportStrategyFailure } from './report-input.js';
import { computeMetricsAndTrades, money, type ReportMetrics } from './metrics.js';
import { reportSeries, type ReportSeries } from './series.js';

/** Version tag of the report format. */
export const REPORT_FORMAT = 'rexbot-report/1';

/** One closed trade as the report lists it (money as 8-decimal strings). */
export interface ReportTrade {
  marketSymbol: string;
  side: 'LONG' | 'SHORT';
  quantity: string;
  entryAt: number;
  entryRate: string;
  exitAt: number;
  exitRate: string;
  commission: string;
  pnl: string;
  strategy?: string | undefined;
}

/** A band row: one queue model's outcome; `current` marks the run this report is about. */
export interface ReportBandRow extends ReportBandRun {
  current: boolean;
}

/** The report as data (what `report.json` holds and `report.html` draws). */
export interface Report {
  format: string;
  kind: ReportInput['kind'];
  name: string;
  strategies: string[];
  markets: string[];
  from: number;
  to: number;
  valuationCurrency: string;
  queueModel?: string | undefined;
  params?: Record<string, unknown> | undefined;
  events?: number | undefined;
  initialBalances: Record<string, string>;
  finalBalances: Record<string, string>;
  metrics: ReportMetrics;
  /** This run and the other queue models' runs, when `--band` was asked for; empty otherwise. */
  band: ReportBandRow[];
  assumptions: string[];
  /** Strategies that failed during the run; absent when none did. */
  strategyFailures?: ReportStrategyFailure[] | undefined;
  /** Recorded data the run did not use (skipped bad lines, a file cut off), one sentence per file; absent when none. */
  dataWarnings?: string[] | undefined;
  /** What a journal report doubts in its journal, with file:line and field; absent when nothing. */
  journalWarnings?: string[] | undefined;
  trades: ReportTrade[];
  orders: ReportOrder[];
  fills: ReportFill[];
  series: ReportSeries;
}

/**
 * Build the report of `input`.
 *
 * @example
 * const report = buildReport(input);
 * await writeFile('report.json', stringifyReport(report));
 */
export function buildReport(input: ReportInput): Report {
  const { metrics, trades: byMarket } = computeMetricsAndTrades(input);
  const trades: ReportTrade[] = [];
  for (const [, { trips }] of [...byMarket].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    for (const t of trips) {
      trades.push({
        marketSymbol: t.marketSymbol,
        side: t.side,
        quantity: t.quantity.toString(),
        entryAt: t.entryAt,
        entryRate: t.entryRate.toString(),
        exitAt: t.exitAt,
        exitRate: t.exitRate.toString(),
        commission: money(t.commission),
        pnl: money(t.pnl),
        strategy: t.strategy,
      });
    }
  }
  trades.sort((a, b) => a.exitAt - b.exitAt || a.entryAt - b.entryAt || (a.marketSymbol < b.marketSymbol ? -1 : a.marketSymbol > b.marketSymbol ? 1 : 0));
  const band: ReportBandRow[] = [];
  if (input.band && input.band.length > 0) {
    band.push({
      queueModel: input.queueModel ?? 'this run',
      netPnl: metrics.total.netPnl,
      fillRate: metrics.total.orders.fillRate ?? 0,
      fills: metrics.total.fills,
      current: true,
    });
    for (const b of input.band) band.push({ ...b, current: false });
  }
  return {
    format: REPORT_FORMAT,
    kind: input.kind,
    name: input.name,
    strategies: [...input.strategies],
    markets: [...input.markets].sort(),
    from: input.from,
    to: input.to,
    valuationCurrency: input.valuationCurrency,
    queueModel: input.queueModel,
    params: input.params,
    events: input.events,
    initialBalances: input.initialBalances,
    finalBalances: input.finalBalances,
    metrics,
    band,
    assumptions: [...input.assumptions],
    strategyFailures: input.strategyFailures?.length ? input.strategyFailures.map((f) => ({ ...f })) : undefined,
    dataWarnings: input.dataWarnings?.length ? [...input.dataWarnings] : undefined,
    journalWarnings: input.journalWarnings?.length ? [...input.journalWarnings] : undefined,
    trades,
    orders: [...input.orders].sort((a, b) => a.createdAt - b.createdAt),
    fills: [...input.fills].sort((a, b) => a.at - b.at),
    series: reportSeries(input),
  };
}

/**
 * Canonical JSON: object keys sorted, `undefined` members left out, non-finite numbers as `null`, two-space
 * indentation, a final newline.
 */
export function stringifyReport(value: unknown): string {
  return `${JSON.stringify(canonical(value), null, 2)}\n`;
}

/** `v` as {@link stringifyReport} writes it: plain objects with sorted keys, no undefined members, null for non-finite. */
export function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : canonical(x)));
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) {
    const x = (v as Record<string, unknown>)[k];
    if (x !== undefined) out[k] = canonical(x);
  }
  return out;
}
