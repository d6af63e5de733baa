/**
 * A plugin's top-level state starts anew in every backtest run of a process. Sweep jobs run one after another on a
 * worker thread and `--band` runs three backtests in one process; when each run set its strategies up from the
 * same instance of the plugin's module, a plugin that counts at its top level (test/fixtures/strategies/
 * module-state.ts: an order in the first run only) gave the thread's first job an order and the jobs after it
 * none, and a band of pessimistic and optimistic runs with no order at all. Proved in-process through
 * `runBacktest` and `runAndReport`, and through the real CLI's `--band` and a one-thread sweep.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBacktest } from '../../backtest/run-backtest.js';
import { runAndReport } from '../../backtest/run-report.js';
import { loadStrategy } from '../../src/strategy/load-strategy.js';
import { repoPath } from '../helpers/shared.js';

const PLUGIN = repoPath('test', 'fixtures', 'strategies', 'module-state.ts');
const RECORDING = repoPath('backtest', 'data', 'synthetic-btc-usd.jsonl.gz');

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'rexbot-module-state-'));
  dirs.push(d);
  return d;
};

/**
 * A backtest config of the module-state plugin over a minute of the shipped synthetic recording: one strategy `s`,
 * or `strategies` of that plugin, one line each.
 */
function config(strategies = ['s']): string {
  const file = join(tmp(), 'bt.yaml');
  writeFileSync(
    file,
    `bot: { name: module-state }
venue:
  kind: backtest
  data: [{ format: rexbot, path: ${JSON.stringify(RECORDING)}, markets: [BTC-USD] }]
  to: 2024-01-15T12:01:00Z
  balances: { USD: 100000, BTC: 1 }
strategies:
${strategies.map((name) => `  - { name: ${name}, use: ${JSON.stringify(PLUGIN)}, markets: [BTC-USD] }`).join('\n')}
`,
  );
  return file;
}

describe('a plugin module per backtest run', () => {
  it('gives every run of one process the plugin as its top level starts: the same orders each time', async () => {
    const configPath = config();
    const first = await runBacktest({ configPath });
    const second = await runBacktest({ configPath });
    expect(first.report.orders).toHaveLength(1);
    expect(second.report.orders).toHaveLength(1);
    expect(JSON.stringify(second.report.orders)).toBe(JSON.stringify(first.report.orders));
  });

  it("sets a run's strategies that name the plugin up from one instance, as a live bot does: its top level is theirs to share", async () => {
    // A live bot's two strategies of the plugin share its module: the first places the order, the second sees runs > 1.
    const configPath = config(['first', 'second']);
    for (const run of [await runBacktest({ configPath }), await runBacktest({ configPath })]) {
      expect(run.report.orders.map((o) => o.strategy)).toEqual(['first']);
    }
  });

  it('runs the band under each queue model from a fresh module too', async () => {
    const out = tmp();
    await runAndReport(runBacktest, { configPath: config(), outDir: out, band: true });
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { orders: unknown[]; band: Array<{ queueModel: string; fills: number }> };
    expect(report.orders).toHaveLength(1);
    // The order takes the best ask, so it fills whatever the queue model: each run placed it.
    expect(report.band.map((b) => [b.queueModel, b.fills > 0])).toEqual([
      ['power', true],
      ['pessimistic', true],
      ['optimistic', true],
    ]);
  });

  it('loads one shared instance for reads and live runs, and a new one for each fresh run after the first', async () => {
    const read = await loadStrategy(PLUGIN);
    const live = await loadStrategy(PLUGIN, { run: 'shared' });
    expect(live.definition).toBe(read.definition);
    const fresh = await loadStrategy(PLUGIN, { run: 'fresh' });
    const again = await loadStrategy(PLUGIN, { run: 'fresh' });
    expect(fresh.definition).not.toBe(read.definition);
    expect(again.definition).not.toBe(fresh.definition);
    expect(fresh.path).toBe(PLUGIN);
  });
});

describe('through the CLI', () => {
  const rexbot = (args: string[]) => spawnSync(process.execPath, [repoPath('src/cli/bin.mjs'), ...args], { cwd: repoPath(), encoding: 'utf8' });
  const ordersIn = (dir: string) => (JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { orders: unknown[] }).orders.length;

  it('places the order in every job of a one-thread sweep', () => {
    const out = tmp();
    const r = rexbot(['backtest', config(), '--sweep', 'size=0.001,0.002,0.003', '--jobs', '1', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    for (const job of ['1-size=0.001', '2-size=0.002', '3-size=0.003']) expect(ordersIn(join(out, job)), job).toBe(1);
  });
});
