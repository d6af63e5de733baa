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
