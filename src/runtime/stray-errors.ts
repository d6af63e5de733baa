/**
 * Errors that escape every strategy's isolation: a promise rejected with nobody to hear it, or a throw from a
 * callback nobody called on the strategy's behalf (an `async` subscribe callback of a plugin's own, a bare
 * `setTimeout`). `rexbot run` stops the bot on one (run-command.ts); `rexbot validate`'s rehearsal collects them
 * with {@link captureStrayErrors} so the plugin that throws one fails validation instead of passing it and then
 * taking a run down.
 */
import { fileURLToPath } from 'node:url';

/** Stray errors caught while {@link captureStrayErrors} listens. */
export interface StrayErrorCapture {
  /** What was caught so far, oldest first. */
  readonly errors: readonly unknown[];
  /**
   * Give Node one turn of the event loop to report rejections still pending (it does so only once the microtasks
   * run dry, which a run on virtual time may not let happen until it ends), then stop listening.
   */
  stop(): Promise<void>;
}

/**
 * Listen for unhandled rejections and uncaught exceptions until `stop()`. While it listens they do not end the
 * process: they are collected.
 *
 * @example
 * const strays = captureStrayErrors();
 * await rehearse();
 * await strays.stop();
 * strays.errors.map(describeStrayError); // ['boom (at /home/ann/bot/mine.js:6:81)']
 */
export function captureStrayErrors(): StrayErrorCapture {
  const errors: unknown[] = [];
  const onStray = (err: unknown): void => {
    errors.push(err);
  };
  process.on('unhandledRejection', onStray);
  process.on('uncaughtException', onStray);
  return {
    errors,
    async stop() {
      await new Promise<void>((done) => setImmediate(done));
      process.off('unhandledRejection', onStray);
      process.off('uncaughtException', onStray);
    },
  };
}

// A stack frame's file position: `(file:///x/mine.js:6:81)`, `at /x/mine.ts:6:81`.
const FRAME = /\(?((?:file:\/\/)?\/[^\s():]+|[A-Za-z]:\\[^\s():]+):(\d+):(\d+)\)?/;

/**
 * The error's message and where it was thrown: the first stack frame in a file that is not a dependency's
 * (`node_modules`) or Node's own.
 *
 * @example
 * describeStrayError(new Error('boom')); // 'boom (at /home/ann/bot/mine.js:6:81)'
 */
export function describeStrayError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const stack = err instanceof Error && typeof err.stack === 'string' ? err.stack.split('\n').slice(1) : [];
  for (const line of stack) {
    const m = FRAME.exec(line);
    if (!m || m[1]!.includes('node_modules')) continue;
    const file = m[1]!.startsWith('file://') ? fileURLToPath(m[1]!) : m[1]!;
    return `${message} (at ${file}:${m[2]}:${m[3]})`;
  }
  return message;
}
