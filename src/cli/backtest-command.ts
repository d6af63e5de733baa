/**
 * `rexbot backtest`: run a bot config whose venue is `backtest` over recorded data, write report.json and
 * report.html, print a summary table and where the report is. With `--sweep`, run a grid of parameter values on
 * worker threads (or, with `--queue redis://…`, on `rexbot worker` processes anywhere) and write one report per
 * run plus an index ranked by `--metric`.
 *
 * ```
 * rexbot backtest <config.yaml> [--out DIR] [--band] [--sweep key=v1,v2 ...] [--metric NAME] [--jobs N]
 *                 [--queue redis://HOST:PORT [--queue-name NAME] [--queue-prefix P]]
 * ```
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SCRATCH_ENV } from '../../backtest/run/scratch-dir.js';
import { notePluginsOf } from './exit-when-done.js';
import type { Command } from './main.js';

const USAGE = `usage: rexbot backtest <config.yaml> [--out DIR] [--band] [--sweep key=v1,v2 ...] [--metric NAME] [--jobs N]
                       [--queue redis://HOST:PORT [--queue-name NAME] [--queue-prefix P]]

Runs the config's strategies over recorded data (venue.kind: backtest) on virtual time and writes
report.json and report.html (open it in a browser; it needs no network).

  --out DIR          where the report goes (default out/backtest/<bot name>, or out/sweep/<bot name> for a sweep)
  --band             also run under the pessimistic and optimistic queue models; the report shows the range
  --sweep key=v,...  sweep a parameter: a strategy param name (spread) or a dotted config path
                     (venue.latency.orderEntry); repeat for a grid; values are read as YAML
  --metric NAME      rank a sweep by this metric (default netPnl): netPnl, netPnlVsHold, return, cagr, sharpe,
                     sortino, calmar, maxDrawdown, winRate, profitFactor, expectancy, fees, trades, fillRate,
                     exposure
  --jobs N           worker threads for a sweep (default: every core)
  --queue URL        run the sweep's jobs on \`rexbot worker --redis URL\` processes instead of local threads; a
                     job names the config and --out by absolute path: a worker sees them at the same paths, or
                     is told where it sees them (rexbot worker --map FROM=TO); data named relative to the config
                     follows it, an absolute path written in the config or a --sweep value is used as written
  --queue-name NAME  the workers' --queue (default rexbot-sweep)
  --queue-prefix P   the workers' --prefix, Redis key prefix (default bull)
  --help             this text`;

/** The parsed command line. */
export interface BacktestArgs {
  config: string;
  out: string | undefined;
  band: boolean;
  sweeps: string[];
  metric: string;
  jobs: number | undefined;
  queue: string | undefined;
  queueName: string | undefined;
  queuePrefix: string | undefined;
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
      metric: { type: 'string', default: 'netPnl' },
      jobs: { type: 'string' },
      queue: { type: 'string' },
      'queue-name': { type: 'string' },
      'queue-prefix': { type: 'string' },
    },
  });
  if (positionals.length === 0) throw new Error('give the config file, e.g. rexbot backtest config/backtest.yaml');
  if (positionals.length > 1) throw new Error(`unexpected argument ${positionals[1]}`);
  let jobs: number | undefined;
  if (values.jobs !== undefined) {
    jobs = Number(values.jobs);
    if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs must be a whole number ≥ 1, got ${values.jobs}`);
  }
  const sweeps = values.sweep ?? [];
  if (values.queue !== undefined && sweeps.length === 0) throw new Error('--queue runs a sweep on workers: give --sweep key=v1,v2 too');
  if ((values['queue-name'] !== undefined || values['queue-prefix'] !== undefined) && values.queue === undefined) throw new Error('--queue-name and --queue-prefix go with --queue redis://HOST:PORT');
  const queueName = values['queue-name'];
  if (queueName !== undefined && (queueName === '' || queueName.includes(':'))) throw new Error(`--queue-name ${queueName}: a queue name is non-empty and has no ':'`);
  return {
    config: positionals[0]!,
    out: values.out,
    band: values.band ?? false,
    sweeps,
    metric: values.metric ?? 'netPnl',
    jobs,
    queue: values.queue,
    queueName,
    queuePrefix: values['queue-prefix'],
  };
}

/** `name` made safe as a folder name. */
function folderName(name: string): string {
  return name.replace(/[^\w.-]+/g, '_') || 'backtest';
}

/** The bot name in a config file, for the default output folder (`backtest` when it cannot be read). */
async function botName(configPath: string): Promise<string> {
  try {
    // Read as the config itself is (config-file.ts): a FIFO or a huge file is refused, not waited on or read whole.
    const { readConfigText } = await import('../runtime/config/config-file.js');
    const { parse } = await import('yaml');
    const raw = parse(readConfigText(configPath)) as { bot?: { name?: unknown } } | null;
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
  // the strategies run in this process: a timer one leaves behind is theirs (exit-when-done.ts)
  notePluginsOf(a.config);
  let bar: InstanceType<typeof BacktestProgress> | undefined;
  const result = await runAndReport(runBacktest, {
    configPath: a.config,
    outDir: out,
    band: a.band,
    onRunStart: (label) => {
      bar?.stop();
      display = bar = new BacktestProgress({ label });
    },
    onProgress: (p) => bar?.update(p),
  });
  bar?.stop();
  display = undefined;
  process.stdout.write(`${summaryTable(result.written.report, { color: process.stdout.isTTY === true })}\n`);
  process.stdout.write(`${result.events.toLocaleString('en-US')} events in ${(result.wallMs / 1000).toFixed(2)} s\n`);
  process.stdout.write(`report: ${result.written.html}\n`);
  // A strategy that failed made a report of a run that is not the one asked for: said where a person looks, and
  // in the exit code, where a script looks.
  const failures = result.written.report.strategyFailures ?? [];
  for (const f of failures) process.stderr.write(`rexbot backtest: ${f.message}\n`);
  // data the user chose to skip is not a failure, but the figures are of less than the file: said, not hidden
  for (const w of result.written.report.dataWarnings ?? []) process.stderr.write(`rexbot backtest: warning: ${w}\n`);
  return failures.length > 0 ? 1 : 0;
}

async function runGrid(a: BacktestArgs): Promise<number> {
  const { parseSweepArg, sweepGrid } = await import('../../backtest/sweep/sweep-grid.js');
  const { runSweep } = await import('../../backtest/sweep/run-sweep.js');
  const { rankMetric, sweepTable } = await import('../../backtest/sweep/sweep-rank.js');
  const { defaultThreads } = await import('../../backtest/sweep/sweep-pool.js');
  const { leftTimersText } = await import('../../backtest/sweep/job-timers.js');
  const axes = a.sweeps.map(parseSweepArg);
  rankMetric(a.metric);
  const total = sweepGrid(axes).length;
  const threads = Math.min(a.jobs ?? defaultThreads(), total);
  const out = a.out ?? resolve('out', 'sweep', folderName(await botName(a.config)));
  const say = (line: string) => process.stderr.write(`${line}\n`);
  let queue: NonNullable<Parameters<typeof runSweep>[0]['queue']> | undefined;
  const interrupt = new AbortController();
  if (a.queue !== undefined) {
    // only a queued sweep loads the queue code (BullMQ, Redis)
    const { redactedUrl, redisOptions, DEFAULT_QUEUE_NAME } = await import('../../backtest/sweep/queue-connection.js');
    redisOptions(a.queue);
    say(`rexbot backtest: sweep of ${total} runs on the workers of queue ${a.queueName ?? DEFAULT_QUEUE_NAME} at ${redactedUrl(a.queue)}`);
    queue = {
      redis: a.queue,
      name: a.queueName,
      prefix: a.queuePrefix,
      onStart: (job, worker) => say(`job ${job.index + 1} ${JSON.stringify(job.params)} running on ${worker}`),
      onNotice: (m) => say(`rexbot backtest: ${m}`),
      signal: interrupt.signal,
    };
    // Ctrl-C takes the sweep's waiting jobs off the queue rather than leaving them to the workers
    process.once('SIGINT', () => interrupt.abort());
  } else {
    say(`rexbot backtest: sweep of ${total} runs on ${threads} worker thread${threads === 1 ? '' : 's'}`);
  }
  const { ranked, index } = await runSweep({
    configPath: a.config,
    axes,
    outDir: out,
    metric: a.metric,
    threads,
    band: a.band,
    queue,
    onResult: (r, done, n, worker) => {
      say(`[${done}/${n}] ${JSON.stringify(r.params)} ${r.ok ? `net PnL ${r.metrics.netPnl}` : `FAILED: ${r.error}`}${worker ? ` (${worker})` : ''}`);
      if (r.leftTimers) say(`rexbot backtest: warning: run ${JSON.stringify(r.params)}: ${leftTimersText(r.leftTimers, a.config)}`);
    },
  });
  process.stdout.write(`${sweepTable(ranked, a.metric, { color: process.stdout.isTTY === true })}\n`);
  process.stdout.write(`index: ${index}\n`);
  const failed = ranked.filter((r) => !r.ok).length;
  if (failed === ranked.length) return 1;
  return 0;
}

/** The progress bar on the terminal now, if any: an interrupted run puts the terminal back (cursor, wrapping). */
let display: { stop(): void } | undefined;

/**
 * Make this command's runs leave nothing behind however it ends: their scratch folders (see scratch-dir.ts) go in
 * one folder removed at exit, and (unless `keepSignals`: a queued sweep handles Ctrl-C itself) SIGINT, SIGTERM and
 * SIGHUP end the command at once, saying so, with the terminal as it was. Reports of runs already finished stay.
 */
function cleanUpOnExit(keepSignals: boolean): void {
  const scratch = mkdtempSync(join(tmpdir(), 'rexbot-backtest-'));
  process.env[SCRATCH_ENV] = scratch;
  process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
  if (keepSignals) return;
  const codes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
  for (const [sig, code] of Object.entries(codes)) {
    process.once(sig, () => {
      display?.stop();
      process.stderr.write(`\nrexbot backtest: interrupted (${sig}); the run in progress wrote no report\n`);
      process.exit(code);
    });
  }
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
      // Found now, not after the whole run when its report cannot be written.
      if (parsed.out !== undefined && existsSync(parsed.out) && !statSync(parsed.out).isDirectory()) {
        throw new Error(`--out ${parsed.out}: is a file, not a folder`);
      }
      if (parsed.sweeps.length > 0) {
        const { parseSweepArg, sweepGrid } = await import('../../backtest/sweep/sweep-grid.js');
        const axes = parsed.sweeps.map(parseSweepArg);
        sweepGrid(axes);
        // A misspelt parameter name is a bad command line, found before any run starts.
        const { checkSweepKeys } = await import('../../backtest/run-backtest.js');
        await checkSweepKeys(parsed.config, axes.map((x) => x.key));
        const { rankMetric } = await import('../../backtest/sweep/sweep-rank.js');
        rankMetric(parsed.metric);
      }
    } catch (e) {
      process.stderr.write(`rexbot backtest: ${(e as Error).message}\n${USAGE}\n`);
      return 2;
    }
    try {
      cleanUpOnExit(parsed.queue !== undefined);
      return parsed.sweeps.length > 0 ? await runGrid(parsed) : await runSingle(parsed);
    } catch (e) {
      process.stderr.write(`rexbot backtest: ${(e as Error).message}\n`);
      return 1;
    }
  },
};
