/**
 * A sweep's index: `index.json` (every result, ranked, canonical JSON) and `index.html` (the ranked table with
 * a link to each run's report, relative so the folder can be moved or zipped; failed runs show their error).
 */
import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { stringifyReport } from '../report/report-json.js';
import { esc, pct, ratio } from '../report/report-format.js';
import type { SweepResult } from './sweep-job.js';
import { metricText, paramKeys } from './sweep-rank.js';

/** What the index is about. */
export interface SweepIndexInfo {
  configPath: string;
  metric: string;
  /** The sweep's folder; links are made relative to it. */
  dir: string;
}

/** The index page of `ranked` results. */
export function renderSweepIndex(ranked: readonly SweepResult[], info: SweepIndexInfo): string {
  const keys = paramKeys(ranked);
  const rows = ranked.map((r, i) => {
    const params = keys.map((k) => `<td>${k in r.params ? esc(JSON.stringify(r.params[k])) : ''}</td>`).join('');
    if (!r.ok) return `<tr class="failed"><td>${i + 1}</td>${params}<td colspan="6">failed: ${esc(r.error)}</td></tr>`;
    const link = relative(info.dir, r.html).split('\\').join('/');
    return `<tr><td>${i + 1}</td>${params}<td>${esc(metricText(r, info.metric))}</td><td>${esc(r.metrics.netPnl)}</td><td>${ratio(r.metrics.sharpe)}</td><td>${pct(r.metrics.maxDrawdown.fraction)}</td><td>${r.metrics.trades}</td><td><a href="${esc(link)}">report</a></td></tr>`;
  });
  const failed = ranked.filter((r) => !r.ok).length;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sweep of ${esc(info.configPath)}</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:16px 24px}table{border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{border:1px solid #ddd;padding:3px 8px;text-align:right}th{background:#f4f4f4}tr.failed td{color:#c62828;text-align:left}</style>
</head><body>
<h1>Sweep of ${esc(info.configPath)}</h1>
<p>${ranked.length} runs${failed ? `, ${failed} failed` : ''}, ranked by ${esc(info.metric)}.</p>
<table id="sweep"><tr><th>#</th>${keys.map((k) => `<th>${esc(k)}</th>`).join('')}<th>${esc(info.metric)}</th><th>net PnL</th><th>Sharpe</th><th>max DD</th><th>trades</th><th>report</th></tr>
${rows.join('\n')}
</table>
</body></html>
`;
}

/** Write `index.json` and `index.html` into `info.dir`; returns the page's path. */
export async function writeSweepIndex(ranked: readonly SweepResult[], info: SweepIndexInfo): Promise<string> {
  const html = join(info.dir, 'index.html');
  const results = ranked.map((r) => (r.ok ? { ...r, outDir: relative(info.dir, r.outDir), html: relative(info.dir, r.html), wallMs: undefined } : r));
  await writeFile(join(info.dir, 'index.json'), stringifyReport({ configPath: info.configPath, metric: info.metric, results }));
  await writeFile(html, renderSweepIndex(ranked, info));
  return html;
}
