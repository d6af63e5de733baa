/**
 * One measured backtest run in its own process, so its peak RSS is its own: `node --max-semi-space-size=32
 * --import tsx child.ts <mode> <file>` (the bench adds the node flags `rexbot backtest` runs with), with mode
 * `parse` (read and parse the file only), `noop` (the whole pipeline with a strategy that does nothing) or `mm`
 * (the example market maker). Prints one JSON line: { events, ms, cpuMs, maxRssMb }, and for `noop` the book
 * states and trades the strategy was given (`received`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAll } from '../../../backtest/readers/index.js';
import { runBacktest } from '../../../backtest/run-backtest.js';
import { repoPath } from '../../helpers/shared.js';
import { received } from './noop-strategy.js';

const [mode, file] = process.argv.slice(2) as [string, string];
const started = performance.now();
const cpu0 = process.cpuUsage();
let events: number;
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
    const r = await runBacktest({ configPath: join(dir, 'bench.yaml') });
    events = r.stats.events;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpu0);
process.stdout.write(`${JSON.stringify({ events, ms, cpuMs: (cpu.user + cpu.system) / 1000, maxRssMb: process.resourceUsage().maxRSS / 1024, ...(mode === 'noop' ? { received } : {}) })}\n`);
