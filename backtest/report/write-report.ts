/**
 * Write a run's `report.json` and `report.html` into a folder. Each file is written beside its place and renamed
 * into it once complete: a failed write (a full disk after an hours-long run) leaves the previous report whole,
 * never a torn one, and its error names the file.
 */
import { constants } from 'node:fs';
import { type FileHandle, open, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { assertOpenedInside, makeJobFolder } from '../sweep/confined-files.js';
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
  // For a queued job each folder made is checked to lie in the job's folders (confined-files.ts).
  await makeJobFolder(abs);
  const json = join(abs, 'report.json');
  const html = join(abs, 'report.html');
  await replaceFile(json, (tmp) => writeReportJson(tmp, report));
  const page = await renderReportHtml(report);
  await replaceFile(html, (tmp) => writeFile(tmp, page));
  return { report, dir: abs, json, html };
}

/**
 * `write` a temporary file beside `path`, then rename it to `path`; on failure remove it and say which file. The
 * temporary file is created new (O_EXCL, O_NOFOLLOW) and written through the descriptor it was created as, for a
 * queued job only once that descriptor's file is known to lie in the job's folders (confined-files.ts). The rename
 * cannot lead elsewhere: a folder swapped since holds no such temporary file.
 */
async function replaceFile(path: string, write: (tmp: FileHandle) => Promise<void>): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    // Made anew (a leftover of a killed run removed first), so it is no link, FIFO or other file planted there.
    await unlink(tmp).catch((e: unknown) => {
      if ((e as { code?: string }).code !== 'ENOENT') throw e;
    });
    const handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0));
    try {
      assertOpenedInside(handle.fd, tmp);
      await write(handle);
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw new Error(`could not write ${path}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}
