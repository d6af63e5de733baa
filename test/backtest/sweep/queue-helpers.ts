/**
 * Real `rexbot worker` processes for the distributed-sweep tests and bench: started on a queue of their own,
 * ready once they say so, stopped (or SIGKILLed) by pid.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { repoPath } from '../../helpers/shared.js';

/** A running `rexbot worker`. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Everything it wrote to stderr so far. */
  log(): string;
  /** Resolves with its exit code or signal once it has exited. */
  exited: Promise<number | NodeJS.Signals>;
  kill(signal: NodeJS.Signals): Promise<number | NodeJS.Signals>;
}

/** Start `rexbot worker` with `args` (after `--redis …`); resolves once it is taking jobs. */
export async function startWorker(redis: string, args: string[], env: Record<string, string> = {}): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [repoPath('src/cli/bin.mjs'), 'worker', '--redis', redis, ...args], {
    cwd: repoPath(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | NodeJS.Signals>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code ?? 0)));
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (b: Buffer) => {
      stderr += b.toString();
      if (stderr.includes(': ready on queue ')) resolve();
    });
    void exited.then((c) => reject(new Error(`rexbot worker exited (${c}) before it was ready:\n${stderr}`)));
  });
  return {
    child,
    pid: child.pid!,
    log: () => stderr,
    exited,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * The Redis for the distributed-sweep tests: the machine's (`REDIS_URL`, default 127.0.0.1:6379) when it answers,
 * else a throwaway `redis-server` of the tests' own when the binary is installed (a fresh CI machine has the
 * package but no running server), else none. `stop` kills only a throwaway one.
 */
export async function sweepTestRedis(): Promise<{ url: string | undefined; why: string; stop: () => Promise<void> }> {
  const { REDIS_URL, redisReachable, redisServerInstalled, skipReason, startThrowawayRedis } = await import('../../helpers/redis.js');
  if (await redisReachable()) return { url: REDIS_URL, why: '', stop: async () => undefined };
  if (redisServerInstalled()) {
    const r = await startThrowawayRedis();
    return { url: r.url, why: '', stop: () => r.kill() };
  }
  return { url: undefined, why: `${skipReason()}; nor is redis-server installed to start one`, stop: async () => undefined };
}
