// The V8 settings `rexbot backtest` runs with, and the relaunch that applies them. Plain JavaScript, because
// bin.mjs decides whether to relaunch before it registers tsx (the launcher stays a small process that loads
// nothing of the framework). Types: relaunch.d.mts.
import { spawn } from 'node:child_process';

/**
 * Node flags of a backtest process. A backtest allocates fast and keeps a little of it for a while: the store's
 * last 1,000 trades per market, book levels, the latency queue. With V8's default young generation, peak RSS of the
 * same no-op run depends on when V8 happens to collect the old generation: over 1M events 147-202 MB, over 4M
 * 148-256 MB in repeated runs (c353780, quiet machine), so memory did not look flat as the data grew. With a 32 MB
 * semi-space it is steady: 181-197 MB at 1M and 182-189 MB at 4M. The price, measured alternately on the same
 * file: about 5 % more CPU for the no-op pipeline and 15 % for reading alone; the market maker is unchanged.
 * (Before this session's allocation cuts the flag also saved CPU; revisit when allocation changes again.)
 */
export const BACKTEST_NODE_FLAGS = Object.freeze(['--max-semi-space-size=32']);

/** Set in the relaunched process, so it never relaunches again. */
const RELAUNCHED = 'REXBOT_RELAUNCHED';

/**
 * The flags to relaunch `rexbot <argv>` with, or undefined to run it in this process: only `backtest` (not its
 * help, and not a `--queue` sweep, whose jobs run in `rexbot worker` processes), never twice, and never over the
 * user's own choice (a semi-space flag in the command line or NODE_OPTIONS) or a debugger (`--inspect*` would
 * attach to the launcher, not to the run).
 * @param {readonly string[]} argv the command line after `rexbot`
 * @param {readonly string[]} execArgv node's own flags of this process
 * @param {Record<string, string | undefined>} env this process's environment
 * @returns {readonly string[] | undefined}
 */
export function relaunchFlags(argv, execArgv = process.execArgv, env = process.env) {
  if (argv[0] !== 'backtest' || env[RELAUNCHED] === '1') return undefined;
  if (argv.some((a) => a === '--help' || a === '-h' || a === '--queue' || a.startsWith('--queue='))) return undefined;
  const nodeOptions = (env.NODE_OPTIONS ?? '').split(/\s+/);
  if ([...execArgv, ...nodeOptions].some((a) => /^--(max-semi-space-size|semi-space-growth-factor|inspect)/.test(a))) return undefined;
  return BACKTEST_NODE_FLAGS;
}

/** Signals the launcher passes on: the terminal's and a supervisor's ways of asking a run to stop. */
const FORWARDED = /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP']);

/**
 * Run `script argv` in a new node process with `flags` added to this process's node flags, sharing its terminal,
 * and resolve with how it ended. While it runs, SIGINT, SIGTERM and SIGHUP sent to this process are passed on to
 * it (so `kill <launcher pid>` stops the run); if this process is killed outright, the child sees its IPC channel
 * close and stops itself (`watchLauncher`).
 * @param {readonly string[]} flags
 * @param {string} script
 * @param {readonly string[]} argv
 * @returns {Promise<{ code: number | null; signal: NodeJS.Signals | null }>}
 */
export function runRelaunched(flags, script, argv) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...flags, ...process.execArgv, script, ...argv], {
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, [RELAUNCHED]: '1' },
    });
    const forward = new Map(FORWARDED.map((sig) => [sig, () => void child.kill(sig)]));
    for (const [sig, f] of forward) process.on(sig, f);
    const done = (/** @type {number | null} */ code, /** @type {NodeJS.Signals | null} */ signal) => {
      for (const [sig, f] of forward) process.off(sig, f);
      resolve({ code, signal });
    };
    child.once('error', (err) => {
      process.stderr.write(`rexbot: could not start the backtest process: ${err.message}\n`);
      done(1, null);
    });
    child.once('exit', done);
  });
}

/**
 * End this process as the relaunched one ended: by the same signal (the listeners that passed signals on are gone
 * by then, so the default action applies), or with its exit code.
 * @param {{ code: number | null; signal: NodeJS.Signals | null }} end
 */
export function endLike(end) {
  if (end.signal) process.kill(process.pid, end.signal);
  else process.exitCode = end.code ?? 1;
}

/**
 * In a relaunched process: forget the marker (so a `rexbot` this run starts decides for itself) and stop when the
 * launcher is gone. The IPC channel closes when the launcher exits for any reason, SIGKILL included; it is unref'd
 * so it never keeps this process alive by itself. Returns whether this process is a relaunched one.
 * @returns {boolean}
 */
export function watchLauncher() {
  if (process.env[RELAUNCHED] !== '1') return false;
  delete process.env[RELAUNCHED];
  if (process.channel) {
    process.channel.unref();
    process.once('disconnect', () => {
      process.stderr.write('rexbot: the launching process is gone; stopping\n');
      process.kill(process.pid, 'SIGTERM');
    });
  }
  return true;
}
