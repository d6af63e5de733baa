/**
 * The journal's file primitives: whole writes, the audit history append, and directory fsyncs (journal.ts).
 */
import { closeSync, fstatSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Write all of `buf` at the file's position (a short write is continued). */
export function writeAll(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}

/** Bytes copied per read by {@link appendHistory}. */
export const HISTORY_COPY_CHUNK_BYTES = 4 * 2 ** 20;

/**
 * Append the file at `path` to the history file, durably (it is the only copy of what compaction drops). A copy
 * cut by a crash leaves a torn line, which is closed with a newline before the next copy: readers of the
 * history skip lines that do not parse, and may see a journal's records twice (the copy was repeated).
 *
 * The journal is copied a chunk at a time through one buffer, never read whole: the journal being compacted can
 * be larger than a Buffer may be (Node reads no file past 2 GiB into one) and than the memory a bot should take.
 */
export function appendHistory(historyPath: string, path: string, chunkBytes = HISTORY_COPY_CHUNK_BYTES): void {
  const fd = openSync(historyPath, 'a+');
  try {
    const { size } = fstatSync(fd);
    const last = Buffer.alloc(1);
    if (size > 0 && readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a) writeAll(fd, Buffer.from('\n'));
    const from = openSync(path, 'r');
    try {
      const buf = Buffer.allocUnsafe(chunkBytes);
      for (;;) {
        const n = readSync(from, buf, 0, chunkBytes, null);
        if (n === 0) break;
        writeAll(fd, n === chunkBytes ? buf : buf.subarray(0, n));
      }
    } finally {
      closeSync(from);
    }
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
