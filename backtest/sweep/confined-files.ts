/**
 * A queued job's files checked where they are opened, not only before. The worker checks every path a job names
 * against its folders (allowed-roots.ts, config-files.ts) before using it, but a symbolic link inside a root can be
 * swapped between that check and the open: the file opened is then one outside. So each open of a job's file
 * (config, data, latency and recorded-market files, the report written) is followed by a check of what was opened:
 * the descriptor's file must be the file at the path's real path (same device and inode), and that real path must
 * lie in the roots. Whatever the path pointed to at the moment of the open, the file read or written through the
 * descriptor is one inside (fstat and realpath, rather than /proc/self/fd, so it holds on every platform).
 *
 * The output folder is made one folder at a time, each checked as soon as it is made ({@link makeJobFolder}).
 *
 * Not covered: strategy plugins, which `import()` loads by path (no descriptor to check; and whoever can swap a
 * link inside a root can as well put a plugin there).
 *
 * The roots reach the opens through an async context ({@link confineFiles}): the readers, the latency and
 * recorded-market loaders and the report writer are shared with local runs, which have no roots, and a parameter
 * threaded through every reader would be easy to forget in the next one. Outside that context nothing is checked
 * and nothing behaves differently.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { lstat, mkdir, realpath, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { insideRoots, JobPathError } from './allowed-roots.js';
import { notAFile } from '../../src/core/file-kind.js';

const confinement = new AsyncLocalStorage<readonly string[]>();

/**
 * Run `fn` with every job file it opens checked against `roots` (real paths, from resolveRoots).
 *
 * @example
 * await confineFiles(['/srv/rexbot'], () => runBacktest({ configPath, allowedRoots: ['/srv/rexbot'] }));
 */
export function confineFiles<T>(roots: readonly string[], fn: () => Promise<T>): Promise<T> {
  return confinement.run(roots, fn);
}

/** True inside {@link confineFiles}. */
export function filesConfined(): boolean {
  return confinement.getStore() !== undefined;
}

/**
 * Inside {@link confineFiles}: throws {@link JobPathError} unless the file open as `fd` (opened from `path`) is the
 * one at `path`'s real path and that lies in the roots. Outside: does nothing.
 */
export function assertOpenedInside(fd: number, path: string): void {
  const roots = confinement.getStore();
  if (roots === undefined) return;
  let real: string;
  let same = false;
  try {
    real = realpathSync(path);
    const opened = fstatSync(fd);
    const there = statSync(real);
    same = opened.dev === there.dev && opened.ino === there.ino;
  } catch {
    // gone (or a link to nothing) since it was opened: swapped under us
    real = path;
  }
  if (!same) throw new JobPathError(`${path} changed while it was opened (a symbolic link replaced?); refused`);
  if (!insideRoots(real, roots)) {
    throw new JobPathError(`${path} (really ${real}) is outside the folders this worker may use (${roots.join(', ')}); it changed after it was checked`);
  }
}

/**
 * The text of a job's file (config, latency or recorded-market file), opened without blocking (a FIFO would otherwise
 * hold the thread for good: `rexbot backtest` on a FIFO config hung) and refused unless a regular file of at most
 * `maxBytes`, read through that descriptor. Inside {@link confineFiles} the file must also be inside the roots, and
 * what is refused is a {@link JobPathError}; outside, an Error naming the path.
 */
export function readJobFile(path: string, maxBytes = Infinity): string {
  const confined = filesConfined();
  const refuse = (why: string) => (confined ? new JobPathError(`${path} ${why}`) : new Error(`${path}: ${why}`));
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    if (confined) assertOpenedInside(fd, path);
    const st = fstatSync(fd);
    if (!st.isFile()) throw refuse(`is ${notAFile(st)}, not a file`);
    if (st.size > maxBytes) throw refuse(`is ${st.size} bytes, more than ${maxBytes} (is it the right file?)`);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * {@link readJobFile} for a file a config names (a latency or recorded-markets file): an error outside
 * {@link confineFiles} starts with `field`, the config field that named the file, then the file (a
 * {@link JobPathError} is passed on as it is).
 *
 * @example
 * readConfiguredJobFile('/data/lat.txt', 'venue.latency.orderEntry.path', MAX_LATENCY_FILE_BYTES)
 * // Error: venue.latency.orderEntry.path: /data/lat.txt: is a FIFO (named pipe), not a file
 */
export function readConfiguredJobFile(path: string, field: string, maxBytes: number): string {
  try {
    return readJobFile(path, maxBytes);
  } catch (err) {
    if (err instanceof JobPathError) throw err;
    // readJobFile's own refusals start with the path; a file-system error names it only at its end (open '<path>').
    const message = (err as Error).message;
    throw new Error(`${field}: ${message.startsWith(`${path}: `) ? '' : `${path}: `}${message}`, { cause: err });
  }
}

/**
 * Make the folder `dir` and its missing parents, as `mkdir -p` does. Inside {@link confineFiles} the missing ones
 * are made one at a time, each under the real path of the one above it, and checked as soon as it is made: its
 * real path must be a folder in the roots (or on the way to a root not made yet: a `--map` share), else it is
 * removed again (just made, so empty) and a {@link JobPathError} says where it went. A symbolic link swapped in a
 * root while the job ran (the report is written long after the worker checked the job) thus leaves no folder
 * outside, and the job fails.
 *
 * Still open, for want of a mkdirat in node: a link swapped out and back again between one mkdir and its check,
 * microseconds apart, leaves that one empty folder outside (the job still fails: the check finds nothing there).
 * No file can follow it: each is checked where it is opened.
 *
 * @example
 * await makeJobFolder('/srv/rexbot/out/run-3'); // inside confineFiles(['/srv/rexbot'], ...)
 */
export async function makeJobFolder(dir: string): Promise<void> {
  const roots = confinement.getStore();
  if (roots === undefined) {
    await mkdir(dir, { recursive: true });
    return;
  }
  // The nearest part of the path there is (a link to nothing counts, and is refused), and the names below it.
  const missing: string[] = [];
  let existing = resolve(dir);
  while (!(await lstat(existing).then(() => true, () => false))) {
    const up = dirname(existing);
    if (up === existing) break;
    missing.unshift(basename(existing));
    existing = up;
  }
  let real = await checkedFolder(existing, roots, false);
  for (let i = 0; i < missing.length; i++) {
    const next = join(real, missing[i]!);
    // Never made where the worker's check would not have let it be (a job checked before never gets here).
    if (!allowedFolder(next, roots)) throw outside(join(existing, ...missing.slice(0, i + 1)), next, roots);
    let made = true;
    try {
      await mkdir(next);
    } catch (e) {
      // made meanwhile by someone else: checked all the same
      if ((e as { code?: string }).code !== 'EEXIST') throw e;
      made = false;
    }
    real = await checkedFolder(next, roots, made);
  }
}

/** True when `real` (a real path) is in `roots` or on the way to one (a root not made yet lies under it). */
function allowedFolder(real: string, roots: readonly string[]): boolean {
  return insideRoots(real, roots) || roots.some((r) => insideRoots(r, [real]));
}

function outside(path: string, real: string, roots: readonly string[]): JobPathError {
  return new JobPathError(`${real === path ? path : `${path} (really ${real})`} is outside the folders this worker may use (${roots.join(', ')}); it changed after it was checked`);
}

/** `path`'s real path when that is a folder {@link allowedFolder} allows; else removes `path` if `made` (by the caller, just now) and throws. */
async function checkedFolder(path: string, roots: readonly string[], made: boolean): Promise<string> {
  const real = await realpath(path).catch(() => undefined);
  if (real !== undefined && allowedFolder(real, roots)) {
    if ((await stat(real)).isDirectory()) return real;
    throw new JobPathError(`${path} is not a folder`);
  }
  if (made && real !== undefined) await rmdir(real).catch(() => undefined);
  if (real === undefined) throw new JobPathError(`${path} changed while the output folder was made (a symbolic link replaced?); refused`);
  throw outside(path, real, roots);
}
