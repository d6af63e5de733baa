/**
 * A queued job's files checked where they are opened, not only before. The worker checks every path a job names
 * against its folders (allowed-roots.ts, config-files.ts) before using it, but a symbolic link inside a root can be
 * swapped between that check and the open: the file opened is then one outside. So each open of a job's file
 * (config, data, latency and recorded-market files, the report written) is followed by a check of what was opened:
 * the descriptor's file must be the file at the path's real path (same device and inode), and that real path must
 * lie in the roots. Whatever the path pointed to at the moment of the open, the file read or written through the
 * descriptor is one inside (fstat and realpath, rather than /proc/self/fd, so it holds on every platform).
 *
 * Not covered: strategy plugins, which `import()` loads by path (no descriptor to check; and whoever can swap a
 * link inside a root can as well put a plugin there), and the making of the output folder (mkdir by path: a folder
 * swapped just before could have empty folders made outside, but no file is written there).
 *
 * The roots reach the opens through an async context ({@link confineFiles}): the readers, the latency and
 * recorded-market loaders and the report writer are shared with local runs, which have no roots, and a parameter
 * threaded through every reader would be easy to forget in the next one. Outside that context nothing is checked
 * and nothing behaves differently.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { insideRoots, JobPathError } from './allowed-roots.js';

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
 * The text of a job's file (config, latency or recorded-market file). Inside {@link confineFiles} it is opened without
 * blocking (a FIFO swapped in would otherwise hold the thread), refused unless a regular file inside the roots, and
 * read through that descriptor; outside, it is read as readFileSync reads it.
 */
export function readJobFile(path: string): string {
  if (!filesConfined()) return readFileSync(path, 'utf8');
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    assertOpenedInside(fd, path);
    const st = fstatSync(fd);
    if (!st.isFile()) throw new JobPathError(`${path} is ${st.isDirectory() ? 'a directory' : st.isFIFO() ? 'a FIFO (named pipe)' : 'a device or socket'}, not a file`);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
