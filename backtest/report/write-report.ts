/**
 * Write a run's `report.json` and `report.html` into a folder. Each file is written beside its place and renamed
 * into it once complete: a failed write (a full disk after an hours-long run) leaves the previous report whole,
 * never a torn one, and its error names the file.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
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
  await replaceFile(json, (tmp) => writeReportJson(tmp, report));
  const page = await renderReportHtml(report);
  await replaceFile(html, (tmp) => writeFile(tmp, page));
  return { report, dir: abs, json, html };
}

/** `write` a temporary file beside `path`, then rename it to `path`; on failure remove it and say which file. */
async function replaceFile(path: string, write: (tmp: string) => Promise<void>): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await write(tmp);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw new Error(`could not write ${path}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}
