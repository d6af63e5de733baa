/**
 * One measured backtest run in its own process, so its peak RSS is its own: `node --max-semi-space-size=32
 * --import tsx child.ts <mode> <file> [markAt]` (the bench adds the node flags `rexbot backtest` runs with), with mode
 * `parse` (read and parse the file only), `noop` (the whole pipeline with a strategy that does nothing) or `mm`
 * (the example market maker). Prints one JSON line: { events, ms, cpuMs, maxRssMb }, for `noop` the book states
 * and trades the strategy was given (`received`), and with `markAt` the events and ms of the first progress report
 * at or past that many events (`mark`), so the bench can tell the rate once V8 has compiled the pipeline. A pipeline
 * run also prints what its strategy made the kernel do (`work`: orders, fills, risk denials), so figures from
 * different runs, sessions or hosts can be checked to describe the same work.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAll } from '../../../backtest/readers/index.js';
import { type RunBacktestResult, runBacktest } from '../../../backtest/run-backtest.js';
import { repoPath } from '../../helpers/shared.js';
import { received } from './noop-strategy.js';

const [mode, file, markArg] = process.argv.slice(2) as [string, string, string | undefined];
const markAt = markArg === undefined ? undefined : Number(markArg);
let mark: { events: number; ms: number } | undefined;
const started = performance.now();
const cpu0 = process.cpuUsage();
let events: number;
let report: RunBacktestResult['report'] | undefined;
if (mode === 'parse') {
  events = await readAll('rexbot', file);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'rexbot-bench-bt-'));
  const use = mode === 'mm' ? 'market-maker' : repoPath('test', 'bench', 'backtest', 'noop-strategy.ts');
  const params = mode === 'mm' ? '{ spread: 0.0001, levels: 2, levelSpacing: 0.00005, size: 0.01, throttleMs: 200 }' : '{}';
  writeFileSync(
    join(dir, 'bench.yaml'),
    `venue:
  kind: backtest
  data: [{ format: rexbot, path: ${JSON.stringify(file)} }]
  balances: { USD: 1000000, BTC: 10 }
strategies:
  - { name: s, use: ${JSON.stringify(use)}, markets: [BTC-USD], params: ${params} }
`,
  );
  try {
    const r = await runBacktest({
      configPath: join(dir, 'bench.yaml'),
      // Progress comes every 10k events: a mark is at most that late.
      onProgress:
        markAt === undefined
          ? undefined
          : (p) => {
              if (mark === undefined && p.events >= markAt) mark = { events: p.events, ms: performance.now() - started };
            },
    });
    events = r.stats.events;
    report = r.report;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpu0);
// Counted once the run is timed.
const work = report && { orders: report.orders.length, fills: report.fills.length, denials: Object.values(report.denials).reduce((a, b) => a + b, 0) };
process.stdout.write(`${JSON.stringify({ events, ms, cpuMs: (cpu.user + cpu.system) / 1000, maxRssMb: process.resourceUsage().maxRSS / 1024, ...(mark !== undefined ? { mark } : {}), ...(work !== undefined ? { work } : {}), ...(mode === 'noop' ? { received } : {}) })}\n`);
