/**
 * The worker side of a distributed sweep (`rexbot worker`): a BullMQ worker that takes sweep jobs from the queue
 * and runs each with the same handler as the local sweep (sweep-worker.ts → runSweepJob) on the same tinypool
 * worker-thread pool. The backtest runs on a worker thread so the main thread stays free to renew the job's lock:
 * a long backtest never looks stalled, while a killed process stops renewing and its job is handed to another
 * worker by BullMQ's stalled-job check.
 *
 * Whoever can write the queue names each job's config, data and output folder: a worker runs only jobs whose paths
 * lie in its folders (`roots`), and gives each job a time limit past which its thread is terminated. A refused or
 * timed-out job is a failed result with the reason; the worker goes on with the next.
 */
import { hostname } from 'node:os';
import { Worker, type Job } from 'bullmq';
import { createSweepPool } from './sweep-pool.js';
import type { SweepJob, SweepResult } from './sweep-job.js';
import { mapJobIn, mapResultOut, type PathMapping } from './path-map.js';
import { assertJobPaths, JobPathError, resolveRoots } from './allowed-roots.js';
import { DEFAULT_PREFIX, DEFAULT_QUEUE_NAME, redisOptions, type SweepQueueTarget } from './queue-connection.js';

/** What a worker writes back as a job's return value. */
export interface QueuedSweepResult {
  result: SweepResult;
  /** Which worker ran it (host:pid). */
  worker: string;
}

/** What a worker reports while it runs, for its log. */
export type SweepWorkerEvent =
  | { kind: 'start'; jobId: string; index: number; params: Record<string, unknown> }
  | { kind: 'done'; jobId: string; result: SweepResult }
  | { kind: 'error'; message: string };

/** Options of {@link startSweepWorker}. */
export interface SweepWorkerOptions extends SweepQueueTarget {
  /** Jobs run at once (worker threads); default 1. */
  concurrency?: number | undefined;
  /** Job handler module; the real backtest's (sweep-worker.ts) by default. */
  handler?: URL | undefined;
  /** How long a job's lock lasts without renewal (ms); BullMQ's default 30000. A dead worker's job waits this long. */
  lockDurationMs?: number | undefined;
  /** How often this worker looks for stalled jobs (ms); BullMQ's default 30000. */
  stalledIntervalMs?: number | undefined;
  /** Where this machine sees the coordinator's paths (config, data, output), when not at the same place. */
  pathMap?: readonly PathMapping[] | undefined;
  /**
   * The only folders a job's config, data and output folder may lie in (after `..` and symbolic links); default the
   * `pathMap` targets, or without a map the working directory. Checked once more by {@link SweepWorker.ready}.
   */
  roots?: readonly string[] | undefined;
  /** A job's time limit (ms), past which its thread is terminated and the job fails; default one hour, 0 none. */
  jobTimeoutMs?: number | undefined;
  /** Name in logs and results; default host:pid. */
  id?: string | undefined;
  onEvent?: ((e: SweepWorkerEvent) => void) | undefined;
}

/** A running sweep worker. */
export interface SweepWorker {
  readonly id: string;
  /** Resolves once connected to Redis and taking jobs, with the folders its jobs may use (real paths). */
  ready(): Promise<{ roots: readonly string[] }>;
  /** Finish the jobs in hand, then stop. */
  close(): Promise<void>;
}

/** A job's time limit when none is given: one hour. */
export const DEFAULT_JOB_TIMEOUT_MS = 3_600_000;

/** `data` as a sweep job (its known fields only: nothing else from the queue reaches the thread), or an error naming the job. */
function sweepJobOf(job: Job): SweepJob {
  const d = job.data as Partial<SweepJob> | null;
  if (!d || typeof d !== 'object' || typeof d.index !== 'number' || typeof d.configPath !== 'string' || typeof d.outDir !== 'string' || !d.params || typeof d.params !== 'object') {
    throw new Error(`job ${job.id}: not a sweep job (expected index, configPath, params, outDir)`);
  }
  return { index: d.index, configPath: d.configPath, params: d.params, outDir: d.outDir, ...(typeof d.band === 'boolean' ? { band: d.band } : {}) };
}

/**
 * Start a worker on the queue `opts.name` at `opts.redis`.
 *
 * @example
 * const w = startSweepWorker({ redis: 'redis://10.0.0.5:6379', concurrency: 4 });
 * await w.ready();
 */
export function startSweepWorker(opts: SweepWorkerOptions): SweepWorker {
  const id = opts.id ?? `${hostname()}:${process.pid}`;
  const concurrency = Math.max(1, opts.concurrency ?? 1);
  const maps = opts.pathMap ?? [];
  const timeoutMs = opts.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
  const roots = resolveRoots(opts.roots ?? (maps.length > 0 ? maps.map((m) => m.to) : [process.cwd()]), { mustExist: false, flag: opts.roots ? '--root' : maps.length > 0 ? '--map' : 'working directory' });
  // a bad root fails ready() and every job, never as an unhandled rejection
  roots.catch(() => undefined);
  const pool = createSweepPool(opts.handler ?? new URL('./sweep-worker.ts', import.meta.url), concurrency);
  /** The job's result: refused (a path outside `roots`, a config that is not a file) or run on a thread. */
  const runJob = async (data: SweepJob): Promise<SweepResult> => {
    const allowedRoots = await roots;
    const job = mapJobIn(data, maps);
    try {
      await assertJobPaths(job, allowedRoots);
    } catch (e) {
      if (!(e instanceof JobPathError)) throw e;
      return { index: job.index, params: job.params, ok: false, error: e.message };
    }
    return mapResultOut(await pool.run({ ...job, allowedRoots }, { timeoutMs, timeoutHint: 'rexbot worker --job-timeout' }), maps);
  };
  const worker = new Worker<SweepJob, QueuedSweepResult>(
    opts.name ?? DEFAULT_QUEUE_NAME,
    async (job) => {
      const data = sweepJobOf(job);
      opts.onEvent?.({ kind: 'start', jobId: String(job.id), index: data.index, params: data.params });
      // the coordinator shows which worker took which job
      await job.updateProgress({ worker: id });
      const result = await runJob(data);
      opts.onEvent?.({ kind: 'done', jobId: String(job.id), result });
      return { result, worker: id };
    },
    {
      connection: redisOptions(opts.redis),
      prefix: opts.prefix ?? DEFAULT_PREFIX,
      concurrency,
      name: id,
      ...(opts.lockDurationMs !== undefined ? { lockDuration: opts.lockDurationMs } : {}),
      ...(opts.stalledIntervalMs !== undefined ? { stalledInterval: opts.stalledIntervalMs } : {}),
      // a job whose worker died runs once more elsewhere; twice dead is a failed job with the reason in the table
      maxStalledCount: 1,
    },
  );
  worker.on('error', (e) => opts.onEvent?.({ kind: 'error', message: e.message }));
  return {
    id,
    ready: async () => {
      const allowed = await roots;
      await worker.waitUntilReady();
      return { roots: allowed };
    },
    close: async () => {
      try {
        await worker.close();
      } finally {
        await pool.destroy();
      }
    },
  };
}
