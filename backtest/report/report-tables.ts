/** The HTML tables of the report page: metrics (total and per market), orders, trades. */
import { METRIC_ROWS } from './metric-rows.js';
import { esc, fmtTime } from './report-format.js';
import type { Report } from './report-json.js';

/** Trade rows drawn in the page at most; all of them are in report.json. */
export const MAX_TRADE_ROWS = 2000;

function signClass(s: string): string {
  return s.startsWith('-') ? ' class="neg"' : /[1-9]/.test(s) ? ' class="pos"' : '';
}

/** Metrics with one column for the total and one per market. */
export function metricTables(report: Report): string {
  const t = report.metrics.total;
  const symbols = Object.keys(report.metrics.markets);
  const head = `<tr><th>metric</th><th>total (${esc(t.valuationCurrency)})</th>${symbols.map((s) => `<th>${esc(s)} (${esc(report.metrics.markets[s]!.quoteCurrency)})</th>`).join('')}</tr>`;
  const rows = METRIC_ROWS.map(
    (r) => `<tr><td>${esc(r.label)}</td><td>${esc(r.value(t))}</td>${symbols.map((s) => `<td>${esc(r.value(report.metrics.markets[s]!))}</td>`).join('')}</tr>`,
  );
  const extra = [
    `<tr><td>initial → final equity</td><td>${esc(t.initialEquity)} → ${esc(t.finalEquity)}</td>${symbols.map(() => '<td></td>').join('')}</tr>`,
    `<tr><td>realised / unrealised PnL</td><td></td>${symbols.map((s) => `<td>${esc(report.metrics.markets[s]!.realisedPnl)} / ${esc(report.metrics.markets[s]!.unrealisedPnl)}</td>`).join('')}</tr>`,
    `<tr><td>final position</td><td></td>${symbols.map((s) => `<td>${esc(report.metrics.markets[s]!.finalPosition)}</td>`).join('')}</tr>`,
  ];
  const excluded = t.excludedFromTotals.length
    ? `<p class="note">Money totals leave out ${esc(t.excludedFromTotals.join(', '))}: quoted in another currency than ${esc(t.valuationCurrency)}.</p>`
    : '';
  return `<table>${head}${rows.join('\n')}${extra.join('\n')}</table>${excluded}`;
}

/** Order counts per market. */
export function orderTable(report: Report): string {
  const rows = [['total', report.metrics.total.orders] as const, ...Object.entries(report.metrics.markets).map(([s, m]) => [s, m.orders] as const)];
  return `<table><tr><th>market</th><th>placed</th><th>filled</th><th>cancelled</th><th>rejected</th><th>open at end</th><th>fill rate</th></tr>
${rows.map(([s, o]) => `<tr><td>${esc(s)}</td><td>${o.placed}</td><td>${o.filled}</td><td>${o.cancelled}</td><td>${o.rejected}</td><td>${o.open}</td><td>${o.fillRate === null ? '–' : `${(100 * o.fillRate).toFixed(1)} %`}</td></tr>`).join('\n')}</table>`;
}

/** The closed trades, at most {@link MAX_TRADE_ROWS}. */
export function tradeTable(report: Report): string {
  if (report.trades.length === 0) return '<p>No round trip closed.</p>';
  const shown = report.trades.slice(0, MAX_TRADE_ROWS);
  const more = report.trades.length - shown.length;
  return `<table id="trades"><tr><th>market</th><th>side</th><th>quantity</th><th>entry</th><th>entry rate</th><th>exit</th><th>exit rate</th><th>commission</th><th>PnL</th></tr>
${shown.map((t) => `<tr><td>${esc(t.marketSymbol)}</td><td>${t.side}</td><td>${esc(t.quantity)}</td><td>${fmtTime(t.entryAt)}</td><td>${esc(t.entryRate)}</td><td>${fmtTime(t.exitAt)}</td><td>${esc(t.exitRate)}</td><td>${esc(t.commission)}</td><td${signClass(t.pnl)}>${esc(t.pnl)}</td></tr>`).join('\n')}
</table>${more > 0 ? `<p class="note">${more} more trades in report.json.</p>` : ''}`;
}
