/**
 * A whole sweep: the grid's jobs into `<out>/<nn>-<params>/`, run on the local worker pool or on a distributed
 * queue's workers (`queue`), ranked, indexed. The queue code (BullMQ, Redis) is imported only when asked for.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { SweepJob, SweepResult } from './sweep-job.js';
import { runSweepJobs } from './sweep-pool.js';
import { paramsSlug, sweepGrid, type SweepAxis } from './sweep-grid.js';
import { rankMetric, rankResults } from './sweep-rank.js';
import { writeSweepIndex } from './sweep-index.js';
import type { QueueSweepOptions } from './queue-sweep.js';

/** Options of {@link runSweep}. */
export interface RunSweepOptions {
  configPath: string;
  axes: SweepAxis[];
  outDir: string;
  metric: string;
  threads?: number | undefined;
  band?: boolean | undefined;
  /** The job handler module; the backtest's by default. */
  handler?: URL | undefined;
  onResult?: ((r: SweepResult, done: number, total: number, worker?: string | undefined) => void) | undefined;
  /** Run the jobs on this queue's workers (`rexbot worker`) instead of local threads; `handler` is then theirs. */
  queue?: Omit<QueueSweepOptions, 'onResult'> | undefined;
}

/** The sweep's jobs, one folder each under `outDir`. */
export function sweepJobs(configPath: string, axes: SweepAxis[], outDir: string, band?: boolean): SweepJob[] {
  const grid = sweepGrid(axes);
  const width = String(grid.length).length;
  return grid.map((params, index) => ({
    index,
    configPath: resolve(configPath),
    params,
    outDir: join(resolve(outDir), `${String(index + 1).padStart(width, '0')}-${paramsSlug(params)}`),
    ...(band ? { band: true } : {}),
  }));
}

/**
 * Run the sweep and write its index; resolves with the ranked results and the index page's path.
 *
 * @example
 * const { ranked, index } = await runSweep({ configPath, axes: [parseSweepArg('spread=0.001,0.002')], outDir: 'out/sweep', metric: 'sharpe' });
 */
export async function runSweep(opts: RunSweepOptions): Promise<{ ranked: SweepResult[]; index: string }> {
  rankMetric(opts.metric);
  const jobs = sweepJobs(opts.configPath, opts.axes, opts.outDir, opts.band);
  const dir = resolve(opts.outDir);
  await mkdir(dir, { recursive: true });
  const results = opts.queue
    ? await (await import('./queue-sweep.js')).runSweepJobsOnQueue(jobs, { ...opts.queue, onResult: opts.onResult })
    : await runSweepJobs(jobs, {
        handler: opts.handler ?? new URL('./sweep-worker.ts', import.meta.url),
        threads: opts.threads,
        onResult: opts.onResult,
      });
  const ranked = rankResults(results, opts.metric);
  const index = await writeSweepIndex(ranked, { configPath: opts.configPath, metric: opts.metric, dir });
  return { ranked, index };
}
