/**
 * How a `rexbot` command's process ends once the command is done. A command resolves with its exit code when its
 * work is finished (report written, bot stopped and journal closed, worker's jobs finished); the process then ends
 * by itself as soon as Node's event loop has nothing left to do. A strategy plugin that started a wall-clock
 * `setInterval` of its own (instead of `ctx.every`, `ctx.clock` or `ctx.scheduler`, which end with the run), or
 * opened a socket and never closed it, leaves the loop something to do forever: the command had finished, and
 * the process hung until it was killed.
 *
 * So a finished command is given {@link LINGER_GRACE_MS} to end by itself (nothing is cut short: the wait costs a
 * well-behaved command nothing, its process ends as soon as the loop empties). Past it, while a file or stream
 * write is still in flight (a log line, a report, stdout into a pipe) the wait goes on; then what still holds the
 * process open is said on stderr and the process exits with the command's code. The check is one look at
 * `process.getActiveResourcesInfo()` at that moment: nothing is watched while the command runs (a backtest or a
 * live bot pays nothing for it). It cannot tell whose timer it sees; `rexbot validate`, which watches timers in
 * its rehearsal (runtime/real-timer-watch.ts), names the strategy, and the warning says so.
 */
import { logsWritten } from '../telemetry/log-writes.js';

/** How long a finished command's process may take to end by itself before it is ended (ms). */
export const LINGER_GRACE_MS = 1000;

/** How often to look again while a write is in flight (ms). */
const WRITE_POLL_MS = 50;

/** Requests of a write (or other one-shot file operation) still in progress: waited for, never cut short. */
const IN_FLIGHT = new Set(['FSReqCallback', 'FSReqPromise', 'FileHandleCloseReq', 'WriteWrap', 'ShutdownWrap']);

/** The process's own: its terminal or pipes (stdio), closing handles, signal listeners. Not what holds it open. */
const OWN = new Set(['TTYWrap', 'PipeWrap', 'CloseReq', 'SignalWrap']);

/** What a resource type is, in the warning. */
const WORDS: Record<string, [one: string, many: string]> = {
  Timeout: ['timer (a setInterval or setTimeout never cleared)', 'timers (setInterval or setTimeout never cleared)'],
  Immediate: ['setImmediate', 'setImmediates'],
  TCPSocketWrap: ['network connection', 'network connections'],
  TCPServerWrap: ['listening server', 'listening servers'],
  UDPWrap: ['UDP socket', 'UDP sockets'],
  ProcessWrap: ['child process', 'child processes'],
  FSEventWrap: ['file watcher', 'file watchers'],
  StatWatcher: ['file watcher', 'file watchers'],
  MessagePort: ['message port', 'message ports'],
};

let pluginConfig: string | undefined;

/**
 * Say that this process runs the strategy plugins of `configFile`, so that the warning of {@link exitWhenDone}
 * can say where a timer left behind most likely comes from and how to find out which strategy started it.
 *
 * @example
 * notePluginsOf('config/paper.yaml');
 */
export function notePluginsOf(configFile: string): void {
  pluginConfig = configFile;
}

/**
 * `types` (as `process.getActiveResourcesInfo()` gives them) as the warning says them: `1 timer (...)`, `2 network
 * connections`; the process's own (stdio, signal listeners) and unknown types left out, undefined when nothing is left.
 *
 * @example
 * holdersText(['PipeWrap', 'Timeout', 'Timeout']); // '2 timers (setInterval or setTimeout never cleared)'
 */
export function holdersText(types: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const t of types) if (!OWN.has(t) && !IN_FLIGHT.has(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
  if (counts.size === 0) return undefined;
  return [...counts].map(([t, n]) => `${n} ${WORDS[t]?.[n === 1 ? 0 : 1] ?? t}`).join(', ');
}

/** The warning for a process still held open `LINGER_GRACE_MS` after `command` finished with `code`. */
function lingerWarning(command: string, code: number, types: readonly string[]): string {
  const held = holdersText(types) ?? 'a handle it cannot name';
  const source =
    pluginConfig === undefined
      ? ''
      : `. Most likely a strategy plugin of ${pluginConfig} started it: a strategy times itself with ctx.every, ctx.clock or ctx.scheduler, ` +
        `which stop with the run, not with the global setInterval/setTimeout; rexbot validate ${pluginConfig} names a strategy that starts wall-clock timers`;
  return `rexbot ${command}: warning: finished, but ${LINGER_GRACE_MS / 1000} s later the process was still held open by ${held}; exiting with code ${code} anyway${source}\n`;
}

/** Resolves once what was written to `stream` so far has been handed to the system. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || stream.writableEnded) return Promise.resolve();
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/**
 * End the process of `rexbot <command>`, which finished with `code`: by itself as soon as nothing is left to do, or
 * {@link LINGER_GRACE_MS} later, once no write is in flight, with a warning naming what still held it open. A
 * signal in the meantime ends it at once with `code` (the command is done: its own signal handlers, for a run in
 * progress, no longer apply).
 *
 * @example
 * // bin.mjs
 * exitWhenDone(argv[0], await main(argv));
 */
export function exitWhenDone(command: string | undefined, code: number): void {
  process.exitCode = code;
  // pino's lines to stdout too: its destination writes behind process.stdout's back (log-writes.ts).
  const end = () => void Promise.all([flushed(process.stdout), flushed(process.stderr), logsWritten()]).then(() => process.exit(code));
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.removeAllListeners(sig);
    process.once(sig, end);
  }
  const look = () => {
    const alive = process.getActiveResourcesInfo();
    // Unref'd, as the first one is: a process whose loop empties meanwhile still ends by itself.
    if (alive.some((t) => IN_FLIGHT.has(t))) return void setTimeout(look, WRITE_POLL_MS).unref();
    process.stderr.write(lingerWarning(command ?? 'command', code, alive));
    end();
  };
  setTimeout(look, LINGER_GRACE_MS).unref();
}
