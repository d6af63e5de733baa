/**
 * The log lines still being written when a `rexbot` process ends. pino's default destination (JSON to stdout) is
 * an asynchronous sonic-boom on fd 1: it writes behind the loggers' backs, and when stdout is a pipe read slowly
 * (`rexbot run … | (sleep 3; cat)`) a write meets a full pipe, and sonic-boom retries it on a plain timer. Ending
 * the process then (exit-when-done.ts, after a plugin left a timer running) lost the chunk being retried: pino's
 * exit flush writes what is queued behind it, never that chunk, so up to 16 KB of lines vanished from the middle
 * of the log. {@link logsWritten} lets a process that is about to end wait for those writes, as it waits for its
 * stdout and stderr.
 *
 * Registering costs one weak reference per logger created; nothing is watched while the process runs.
 */

/** What is read of a sonic-boom: whether a write is in progress (or waiting to be retried), and its events. */
interface AsyncDestination {
  /** sonic-boom's own flag: set from a write's start to its last byte, retries included. */
  readonly _writing?: boolean;
  readonly destroyed?: boolean;
  once(event: 'drain' | 'error' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'error' | 'close', listener: () => void): unknown;
}

const destinations = new Set<WeakRef<AsyncDestination>>();

/**
 * Remember `stream` (a logger's asynchronous destination) so that {@link logsWritten} waits for its writes.
 *
 * @example
 * noteAsyncDestination(logger[pino.symbols.streamSym]);
 */
export function noteAsyncDestination(stream: object): void {
  const s = stream as Partial<AsyncDestination>;
  if (typeof s.once === 'function' && typeof s.off === 'function' && '_writing' in s) destinations.add(new WeakRef(s as AsyncDestination));
}

/** Resolves once `stream` has no write in progress: drained, failed (EPIPE: nobody reads) or closed. */
async function idle(stream: AsyncDestination): Promise<void> {
  while (stream._writing === true && stream.destroyed !== true) {
    await new Promise<void>((resolve) => {
      const done = () => {
        stream.off('drain', done);
        stream.off('error', done);
        stream.off('close', done);
        resolve();
      };
      stream.once('drain', done);
      stream.once('error', done);
      stream.once('close', done);
    });
  }
}

/**
 * Resolves once every log line written so far through a logger's asynchronous destination has been handed to the
 * system: waited for, never cut short (a pipe nobody reads keeps it waiting, as it keeps stdout's writes).
 *
 * @example
 * await logsWritten();
 * process.exit(code);
 */
export async function logsWritten(): Promise<void> {
  const live: AsyncDestination[] = [];
  for (const ref of destinations) {
    const s = ref.deref();
    if (s === undefined) destinations.delete(ref);
    else live.push(s);
  }
  await Promise.all(live.map(idle));
}
