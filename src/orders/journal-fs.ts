/**
 * The journal's file primitives: whole writes, the audit history append, and directory fsyncs (journal.ts).
 */
import { closeSync, fstatSync, fsyncSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Write all of `buf` at the file's position (a short write is continued). */
export function writeAll(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}

/**
 * Append the file at `path` to the history file, durably (it is the only copy of what compaction drops). A copy
 * cut by a crash leaves a torn line, which is closed with a newline before the next copy: readers of the
 * history skip lines that do not parse, and may see a journal's records twice (the copy was repeated).
 */
export function appendHistory(historyPath: string, path: string): void {
  const fd = openSync(historyPath, 'a+');
  try {
    const { size } = fstatSync(fd);
    const last = Buffer.alloc(1);
    if (size > 0 && readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a) writeAll(fd, Buffer.from('\n'));
    writeAll(fd, readFileSync(path));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Make a new or renamed directory entry of `path` durable (where the platform allows). */
export function syncDirectory(path: string): void {
  // A new file's directory entry must be durable too, or the whole journal can vanish with a power loss.
  let dfd: number | undefined;
  try {
    dfd = openSync(dirname(path), 'r');
    fsyncSync(dfd);
  } catch {
    // Some platforms cannot open or fsync a directory; the file's own fsyncs still hold.
  } finally {
    if (dfd !== undefined) closeSync(dfd);
  }
}
