/**
 * The stack of a call, as `rexbot validate`'s rehearsal watches read it to tell whose code made a call: rexbot's
 * own (this package's `src/` and `backtest/`), a library's (`node_modules`, and Node's own `node:` modules), or
 * anyone else's — a strategy plugin and the files it imports (real-timer-watch.ts, clock-read-watch.ts).
 */
import { fileURLToPath } from 'node:url';

/** One frame of a stack: its file and position. */
export interface Frame {
  /** An absolute path, or a `node:` module name for Node's own code. */
  file: string;
  /** `file:line:col`, e.g. `/home/ann/bot/mine.ts:12:5`. */
  at: string;
}

/** This package's own code: its calls are rexbot's, never a strategy's. Plugins (even `strategies/`) are not in it. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OWN = [`${PACKAGE_ROOT}src/`, `${PACKAGE_ROOT}backtest/`];

// A stack frame's file position: `(file:///x/mine.ts:6:81)`, `at /x/mine.ts:6:81`, `(node:internal/timers:581:17)`.
const FRAME = /\(?((?:file:\/\/)?\/[^\s():]+|[A-Za-z]:\\[^\s():]+|node:[^\s():]+):(\d+):(\d+)\)?$/;

/** This file: its frames are never the caller's. */
const SELF = fileURLToPath(import.meta.url);

/**
 * The frames of the current stack, innermost first, without those of the files in `skip` (a watch's own wrappers)
 * and this one. Deep enough (100 frames) to reach a plugin's frame under RxJS operator chains.
 *
 * @example
 * const [caller] = callerFrames(new Set([fileURLToPath(import.meta.url)]));
 * caller?.at; // '/home/ann/bot/mine.ts:12:5' when the plugin called the watched function there
 */
export function callerFrames(skip: ReadonlySet<string>): Frame[] {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 100;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  const frames: Frame[] = [];
  for (const line of stack.split('\n').slice(1)) {
    const m = FRAME.exec(line.trim());
    if (!m) continue;
    const file = m[1]!.startsWith('file://') ? fileURLToPath(m[1]!) : m[1]!;
    if (file !== SELF && !skip.has(file)) frames.push({ file, at: `${file}:${m[2]}:${m[3]}` });
  }
  return frames;
}

/** True for rexbot's own files. */
export const isOwn = (file: string): boolean => OWN.some((dir) => file.startsWith(dir));

/** True for Node's own modules (`node:internal/timers`). */
export const isNodeInternal = (file: string): boolean => file.startsWith('node:');

/**
 * The package a library file belongs to (`rxjs`, `@scope/name`: the innermost `node_modules` folder's), `node`
 * for Node's own modules, undefined for any other file.
 */
export function libraryOf(file: string): string | undefined {
  if (isNodeInternal(file)) return 'node';
  const path = file.replaceAll('\\', '/');
  const i = path.lastIndexOf('/node_modules/');
  if (i < 0) return undefined;
  const [first, second] = path.slice(i + '/node_modules/'.length).split('/');
  return first?.startsWith('@') ? `${first}/${second}` : first;
}
