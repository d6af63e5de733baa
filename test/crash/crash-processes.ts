/**
 * Child processes of the crash-safety test: `rexbot sim` (read its one-line JSON ready line) and `rexbot run`
 * (its pino JSON log lines, waited on and hooked synchronously so a SIGKILL can land right after a given line).
 * Every child is remembered until it exits, so the test can kill what is left even when it fails half-way.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { repoPath } from '../helpers/shared.js';

/** One parsed pino line (plus the raw text when it was not JSON). */
export interface LogLine {
  msg?: string;
  level?: number;
  [field: string]: unknown;
}

const live = new Set<ChildProcess>();

/** SIGKILL every child still running (afterAll). */
export async function killAllChildren(): Promise<void> {
  await Promise.all(
    [...live].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
  live.clear();
}

function track(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
}

/** The ready line of `rexbot sim`. */
export interface SimReady {
  rest: string;
  hub: string;
  control: string;
  controlToken: string;
  demo: { accountId: string; apiKey: string };
}

/** A running `rexbot sim --config <file> --port 0`. */
export interface SimProcess {
  readonly ready: SimReady;
  readonly pid: number;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
}

/** Start the simulator as its own process with the demo key from the environment; resolves on its ready line. */
export async function startSimProcess(configFile: string, credentials: { apiKey: string; apiSecret: string }): Promise<SimProcess> {
  const child = spawn(process.execPath, [repoPath('src/cli/bin.mjs'), 'sim', '--config', configFile, '--port', '0'], {
    cwd: repoPath(),
    env: { ...process.env, REXBOT_SIM_API_KEY: credentials.apiKey, REXBOT_SIM_API_SECRET: credentials.apiSecret },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`rexbot sim exited ${code} before its ready line: ${stderr}`)));
  });
  return {
    ready: JSON.parse(first) as SimReady,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

/** A running `rexbot run <config>`. */
export interface BotProcess {
  readonly pid: number;
  /** Every log line so far, parsed. */
  readonly lines: readonly LogLine[];
  /** Resolves with the first line (past or future) `match` accepts; rejects if the bot exits first or in `timeoutMs`. */
  waitForLine(match: (l: LogLine) => boolean, what: string, timeoutMs?: number): Promise<LogLine>;
  /** Run `fn` synchronously on the first future line `match` accepts (a kill lands before the next line is read). */
  onLine(match: (l: LogLine) => boolean, fn: (l: LogLine) => void): void;
  /** Send a signal. */
  kill(signal: NodeJS.Signals): void;
  /** Resolves when the process has exited: its exit code or the signal that ended it. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last lines of its output, for failure messages. */
  tail(n?: number): string;
}

/** Start the bot as its own process (`node src/cli/bin.mjs run <configFile>`) with `env` added to ours. */
export function startBotProcess(configFile: string, env: NodeJS.ProcessEnv): BotProcess {
  const child = spawn(process.execPath, [repoPath('src/cli/bin.mjs'), 'run', configFile], {
    cwd: repoPath(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const hooks: { match: (l: LogLine) => boolean; fn: (l: LogLine) => void }[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const onText = (text: string) => {
    raw.push(text);
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      line = { msg: text };
    }
    lines.push(line);
    for (const h of [...hooks]) {
      if (!h.match(line)) continue;
      hooks.splice(hooks.indexOf(h), 1);
      h.fn(line);
    }
  };
  createInterface({ input: child.stdout! }).on('line', onText);
  createInterface({ input: child.stderr! }).on('line', onText);
  const tail = (n = 40) => raw.slice(-n).map((l) => l.slice(0, 600)).join('\n');
  return {
    pid: child.pid!,
    lines,
    exited,
    tail,
    onLine(match, fn) {
      hooks.push({ match, fn });
    },
    waitForLine(match, what, timeoutMs = 60_000) {
      const seen = lines.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise<LogLine>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${what} from the bot in ${timeoutMs} ms; last lines:\n${tail()}`)), timeoutMs);
        hooks.push({
          match,
          fn: (l) => {
            clearTimeout(timer);
            resolve(l);
          },
        });
        void exited.then(({ code, signal }) => {
          clearTimeout(timer);
          reject(new Error(`bot exited (code ${code}, signal ${signal}) while waiting for ${what}; last lines:\n${tail()}`));
        });
      });
    },
    kill(signal) {
      child.kill(signal);
    },
  };
}
