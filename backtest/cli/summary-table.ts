/**
 * The summary printed at the end of a backtest: the summary rows of the report's metric table, total and per
 * market, drawn with cli-table3, plus the band when there is one.
 */
import Table from 'cli-table3';
import { METRIC_ROWS } from '../report/metric-rows.js';
import type { Report } from '../report/report-json.js';

/**
 * The summary table of `report` as text.
 *
 * @example
 * process.stdout.write(summaryTable(report) + '\n');
 */
export function summaryTable(report: Report, opts: { color?: boolean } = {}): string {
  const style = opts.color ? {} : { head: [], border: [] };
  const symbols = Object.keys(report.metrics.markets);
  const t = new Table({ head: ['metric', `total (${report.valuationCurrency})`, ...symbols], style });
  for (const row of METRIC_ROWS) {
    if (!row.summary) continue;
    t.push([row.label, row.value(report.metrics.total), ...symbols.map((s) => row.value(report.metrics.markets[s]!))]);
  }
  let out = t.toString();
  // A ratio shown as – says why underneath (too short a run, no starting equity, ...), as the page does.
  for (const row of METRIC_ROWS) {
    const why = row.summary && row.ratio ? report.metrics.total.unavailable[row.ratio] : undefined;
    if (why !== undefined) out += `\n${row.label} –: ${why}`;
  }
  if (report.band.length > 0) {
    const b = new Table({ head: ['queue model', `net PnL (${report.valuationCurrency})`, 'fill rate', 'fills'], style });
    for (const r of report.band) b.push([`${r.queueModel}${r.current && r.queueModel !== 'this run' ? ' (this run)' : ''}`, r.netPnl, `${(100 * r.fillRate).toFixed(1)} %`, String(r.fills)]);
    out += `\n${b.toString()}`;
  }
  return out;
}
