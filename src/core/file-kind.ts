/**
 * What a path that is not a regular file is, in words for an error: every reader that refuses a FIFO (which would
 * hold it for good), a directory or a device says it the same way.
 */
import type { Stats } from 'node:fs';

/**
 * `'a directory'`, `'a FIFO (named pipe)'` or `'a device or socket'` for what `st` describes; undefined for a regular
 * file.
 *
 * @example
 * `${path}: is ${notAFile(fstatSync(fd))}, not a file` // '/tmp/p: is a FIFO (named pipe), not a file'
 */
export function notAFile(st: Pick<Stats, 'isFile' | 'isDirectory' | 'isFIFO'>): string | undefined {
  if (st.isFile()) return undefined;
  return st.isDirectory() ? 'a directory' : st.isFIFO() ? 'a FIFO (named pipe)' : 'a device or socket';
}
