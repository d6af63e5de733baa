/**
 * One job of a sweep, as plain data (structured-cloneable, JSON-serialisable): which config, which parameters,
 * where the report goes. Whatever runs it — a worker thread here, a distributed queue later — calls
 * {@link runSweepJob} and gets plain data back. A failing job is a result with its error, never a throw.
 */
import { runAndReport, type RunBacktestFn } from '../run-report.js';
import type { TotalMetrics } from '../report/metrics.js';
import { ReplayFormatError } from '../../src/sim/driver/replay-error.js';

/** A sweep job. */
export interface SweepJob {
  /** Position in the grid, 0-based; names the job in tables. */
  index: number;
  configPath: string;
  params: Record<string, unknown>;
  /** Folder for this run's report.json and report.html. */
  outDir: string;
  band?: boolean | undefined;
  /**
   * Folders the job's data files must lie in: set by the queue worker that runs it (its `--root`s), never taken
   * from the queue. Anywhere when absent (a local sweep).
   */
  allowedRoots?: readonly string[] | undefined;
}

/** What every job's outcome says besides its figures or its error. */
interface SweepResultNotes {
  /**
   * Wall-clock timers the run's strategies left running after it, which its worker thread cleared before its next
   * job (job-timers.ts); absent when none.
   */
  leftTimers?: number | undefined;
}

/** A job's outcome. */
export type SweepResult =
  | ({ index: number; params: Record<string, unknown>; ok: true; outDir: string; html: string; metrics: TotalMetrics; events: number; wallMs: number } & SweepResultNotes)
  | ({ index: number; params: Record<string, unknown>; ok: false; error: string } & SweepResultNotes);

/**
 * Run `job` with the backtest runner `run`.
 *
 * @example
 * const result = await runSweepJob({ index: 0, configPath, params: { spread: 0.002 }, outDir }, runBacktest);
 */
export async function runSweepJob(job: SweepJob, run: RunBacktestFn): Promise<SweepResult> {
  try {
    const r = await runAndReport(run, { configPath: job.configPath, outDir: job.outDir, params: job.params, band: job.band, allowedRoots: job.allowedRoots });
    // A run whose strategy failed is not the run the grid asked for: failed in the table (its report is written),
    // not ranked among the others by figures made after the strategy stopped.
    const failures = r.written.report.strategyFailures ?? [];
    if (failures.length > 0) return { index: job.index, params: job.params, ok: false, error: failures.map((f) => f.message).join('; ') };
    return { index: job.index, params: job.params, ok: true, outDir: r.written.dir, html: r.written.html, metrics: r.written.report.metrics.total, events: r.events, wallMs: r.wallMs };
  } catch (e) {
    return { index: job.index, params: job.params, ok: false, error: job.allowedRoots ? withoutFileText(e) : e instanceof Error ? e.message : String(e) };
  }
}

/**
 * A queued job's error as its author may see it: whoever can write the queue may name any file in the worker's
 * folders (a `.env`, a live bot's config) as data, and a reader's error quotes the bad line. A data file's error
 * keeps its file:line and reason and leaves the text out.
 */
function withoutFileText(e: unknown): string {
  for (let c = e; c instanceof Error; c = c.cause) if (c instanceof ReplayFormatError) return c.messageWithoutText();
  return e instanceof Error ? e.message : String(e);
}
