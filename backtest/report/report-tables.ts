/** The HTML tables of the report page: metrics (total and per market), orders, trades. */
import type { RatioName } from './curve-stats.js';
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
  return `<table>${head}${rows.join('\n')}${extra.join('\n')}</table>${excluded}${unavailableNote(report)}`;
}

const RATIO_LABELS: ReadonlyArray<[RatioName, string]> = METRIC_ROWS.flatMap((r) => (r.ratio ? [[r.ratio, r.label] as [RatioName, string]] : []));

/** Why the ratios shown as – are left out: one line per reason, with the ratios and columns it is about. */
export function unavailableNote(report: Report): string {
  const byReason = new Map<string, { labels: Set<string>; scopes: Set<string> }>();
  const scopes: Array<[string, Partial<Record<RatioName, string>>]> = [
    ['total', report.metrics.total.unavailable],
    ...Object.entries(report.metrics.markets).map(([s, m]) => [s, m.unavailable] as [string, Partial<Record<RatioName, string>>]),
  ];
  for (const [scope, unavailable] of scopes) {
    for (const [name, label] of RATIO_LABELS) {
      const why = unavailable[name];
      if (why === undefined) continue;
      let entry = byReason.get(why);
      if (!entry) byReason.set(why, (entry = { labels: new Set(), scopes: new Set() }));
      entry.labels.add(label);
      entry.scopes.add(scope);
    }
  }
  if (byReason.size === 0) return '';
  const items = [...byReason].map(([why, e]) => `<li>${esc([...e.labels].join(', '))} (${esc([...e.scopes].join(', '))}): ${esc(why)}</li>`);
  return `<p class="note">Shown as –:</p><ul class="note" id="unavailable">${items.join('\n')}</ul>`;
}

/** Order counts per market, and what each column counts. */
export function orderTable(report: Report): string {
  const rows = [['total', report.metrics.total.orders] as const, ...Object.entries(report.metrics.markets).map(([s, m]) => [s, m.orders] as const)];
  return `<table><tr><th>market</th><th>placed</th><th>filled</th><th>partially filled</th><th>cancelled</th><th>rejected</th><th>open at end</th><th>fill rate</th></tr>
${rows.map(([s, o]) => `<tr><td>${esc(s)}</td><td>${o.placed}</td><td>${o.filled}</td><td>${o.partiallyFilled}</td><td>${o.cancelled}</td><td>${o.rejected}</td><td>${o.open}</td><td>${o.fillRate === null ? '–' : `${(100 * o.fillRate).toFixed(1)} %`}</td></tr>`).join('\n')}</table>
<p class="note">Each order placed (sent to the venue) is counted once, by how it ended: <b>filled</b> in full; <b>partially filled</b>, then cancelled or expired with the rest; <b>cancelled</b> (or expired) with nothing filled; <b>rejected</b> by the venue, or sent and never found there; <b>open</b> at the end of the run, part filled or not. They add up to placed. Fill rate = orders with any fill (open ones included) / (placed − rejected).${report.metrics.total.orders.placed > sumMarkets(report) ? ' The total includes orders the venue refused before naming their market.' : ''}</p>`;
}

/** Orders placed, summed over the market columns. */
function sumMarkets(report: Report): number {
  let n = 0;
  for (const m of Object.values(report.metrics.markets)) n += m.orders.placed;
  return n;
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
