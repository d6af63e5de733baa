/**
 * `rexbot worker`: take backtest sweep jobs from a Redis (BullMQ) queue and run them, for sweeps started with
 * `rexbot backtest … --sweep … --queue redis://…` on any machine. Runs until SIGINT/SIGTERM, then finishes the
 * jobs in hand and exits 0.
 *
 * ```
 * rexbot worker --redis redis://HOST:PORT [--concurrency N] [--queue NAME] [--prefix P] [--lock-ms N] [--stalled-ms N]
 *              [--map FROM=TO ...] [--root DIR ...] [--job-timeout S]
 * ```
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Command } from './main.js';
import { parsePathMapping, type PathMapping } from '../../backtest/sweep/path-map.js';

const USAGE = `usage: rexbot worker --redis redis://HOST:PORT [--concurrency N] [--queue NAME] [--prefix P]
                     [--lock-ms N] [--stalled-ms N] [--map FROM=TO ...] [--root DIR ...] [--job-timeout S]

Takes backtest sweep jobs (rexbot backtest config.yaml --sweep ... --queue redis://...) from the queue and runs
them on worker threads, writing each report where the job says (the coordinator's --out). Each job names its
config and output folder by absolute path: this machine must see them at the same paths (a shared filesystem,
or the same checkout and data at the same place, with --out on a shared mount), or --map says where it sees
them instead (data the config names relative to itself follows it; an absolute path written in the config or
a --sweep value is used as written). Anyone who can write the queue names those paths: a job whose config, output folder or any file
its config names (data, latency files, strategy plugins by path) lies outside this worker's folders (--root;
after '..' and symbolic links) fails, saying which, and nothing of it is read or run. Stop with Ctrl-C: jobs in
hand finish first; a worker killed outright has its jobs run again by another worker.

  --redis URL        the queue's Redis (redis://[user:password@]host:port[/db], rediss:// for TLS)
  --concurrency N    jobs at once, one worker thread each (default 1)
  --queue NAME       queue name (default rexbot-sweep); the coordinator's --queue-name
  --prefix P         Redis key prefix (default bull); the coordinator's --queue-prefix
  --lock-ms N        a job's lock lifetime; a dead worker's job is taken again after it (default 30000)
  --stalled-ms N     how often to look for jobs of dead workers (default 30000)
  --map FROM=TO      the coordinator's path FROM is TO here (repeatable; first match wins), e.g.
                     --map /home/ann/rexbot=/srv/rexbot --map /mnt/share=/Volumes/share
  --root DIR         a folder jobs may read (config, data, plugins) and write (reports) in; repeatable.
                     Default: the --map targets, or without --map the working directory
  --job-timeout S    seconds a job may run; past it its worker thread is terminated, the job fails and the
                     worker takes the next (default 3600; 0 for no limit)
  --handler FILE     job handler module (default: the real backtest); for tests and benches
  --help             this text`;

/** The parsed command line. */
export interface WorkerArgs {
  redis: string;
  concurrency: number;
  queue: string | undefined;
  prefix: string | undefined;
  lockMs: number | undefined;
  stalledMs: number | undefined;
  handler: string | undefined;
  maps: PathMapping[];
  /** `--root` folders as given (none: the default). */
  roots: string[];
  /** `--job-timeout` in ms (0: none; undefined: the worker's default). */
  jobTimeoutMs: number | undefined;
}

function whole(name: string, v: string | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number ≥ ${min}, got ${v}`);
  return n;
}

/** The longest timer Node keeps (ms, ~24.8 days): a longer one would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

function seconds(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number of seconds ≥ 0 (0 for no limit), got ${v}`);
  if (n * 1000 > MAX_TIMER_MS) throw new Error(`--${name} ${v}: at most ${Math.floor(MAX_TIMER_MS / 1000)} s (24 days); 0 for no limit`);
  return Math.round(n * 1000);
}

/** Parse `args`; throws an Error whose message is fit to show the user. */
export function parseWorkerArgs(args: string[]): WorkerArgs {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      redis: { type: 'string' },
      concurrency: { type: 'string' },
      queue: { type: 'string' },
      prefix: { type: 'string' },
      'lock-ms': { type: 'string' },
      'stalled-ms': { type: 'string' },
      handler: { type: 'string' },
      map: { type: 'string', multiple: true },
      root: { type: 'string', multiple: true },
      'job-timeout': { type: 'string' },
    },
  });
  if (positionals.length > 0) throw new Error(`unexpected argument ${positionals[0]}`);
  if (values.redis === undefined) throw new Error('give the queue\'s Redis, e.g. --redis redis://127.0.0.1:6379');
  if (values.queue !== undefined && (values.queue === '' || values.queue.includes(':'))) throw new Error(`--queue ${values.queue}: a queue name is non-empty and has no ':'`);
  return {
    redis: values.redis,
    concurrency: whole('concurrency', values.concurrency, 1) ?? 1,
    queue: values.queue,
    prefix: values.prefix,
    lockMs: whole('lock-ms', values['lock-ms'], 100),
    stalledMs: whole('stalled-ms', values['stalled-ms'], 100),
    handler: values.handler,
    maps: (values.map ?? []).map(parsePathMapping),
    roots: values.root ?? [],
    jobTimeoutMs: seconds('job-timeout', values['job-timeout']),
  };
}

/** The `worker` sub-command. */
export const workerCommand: Command = {
  usage: USAGE,
  async run(args) {
    let a: WorkerArgs;
    const { redisOptions, assertRedisReachable, redactedUrl, DEFAULT_QUEUE_NAME } = await import('../../backtest/sweep/queue-connection.js');
    const { resolveRoots } = await import('../../backtest/sweep/allowed-roots.js');
    let roots: string[] | undefined;
    try {
      a = parseWorkerArgs(args);
      redisOptions(a.redis);
      if (a.roots.length > 0) roots = await resolveRoots(a.roots, { mustExist: true, flag: '--root' });
    } catch (e) {
      process.stderr.write(`rexbot worker: ${(e as Error).message}\n${USAGE}\n`);
      return 2;
    }
    try {
      await assertRedisReachable(a.redis);
    } catch (e) {
      process.stderr.write(`rexbot worker: ${(e as Error).message}\n`);
      return 1;
    }
    const { startSweepWorker, DEFAULT_JOB_TIMEOUT_MS } = await import('../../backtest/sweep/queue-worker.js');
    const { leftTimersText } = await import('../../backtest/sweep/job-timers.js');
    const log = (line: string) => process.stderr.write(`rexbot worker ${worker.id}: ${line}\n`);
    const worker = startSweepWorker({
      redis: a.redis,
      name: a.queue,
      prefix: a.prefix,
      concurrency: a.concurrency,
      lockDurationMs: a.lockMs,
      stalledIntervalMs: a.stalledMs,
      pathMap: a.maps,
      roots,
      jobTimeoutMs: a.jobTimeoutMs,
      handler: a.handler === undefined ? undefined : pathToFileURL(resolve(a.handler)),
      onEvent: (e) => {
        if (e.kind === 'start') log(`job ${e.jobId} started ${JSON.stringify(e.params)}`);
        else if (e.kind === 'done') {
          log(`job ${e.jobId} ${e.result.ok ? `done, net PnL ${e.result.metrics.netPnl}` : `failed: ${e.result.error}`}`);
          if (e.result.leftTimers) log(`job ${e.jobId} warning: ${leftTimersText(e.result.leftTimers)}`);
        }
        else log(`error: ${e.message}`);
      },
    });
    const { roots: folders } = await worker.ready();
    const limit = a.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
    // one line: what the worker takes and what it allows, read together
    log(
      `ready on queue ${a.queue ?? DEFAULT_QUEUE_NAME} at ${redactedUrl(a.redis)}, ${a.concurrency} job${a.concurrency === 1 ? '' : 's'} at once; ` +
        `jobs may use files under ${folders.join(', ')} (--root); ${limit > 0 ? `a job is stopped after ${limit / 1000} s` : 'no job time limit'} (--job-timeout)`,
    );
    await new Promise<void>((done) => {
      const stop = (signal: string) => {
        log(`${signal}: finishing the jobs in hand`);
        done();
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
    await worker.close();
    log('stopped');
    return 0;
  },
};
