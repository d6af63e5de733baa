/**
 * `report.html`: one self-contained page (no network when opened). uPlot's bundle and stylesheet are read from
 * node_modules at render time and inlined with the report's series; tables are rendered here, so they read
 * without JavaScript. Nothing in the page names an external URL.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PAGE_SCRIPT } from './report-page-script.js';
import type { Report } from './report-json.js';
import { metricTables, tradeTable, orderTable } from './report-tables.js';
import { fillMarkers, MAX_POINTS } from './series.js';
import { esc, fmtTime } from './report-format.js';
import { MIN_RETURNS } from './ratios.js';

/** uPlot's browser bundle and stylesheet, read once. */
let assets: Promise<{ js: string; css: string }> | undefined;

function uplotAssets(): Promise<{ js: string; css: string }> {
  assets ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('uplot'));
    const [js, css] = await Promise.all([readFile(join(dist, 'uPlot.iife.min.js'), 'utf8'), readFile(join(dist, 'uPlot.min.css'), 'utf8')]);
    return { js, css };
  })();
  return assets;
}

/** JSON safe inside a `<script>` element. */
function scriptJson(v: unknown): string {
  return JSON.stringify(v).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** Inline script text safe inside `<script>`. */
function scriptText(js: string): string {
  return js.replace(/<\/script/gi, '<\\/script');
}

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:0;padding:16px 24px;color:#222;background:#fff}
h1{font-size:22px;margin:0 0 4px} h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd}
.sub{color:#666} .chart{margin:8px 0 16px;min-height:40px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:4px 0}
th,td{border:1px solid #ddd;padding:3px 8px;text-align:right} th:first-child,td:first-child{text-align:left}
th{background:#f4f4f4} tr.current td{font-weight:bold} .pos{color:#1a7f37} .neg{color:#c62828}
ul{margin:4px 0 4px 20px;padding:0} .note{color:#666;font-size:12px} .failed{color:#c62828} .warned{color:#b26a00}
`;

/**
 * Render `report` as one HTML page.
 *
 * @example
 * await writeFile('report.html', await renderReportHtml(buildReport(input)));
 */
export async function renderReportHtml(report: Report): Promise<string> {
  const { js, css } = await uplotAssets();
  const markers = fillMarkers(report.fills, report.markets);
  const fillsByMarket = markers.byMarket;
  const pageData = { from: report.from, to: Math.max(report.to, report.from + 1), valuationCurrency: report.valuationCurrency, series: report.series, fillsByMarket };
  const t = report.metrics.total;
  const title = `${report.name}: ${report.kind} report`;
  const params = report.params && Object.keys(report.params).length > 0 ? Object.entries(report.params).map(([k, v]) => `${esc(k)}=${esc(JSON.stringify(v))}`).join(', ') : '';
  const priceCharts = Object.keys(fillsByMarket)
    .map((m, i) => `<div class="chart" id="chart-price-${i}" data-market="${esc(m)}"></div>`)
    .join('\n');
  const band = report.band.length
    ? `<h2>Fill-model band</h2><p class="note">The same run under each queue model: the spread is what the queue assumption alone explains.</p>
<table><tr><th>queue model</th><th>net PnL (${esc(report.valuationCurrency)})</th><th>fill rate</th><th>fills</th></tr>
${report.band.map((b) => `<tr${b.current ? ' class="current"' : ''}><td>${esc(b.queueModel)}${b.current && b.queueModel !== 'this run' ? ' (this run)' : ''}</td><td>${esc(b.netPnl)}</td><td>${(100 * b.fillRate).toFixed(1)} %</td><td>${b.fills}</td></tr>`).join('\n')}
</table>`
    : '';
  const denials = Object.entries(t.denials);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${css}</style>
<style>${STYLE}</style>
</head>
<body>
<h1>${esc(title)}</h1>
<div class="sub">${esc(report.strategies.join(', '))} on ${esc(report.markets.join(', '))} · ${fmtTime(report.from)} → ${fmtTime(report.to)}${report.queueModel ? ` · queue model ${esc(report.queueModel)}` : ''}${report.events !== undefined ? ` · ${report.events.toLocaleString('en-US')} events` : ''}${params ? ` · ${params}` : ''}</div>
${failuresSection(report)}${dataWarningsSection(report)}${journalWarningsSection(report)}<h2>Charts</h2>
<div class="chart" id="chart-equity"></div>
<div class="chart" id="chart-drawdown"></div>
<div class="chart" id="chart-position"></div>
${priceCharts}
${markers.drawn < markers.total ? `<p class="note">${markers.drawn.toLocaleString('en-US')} of our ${markers.total.toLocaleString('en-US')} fills drawn: where a side has more than ${MAX_POINTS.toLocaleString('en-US')}, each stretch of time shows its highest and lowest. report.json has them all.</p>` : ''}
<h2>Metrics</h2>
${metricTables(report)}
<h2>Orders</h2>
${orderTable(report)}
<h2>Denied intents</h2>
<p class="note">Intents the risk engine denied or the order planner refused, by reason: never sent, so not among the orders placed.</p>
${denials.length ? `<table><tr><th>reason</th><th>count</th></tr>${denials.map(([k, v]) => `<tr><td>${esc(k)}</td><td>${v}</td></tr>`).join('')}</table>` : '<p>None.</p>'}
${band}
<h2>Assumptions</h2>
<ul>${report.assumptions.map((a) => `<li>${esc(a)}</li>`).join('\n')}</ul>
<p class="note">Metric definitions: round trips are our fills matched first-in first-out per market; Sharpe and Sortino use ${t.returnsInterval === '1d' ? 'daily' : 'hourly'} simple returns of the equity curve annualised over a 365-day year with a zero risk-free rate, and are shown from ${MIN_RETURNS} returns on (a run of 30 hours); CAGR and Calmar need a run of 30 days; money in ${esc(report.valuationCurrency)} unless a market's quote currency says otherwise.</p>
<h2>Trades</h2>
${tradeTable(report)}
<script>${scriptText(js)}</script>
<script type="application/json" id="report-data">${scriptJson(pageData)}</script>
<script>${scriptText(PAGE_SCRIPT)}</script>
</body>
</html>
`;
}

/** The strategies that failed, first thing on the page: their figures stop where they failed. */
function failuresSection(report: Report): string {
  const failures = report.strategyFailures ?? [];
  if (failures.length === 0) return '';
  return `<h2 class="failed">Strategy failures</h2>
<p class="note">These strategies failed during the run and emitted nothing afterwards: the figures below include that.</p>
<ul class="failed">${failures.map((f) => `<li>${esc(f.message)}</li>`).join('\n')}</ul>
`;
}

/** Recorded data the run did not use: the figures are of the rest of the file, which a reader of the page must know. */
function dataWarningsSection(report: Report): string {
  const warnings = report.dataWarnings ?? [];
  if (warnings.length === 0) return '';
  return `<h2 class="warned">Data not used</h2>
<p class="note">The run read these files with <code>onBadLine: skip</code>: the lines below were left out and the figures are of the rest.</p>
<ul class="warned">${warnings.map((w) => `<li>${esc(w)}</li>`).join('\n')}</ul>
`;
}

/** What the journal report doubts in its journal: the figures stand on the fills, but the file is not as a bot writes it. */
function journalWarningsSection(report: Report): string {
  const warnings = report.journalWarnings ?? [];
  if (warnings.length === 0) return '';
  return `<h2 class="warned">Journal doubts</h2>
<p class="note">These records are not what a bot writes (an edited, spliced or partly lost file?). The figures below are those of the fills the journal holds, as each line says; check these lines before trusting them.</p>
<ul class="warned" id="journal-warnings">${warnings.map((w) => `<li>${esc(w)}</li>`).join('\n')}</ul>
`;
}
