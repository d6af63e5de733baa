/**
 * Runs sweep jobs on worker threads across the machine's cores, with tinypool (zero dependencies, the pool
 * vitest is built on, Node 20). Jobs are plain data and go to a handler module by URL, so the same jobs can go
 * to another executor (the distributed queue's workers use this pool too) unchanged. Results arrive as each job
 * ends; order is restored at the end.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
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

/**
 * A thread whose heap holds more than this after a job is replaced before its next one (default 1 GiB). Each
 * backtest imports its strategy plugin anew (~80 KB a job for the example market maker, see
 * `LoadStrategyOptions.run`), and anything else a job leaves behind piles up on a thread that runs jobs for days
 * (`rexbot worker`); a new thread costs one cold start (~0.5 s).
 */
export const DEFAULT_RECYCLE_HEAP_BYTES = 1 << 30;

/** The default thread count: every core the process may use. */
export function defaultThreads(): number {
  return Math.max(1, availableParallelism());
}

/** What a pool thread is handed (sweep-worker-boot.mjs): the job, and a port to say when it starts it. */
interface SweepTask {
  job: SweepJob;
  started?: MessagePort;
}

/** Options of one {@link SweepPool.run}. */
export interface SweepRunOptions {
  /** Time limit (ms): past it the job's thread is terminated and the job is a failed result. None when absent or 0. */
  timeoutMs?: number | undefined;
  /** Says how to change the limit, in the failed result (`--job-timeout`). */
  timeoutHint?: string | undefined;
}

/** A long-lived pool of `threads` worker threads running one job handler. */
export interface SweepPool {
  /**
   * Run one job; a worker thread that dies, or runs past the time limit (it is terminated and replaced), turns the
   * job into a failed result (never a throw).
   */
  run(job: SweepJob, opts?: SweepRunOptions): Promise<SweepResult>;
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
export function createSweepPool(handler: URL, threads: number, recycleHeapBytes: number = DEFAULT_RECYCLE_HEAP_BYTES): SweepPool {
  const pool = new Tinypool({
    filename: new URL('./sweep-worker-boot.mjs', import.meta.url).href,
    workerData: { handler: handler.href },
    minThreads: threads,
    maxThreads: threads,
    // Measured by tinypool as the thread's heapUsed when a job ends (garbage of that job included, so a big job may
    // cost its thread: a cold start, nothing lost).
    maxMemoryLimitBeforeRecycle: recycleHeapBytes,
  });
  return {
    async run(job, opts = {}) {
      // a Node timer longer than 2^31-1 ms fires at once: a longer limit is that long
      const limit = Math.min(opts.timeoutMs ?? 0, 2_147_483_647);
      // Aborting a running task makes tinypool terminate its thread and start another: a job stuck in a loop, or
      // waiting on something that never comes, does not keep its thread (abandoning the promise alone would).
      const timer = limit > 0 ? new AbortController() : undefined;
      // The clock starts when the thread starts the job (it says so on `started`), not while a new thread loads the
      // handler's modules: a cold start on a busy machine is not the job's time.
      const started = timer ? new MessageChannel() : undefined;
      let clock: NodeJS.Timeout | undefined;
      started?.port1.once('message', () => {
        clock = setTimeout(() => timer!.abort(), limit);
      });
      try {
        const task: SweepTask = { job, ...(started ? { started: started.port2 } : {}) };
        return (await pool.run(task, timer ? { signal: timer.signal, transferList: [started!.port2] } : {})) as SweepResult;
      } catch (e) {
        if (timer?.signal.aborted) {
          const error = `timed out after ${formatLimit(limit)}${opts.timeoutHint ? ` (${opts.timeoutHint})` : ''}: its worker thread was terminated`;
          return { index: job.index, params: job.params, ok: false, error };
        }
        return { index: job.index, params: job.params, ok: false, error: `worker failed: ${e instanceof Error ? e.message : String(e)}` };
      } finally {
        clearTimeout(clock);
        started?.port1.close();
      }
    },
    destroy: () => pool.destroy(),
  };
}

/** `ms` for a person: `250 ms`, `90 s`, `1 h`. */
function formatLimit(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
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
