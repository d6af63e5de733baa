/**
 * The coordinator side of a distributed sweep (`rexbot backtest --sweep … --queue redis://…`): puts the sweep's
 * plain-data jobs on a BullMQ queue, follows every worker's progress through QueueEvents and collects each job's
 * result exactly once — keyed by job index, so a job that ran twice (its first worker died mid-job) still makes
 * one row. Job ids are `<sweep id>-<index>`: BullMQ refuses a second job with an id it holds, so a job is queued once.
 */
import { randomBytes } from 'node:crypto';
import { Job, Queue, QueueEvents } from 'bullmq';
import type { SweepJob, SweepResult } from './sweep-job.js';
import { assertRedisReachable, DEFAULT_PREFIX, lastStreamId, DEFAULT_QUEUE_NAME, redactedUrl, redisOptions, type SweepQueueTarget } from './queue-connection.js';
import type { QueuedSweepResult } from './queue-worker.js';

/** Options of {@link runSweepJobsOnQueue}. */
export interface QueueSweepOptions extends SweepQueueTarget {
  /** Names this sweep's jobs; a fresh one per call by default. */
  sweepId?: string | undefined;
  /** Called once per job as its result is recorded, with the worker that ran it. */
  onResult?: ((r: SweepResult, done: number, total: number, worker: string | undefined) => void) | undefined;
  /** Called when a worker takes a job (again, if its first worker died). */
  onStart?: ((job: SweepJob, worker: string) => void) | undefined;
  /** Things the user should know (no worker connected yet). */
  onNotice?: ((message: string) => void) | undefined;
  /** How often the queue itself is read for results the event stream did not deliver (ms); default 2000. */
  pollMs?: number | undefined;
  /** Stops waiting: the sweep's jobs not yet taken are removed from the queue and the call rejects. */
  signal?: AbortSignal | undefined;
}

/** A fresh sweep id: time-ordered, unique across coordinators. */
export function newSweepId(): string {
  return `sweep-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** The job id of `index` in sweep `sweepId`. */
export function sweepJobId(sweepId: string, index: number): string {
  return `${sweepId}-${index}`;
}

/** The SweepResult in a completed job's return value, or a failed result saying what was wrong with it. */
function unwrap(job: SweepJob, value: unknown): { result: SweepResult; worker: string | undefined } {
  const v = value as Partial<QueuedSweepResult> | null | undefined;
  const r = v?.result;
  if (!r || typeof r !== 'object' || r.index !== job.index || typeof r.ok !== 'boolean') {
    return { result: { index: job.index, params: job.params, ok: false, error: `the worker returned no sweep result for job ${job.index}` }, worker: v?.worker };
  }
  return { result: r, worker: v.worker };
}

/**
 * Run `jobs` on the queue's workers; resolves with every result in job order once each job has one. The
 * sweep's jobs are removed from Redis at the end.
 *
 * @example
 * const results = await runSweepJobsOnQueue(jobs, { redis: 'redis://127.0.0.1:6379' });
 */
export async function runSweepJobsOnQueue(jobs: readonly SweepJob[], opts: QueueSweepOptions): Promise<SweepResult[]> {
  await assertRedisReachable(opts.redis);
  const name = opts.name ?? DEFAULT_QUEUE_NAME;
  const connection = redisOptions(opts.redis);
  const prefix = opts.prefix ?? DEFAULT_PREFIX;
  const sweepId = opts.sweepId ?? newSweepId();
  const byId = new Map(jobs.map((j) => [sweepJobId(sweepId, j.index), j]));
  const results = new Map<number, SweepResult>();
  // QueueEvents reads the event stream from `lastEventId`; its default '$' is taken when its first read goes out,
  // which may be after the first workers' events: start from the stream's last entry before any job exists.
  const lastEventId = await lastStreamId(opts.redis, `${prefix}:${name}:events`);
  const queue = new Queue(name, { connection, prefix });
  const events = new QueueEvents(name, { connection, prefix, lastEventId });
  let poll: NodeJS.Timeout | undefined;
  let abortListener: (() => void) | undefined;
  try {
    let finish!: () => void;
    let fail!: (e: Error) => void;
    const allDone = new Promise<void>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
    // it may reject before it is awaited (interrupted while the jobs are being added)
    allDone.catch(() => undefined);
    const record = (jobId: string, make: (job: SweepJob) => { result: SweepResult; worker: string | undefined }) => {
      const job = byId.get(jobId);
      // exactly once: the first outcome of a job is its result; an event replayed or seen by the poll is not another
      if (!job || results.has(job.index)) return;
      const { result, worker } = make(job);
      results.set(job.index, result);
      opts.onResult?.(result, results.size, jobs.length, worker);
      if (results.size === jobs.length) finish();
    };
    events.on('completed', ({ jobId, returnvalue }) => record(jobId, (job) => unwrap(job, returnvalue)));
    events.on('failed', ({ jobId, failedReason }) => record(jobId, (job) => ({ result: { index: job.index, params: job.params, ok: false, error: failedReason }, worker: undefined })));
    events.on('progress', ({ jobId, data }) => {
      const job = byId.get(jobId);
      const worker = (data as { worker?: unknown } | null)?.worker;
      if (job && typeof worker === 'string') opts.onStart?.(job, worker);
    });
    // a dropped connection is retried by ioredis; the sweep waits for Redis rather than failing on a blip
    let lastNotice = '';
    const notice = (m: string) => {
      if (m !== lastNotice) opts.onNotice?.(m);
      lastNotice = m;
    };
    events.on('error', (e) => notice(`queue events: ${e.message}; retrying`));
    const abort = (abortListener = () => fail(new Error('sweep interrupted; its jobs not yet taken were removed from the queue')));
    if (opts.signal?.aborted) abort();
    opts.signal?.addEventListener('abort', abort, { once: true });
    // listening before the first job is added, so no outcome can pass unseen
    await events.waitUntilReady();
    await queue.waitUntilReady();
    if (jobs.length === 0) return [];
    await queue.addBulk(
      jobs.map((j) => ({ name: 'backtest', data: j, opts: { jobId: sweepJobId(sweepId, j.index), attempts: 1, removeOnComplete: false, removeOnFail: false } })),
    );
    if ((await queue.getWorkersCount()) === 0) {
      opts.onNotice?.(`no worker is connected to queue ${name} at ${redactedUrl(opts.redis)} yet; start \`rexbot worker --redis ${redactedUrl(opts.redis)}${name === DEFAULT_QUEUE_NAME ? '' : ` --queue ${name}`}\` where the data is reachable`);
    }
    // The event stream is the fast path; reading the jobs themselves now and then makes the result independent of it
    // (a connection that dropped and resumed, a stream trimmed under load).
    let polling = false;
    poll = setInterval(() => {
      if (polling) return;
      polling = true;
      void (async () => {
        for (const [id, job] of byId) {
          if (results.has(job.index)) continue;
          const j = await Job.fromId(queue, id);
          if (!j) record(id, (sj) => ({ result: { index: sj.index, params: sj.params, ok: false, error: `job ${id} disappeared from the queue (Redis restarted without persistence, or the job was removed)` }, worker: undefined }));
          else if (j.finishedOn && j.failedReason) record(id, (sj) => ({ result: { index: sj.index, params: sj.params, ok: false, error: j.failedReason }, worker: undefined }));
          else if (j.finishedOn) record(id, (sj) => unwrap(sj, j.returnvalue));
        }
      })()
        .catch((e: unknown) => notice(`reading the queue: ${e instanceof Error ? e.message : String(e)}; retrying`))
        .finally(() => {
          polling = false;
        });
    }, opts.pollMs ?? 2000);
    await allDone;
    return jobs.map((j) => results.get(j.index)!);
  } finally {
    if (poll) clearInterval(poll);
    if (abortListener) opts.signal?.removeEventListener('abort', abortListener);
    // a job a worker holds cannot be removed (it is locked); it ends as a completed job of no one's
    for (const id of byId.keys()) await queue.remove(id).catch(() => undefined);
    await events.close();
    await queue.close();
  }
}
