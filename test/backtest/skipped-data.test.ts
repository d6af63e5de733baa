/**
 * Recorded data a run did not use is told, not hidden: lines skipped under `onBadLine: skip` and a recording cut off
 * mid-stream (a killed recorder) are in report.json and on the page, file:line first, while the run uses the rest.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, createGzip, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { renderReportHtml } from '../../backtest/report/report-html.js';
import { buildReport } from '../../backtest/report/report-json.js';
import { runBacktest } from '../../backtest/run-backtest.js';
import { repoPath } from '../helpers/shared.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The shipped example recording's lines (11,188, header first). */
const LINES = gunzipSync(readFileSync(repoPath('backtest', 'data', 'synthetic-btc-usd.jsonl.gz'))).toString('utf8').split('\n').filter((l) => l !== '');

/** Gzip `lines` flushed every 500 lines, as the recorder flushes every second: a cut keeps what came before it. */
async function gzipFlushed(lines: readonly string[]): Promise<Buffer> {
  const gz = createGzip();
  const parts: Buffer[] = [];
  gz.on('data', (b: Buffer) => parts.push(b));
  for (let i = 0; i < lines.length; i += 500) {
    gz.write(`${lines.slice(i, i + 500).join('\n')}\n`);
    await new Promise<void>((done) => gz.flush(constants.Z_SYNC_FLUSH, () => done()));
  }
  // the last data comes after the writable side finishes: wait for the readable end, or the trailer is missing
  const ended = new Promise<void>((done) => gz.on('end', done));
  gz.end();
  await ended;
  return Buffer.concat(parts);
}

/** A config over `data` (written beside it) with the given bad-line policy; returns [config path, data path]. */
function setup(data: Buffer, onBadLine: 'skip' | 'fail'): [string, string] {
  const dir = mkdtempSync(join(tmpdir(), 'rexbot-bt-skipped-'));
  dirs.push(dir);
  const path = join(dir, 'rec.jsonl.gz');
  writeFileSync(path, data);
  const config = join(dir, 'backtest.yaml');
  writeFileSync(
    config,
    `venue:
  kind: backtest
  data: [{ format: rexbot, path: rec.jsonl.gz, markets: [BTC-USD], onBadLine: ${onBadLine} }]
  balances: { USD: 100000, BTC: 1 }
strategies:
  - { name: mm, use: market-maker, markets: [BTC-USD], params: { spread: 0.0002, levels: 1, size: 0.01 } }
`,
  );
  return [config, path];
}

describe('data a backtest did not use', () => {
  it('skipped bad lines: counted and quoted with file:line in report.json and on the page; the run used the rest', async () => {
    const lines = [...LINES];
    lines[499] = 'not json at all'; // line 500
    lines[899] = '{"t":'; // line 900
    const [config, path] = setup(await gzipFlushed(lines), 'skip');
    const { report } = await runBacktest({ configPath: config });
    expect(report.dataWarnings).toHaveLength(1);
    const [w] = report.dataWarnings!;
    expect(w).toMatch(new RegExp(`^${escape(path)}: 2 bad lines skipped \\(onBadLine: skip\\): ${escape(path)}:500: .+; ${escape(path)}:900: `));
    expect(report.events).toBeGreaterThan(10_000);
    expect(buildReport(report).dataWarnings).toEqual([w]);
    const page = await renderReportHtml(buildReport(report));
    expect(page).toContain('Data not used');
    expect(page).toContain(`${path}:500:`);

    // the same file under the default policy stops at the first bad line, naming it
    const [strict] = setup(await gzipFlushed(lines), 'fail');
    await expect(runBacktest({ configPath: strict })).rejects.toThrow(/rec\.jsonl\.gz:500: /);
  });

  it('a recording cut off mid-stream: the run uses every line before the cut and the report says where it stops', async () => {
    const whole = await gzipFlushed(LINES);
    const [config, path] = setup(whole.subarray(0, Math.floor(whole.length * 0.6)), 'skip');
    const { report } = await runBacktest({ configPath: config });
    expect(report.dataWarnings).toHaveLength(1);
    expect(report.dataWarnings![0]).toMatch(new RegExp(`${escape(path)}:\\d+: cut off mid-stream .*read up to line \\d+`));
    expect(report.events).toBeGreaterThan(5_000);
    expect(report.events).toBeLessThan(11_000);
  });

  it('a clean run says nothing of skipped data', async () => {
    const [config] = setup(await gzipFlushed(LINES.slice(0, 2000)), 'skip');
    const { report } = await runBacktest({ configPath: config });
    expect(report.dataWarnings).toBeUndefined();
    expect(buildReport(report).dataWarnings).toBeUndefined();
    expect(await renderReportHtml(buildReport(report))).not.toContain('Data not used');
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
