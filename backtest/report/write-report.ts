/** Write a run's `report.json` and `report.html` into a folder. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ReportInput } from './report-input.js';
import { writeReportJson } from './json-file.js';
import { buildReport, type Report } from './report-json.js';
import { renderReportHtml } from './report-html.js';

/** Where a report went. */
export interface WrittenReport {
  report: Report;
  dir: string;
  json: string;
  html: string;
}

/**
 * Build the report of `input` and write both files into `dir` (created if missing).
 *
 * @example
 * const { html } = await writeReport(input, 'out/backtest');
 * console.log(`report: ${html}`);
 */
export async function writeReport(input: ReportInput, dir: string): Promise<WrittenReport> {
  const report = buildReport(input);
  const abs = resolve(dir);
  await mkdir(abs, { recursive: true });
  const json = join(abs, 'report.json');
  const html = join(abs, 'report.html');
  await writeReportJson(json, report);
  await writeFile(html, await renderReportHtml(report));
  return { report, dir: abs, json, html };
}
