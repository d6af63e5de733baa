/**
 * `rexbot backtest`: run a bot config whose venue is `backtest` over recorded data, write report.json and
 * report.html, print a summary table and where the report is. With `--sweep`, run a grid of parameter values on
 * worker threads and write one report per run plus an index ranked by `--metric`.
 *
 * ```
 * rexbot backtest <config.yaml> [--out DIR] [--band] [--sweep key=v1,v2 ...] [--metric NAME] [--jobs N]
 * ```
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Command } from './main.js';

const USAGE = `usage: rexbot backtest <config.yaml> [--out DIR] [--band] [--sweep key=v1,v2 ...] [--metric NAME] [--jobs N]

Runs the config's strategies over recorded data (venue.kind: backtest) on virtual time and writes
report.json and report.html (open it in a browser; it needs no network).

  --out DIR          where the report goes (default out/backtest/<bot name>, or out/sweep/<bot name> for a sweep)
  --band             also run under the pessimistic and optimistic queue models; the report shows the range
  --sweep key=v,...  sweep a parameter: a strategy param name (spread) or a dotted config path
                     (venue.latency.orderEntry); repeat for a grid; values are read as YAML
  --metric NAME      rank a sweep by this metric (default sharpe): netPnl, return, cagr, sharpe, sortino,
                     calmar, maxDrawdown, winRate, profitFactor, expectancy, fees, trades, fillRate, exposure
  --jobs N           worker threads for a sweep (default: every core)
  --help             this text`;

/** The parsed command line. */
export interface BacktestArgs {
  config: string;
  out: string | undefined;
  band: boolean;
  sweeps: string[];
  metric: string;
  jobs: number | undefined;
}

/** Parse `args`; throws an Error whose message is fit to show the user. */
export function parseBacktestArgs(args: string[]): BacktestArgs {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      band: { type: 'boolean', default: false },
      sweep: { type: 'string', multiple: true },
      metric: { type: 'string', default: 'sharpe' },
      jobs: { type: 'string' },
    },
  });
  if (positionals.length === 0) throw new Error('give the config file, e.g. rexbot backtest config/backtest.yaml');
  if (positionals.length > 1) throw new Error(`unexpected argument ${positionals[1]}`);
  let jobs: number | undefined;
  if (values.jobs !== undefined) {
    jobs = Number(values.jobs);
    if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs must be a whole number ≥ 1, got ${values.jobs}`);
  }
  return { config: positionals[0]!, out: values.out, band: values.band ?? false, sweeps: values.sweep ?? [], metric: values.metric ?? 'sharpe', jobs };
}

/** `name` made safe as a folder name. */
function folderName(name: string): string {
  return name.replace(/[^\w.-]+/g, '_') || 'backtest';
}

/** The bot name in a config file, for the default output folder (`backtest` when it cannot be read). */
async function botName(configPath: string): Promise<string> {
  try {
    const { readFile } = await import('node:fs/promises');
    const { parse } = await import('yaml');
    const raw = parse(await readFile(configPath, 'utf8')) as { bot?: { name?: unknown } } | null;
    return typeof raw?.bot?.name === 'string' ? raw.bot.name : 'backtest';
  } catch {
    return 'backtest';
  }
}

async function runSingle(a: BacktestArgs): Promise<number> {
  const { runBacktest } = await import('../../backtest/run-backtest.js');
  const { runAndReport } = await import('../../backtest/run-report.js');
  const { BacktestProgress } = await import('../../backtest/cli/progress.js');
  const { summaryTable } = await import('../../backtest/cli/summary-table.js');
  const out = a.out ?? resolve('out', 'backtest', folderName(await botName(a.config)));
  let bar: InstanceType<typeof BacktestProgress> | undefined;
  const result = await runAndReport(runBacktest, {
    configPath: a.config,
    outDir: out,
    band: a.band,
    onRunStart: (label) => {
      bar?.stop();
      bar = new BacktestProgress({ label });
    },
    onProgress: (p) => bar?.update(p),
  });
  bar?.stop();
  process.stdout.write(`${summaryTable(result.written.report, { color: process.stdout.isTTY === true })}\n`);
  process.stdout.write(`${result.events.toLocaleString('en-US')} events in ${(result.wallMs / 1000).toFixed(2)} s\n`);
  process.stdout.write(`report: ${result.written.html}\n`);
  return 0;
}

async function runGrid(a: BacktestArgs): Promise<number> {
  const { parseSweepArg, sweepGrid } = await import('../../backtest/sweep/sweep-grid.js');
  const { runSweep } = await import('../../backtest/sweep/run-sweep.js');
  const { rankMetric, sweepTable } = await import('../../backtest/sweep/sweep-rank.js');
  const { defaultThreads } = await import('../../backtest/sweep/sweep-pool.js');
  const axes = a.sweeps.map(parseSweepArg);
  rankMetric(a.metric);
  const total = sweepGrid(axes).length;
  const threads = Math.min(a.jobs ?? defaultThreads(), total);
  const out = a.out ?? resolve('out', 'sweep', folderName(await botName(a.config)));
  process.stderr.write(`rexbot backtest: sweep of ${total} runs on ${threads} worker thread${threads === 1 ? '' : 's'}\n`);
  const { ranked, index } = await runSweep({
    configPath: a.config,
    axes,
    outDir: out,
    metric: a.metric,
    threads,
    band: a.band,
    onResult: (r, done, n) =>
      process.stderr.write(`[${done}/${n}] ${JSON.stringify(r.params)} ${r.ok ? `net PnL ${r.metrics.netPnl}` : `FAILED: ${r.error}`}\n`),
  });
  process.stdout.write(`${sweepTable(ranked, a.metric, { color: process.stdout.isTTY === true })}\n`);
  process.stdout.write(`index: ${index}\n`);
  const failed = ranked.filter((r) => !r.ok).length;
  if (failed === ranked.length) return 1;
  return 0;
}

/** The `backtest` sub-command. */
export const backtestCommand: Command = {
  async run(args) {
    if (args.includes('--help') || args.includes('-h')) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    let parsed: BacktestArgs;
    try {
      parsed = parseBacktestArgs(args);
      if (parsed.sweeps.length > 0) {
        const { parseSweepArg, sweepGrid } = await import('../../backtest/sweep/sweep-grid.js');
        sweepGrid(parsed.sweeps.map(parseSweepArg));
        const { rankMetric } = await import('../../backtest/sweep/sweep-rank.js');
        rankMetric(parsed.metric);
      }
    } catch (e) {
      process.stderr.write(`rexbot backtest: ${(e as Error).message}\n${USAGE}\n`);
      return 2;
    }
    try {
      return parsed.sweeps.length > 0 ? await runGrid(parsed) : await runSingle(parsed);
    } catch (e) {
      process.stderr.write(`rexbot backtest: ${(e as Error).message}\n`);
      return 1;
    }
  },
};
