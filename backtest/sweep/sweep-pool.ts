/**
 * Runs sweep jobs on worker threads across the machine's cores, with tinypool (zero dependencies, the pool
 * vitest is built on, Node 20). Jobs are plain data and go to a handler module by URL, so the same jobs can go
 * to another executor (the distributed queue's workers use this pool too) unchanged. Results arrive as each job
 * ends; order is restored at the end.
 */
import { availableParallelism } from 'node:os';
import Tinypool from 'tinypool';
import type { SweepJob, SweepResult } from './sweep-job.js';

/** Options of {@link runSweepJobs}. */
export interface SweepPoolOptions {
  /** Module (URL) whose default export runs one job; the backtest's is sweep-worker.ts. */
  handler: URL;
  /** Worker threads; default: every core. */
  threads?: number | undefined;
  /** Called as each job finishes. */
  onResult?: ((r: SweepResult, done: number, total: number) => void) | undefined;
}

/** The default thread count: every core the process may use. */
export function defaultThreads(): number {
  return Math.max(1, availableParallelism());
}

/** A long-lived pool of `threads` worker threads running one job handler. */
export interface SweepPool {
  /** Run one job; a worker thread that dies turns the job into a failed result (never a throw). */
  run(job: SweepJob): Promise<SweepResult>;
  destroy(): Promise<void>;
}

/**
 * A pool of `threads` worker threads that run `handler`'s default export on each job.
 *
 * @example
 * const pool = createSweepPool(new URL('./sweep-worker.ts', import.meta.url), 2);
 * const r = await pool.run(job);
 * await pool.destroy();
 */
export function createSweepPool(handler: URL, threads: number): SweepPool {
  const pool = new Tinypool({
    filename: new URL('./sweep-worker-boot.mjs', import.meta.url).href,
    workerData: { handler: handler.href },
    minThreads: threads,
    maxThreads: threads,
  });
  return {
    async run(job) {
      try {
        return (await pool.run(job)) as SweepResult;
      } catch (e) {
        return { index: job.index, params: job.params, ok: false, error: `worker failed: ${e instanceof Error ? e.message : String(e)}` };
      }
    },
    destroy: () => pool.destroy(),
  };
}

/**
 * Run `jobs` on a pool of worker threads; resolves with every result in job order. A worker that dies turns its
 * job into a failed result; the other jobs go on.
 *
 * @example
 * const results = await runSweepJobs(jobs, { handler: new URL('./sweep-worker.ts', import.meta.url) });
 */
export async function runSweepJobs(jobs: readonly SweepJob[], opts: SweepPoolOptions): Promise<SweepResult[]> {
  const threads = Math.max(1, Math.min(opts.threads ?? defaultThreads(), jobs.length || 1));
  const pool = createSweepPool(opts.handler, threads);
  let done = 0;
  try {
    return await Promise.all(
      jobs.map(async (job): Promise<SweepResult> => {
        const r = await pool.run(job);
        opts.onResult?.(r, ++done, jobs.length);
        return r;
      }),
    );
  } finally {
    await pool.destroy();
  }
}
