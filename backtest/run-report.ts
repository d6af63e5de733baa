/**
 * One backtest run turned into its report: runs the backtest (three times with `band`: under the configured
 * queue model, then `pessimistic` and `optimistic`), fills `ReportInput.band`, and writes `report.json` and
 * `report.html` into a folder. Shared by `rexbot backtest` and each job of a sweep.
 */
import { computeMetrics } from './report/metrics.js';
import type { ReportInput } from './report/report-input.js';
import { writeReport, type WrittenReport } from './report/write-report.js';
import { confineFiles } from './sweep/confined-files.js';
import type { BacktestProgressEvent } from './cli/progress.js';

/** Options of one backtest run, as `backtest/run-backtest.ts` takes them. */
export interface RunBacktestOptions {
  configPath?: string;
  params?: Record<string, unknown>;
  queueModel?: string;
  onProgress?: (p: BacktestProgressEvent) => void;
  /** Folders the data files must lie in (a queue worker's `--root`s); anywhere when absent. */
  allowedRoots?: readonly string[];
}

/** What one run gives back. */
export interface RunBacktestResult {
  report: ReportInput;
  stats: { events: number; wallMs: number };
}

/** The backtest runner (`runBacktest` of backtest/run-backtest.ts; injectable so this file stays testable alone). */
export type RunBacktestFn = (opts: RunBacktestOptions) => Promise<RunBacktestResult>;

/** The queue models `--band` adds to the configured one. */
export const BAND_MODELS = ['pessimistic', 'optimistic'] as const;

/** Options of {@link runAndReport}. */
export interface RunAndReportOptions {
  configPath: string;
  outDir: string;
  params?: Record<string, unknown> | undefined;
  band?: boolean | undefined;
  /** Folders the data files must lie in (a queue worker's `--root`s); anywhere when absent. */
  allowedRoots?: readonly string[] | undefined;
  onProgress?: ((p: BacktestProgressEvent, runLabel: string) => void) | undefined;
  /** Called as each run starts (`backtest`, then the band's queue models), so a display can time it. */
  onRunStart?: ((runLabel: string) => void) | undefined;
}

/** The report written and the main run's figures. */
export interface RunAndReportResult {
  written: WrittenReport;
  events: number;
  /** Wall time of every run made, summed. */
  wallMs: number;
}

/**
 * Run, optionally under the band's queue models too, and write the report.
 *
 * @example
 * const { written } = await runAndReport(runBacktest, { configPath: 'config/backtest.yaml', outDir: 'out', band: true });
 */
export async function runAndReport(run: RunBacktestFn, opts: RunAndReportOptions): Promise<RunAndReportResult> {
  const base = { configPath: opts.configPath, ...(opts.params ? { params: opts.params } : {}), ...(opts.allowedRoots ? { allowedRoots: opts.allowedRoots } : {}) };
  opts.onRunStart?.('backtest');
  const main = await run({ ...base, ...(opts.onProgress ? { onProgress: (p: BacktestProgressEvent) => opts.onProgress!(p, 'backtest') } : {}) });
  let wallMs = main.stats.wallMs;
  const input: ReportInput = { ...main.report, ...(opts.params ? { params: opts.params } : {}), events: main.report.events ?? main.stats.events };
  if (opts.band) {
    const band = [];
    for (const queueModel of BAND_MODELS) {
      if (queueModel === input.queueModel) continue;
      opts.onRunStart?.(queueModel);
      const other = await run({ ...base, queueModel, ...(opts.onProgress ? { onProgress: (p: BacktestProgressEvent) => opts.onProgress!(p, queueModel) } : {}) });
      wallMs += other.stats.wallMs;
      band.push(bandRun(queueModel, other.report));
    }
    input.band = band;
  }
  // a queued job's report goes where its output folder really is when written, not where it was when checked
  const written = await (opts.allowedRoots ? confineFiles(opts.allowedRoots, () => writeReport(input, opts.outDir)) : writeReport(input, opts.outDir));
  return { written, events: main.stats.events, wallMs };
}

/** One band row from another queue model's run. */
function bandRun(queueModel: string, report: ReportInput): { queueModel: string; netPnl: string; fillRate: number; fills: number } {
  const m = computeMetrics(report).total;
  return { queueModel, netPnl: m.netPnl, fillRate: m.orders.fillRate ?? 0, fills: m.fills };
}
