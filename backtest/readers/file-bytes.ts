/**
 * Opening a data file and reading its bytes, for line-source.ts: the check every reader makes first (a regular
 * file, gzip or not), the bytes of a plain file read ahead into two buffers, the inflated bytes of a gzip file
 * (a file cut off mid-stream yields everything before the cut, then zlib's error), and file-system and gzip
 * failures as file:line errors.
 */
import { constants, createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createGunzip, constants as zlib } from 'node:zlib';
import { type LineRef, ReplayFormatError } from '../../src/sim/driver/replay-error.js';
import type { ReadMeter, ReadSizes } from './line-source.js';

/**
 * True when the file starts with the gzip magic bytes (1f 8b). Every reader opens its file here first, so this is
 * also where anything but a regular file is refused, before a byte is read (a FIFO would block the reader for good).
 */
export async function isGzipFile(path: string, file = path): Promise<boolean> {
  let handle;
  try {
    // Non-blocking: opening a FIFO for reading otherwise waits for a writer, on a libuv thread nothing can free.
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    throw ioError(err, { file, line: 1 });
  }
  try {
    const kind = await handle.stat().then((s) => (s.isFile() ? undefined : s.isDirectory() ? 'a directory' : s.isFIFO() ? 'a FIFO (named pipe)' : 'a device or socket'));
    if (kind !== undefined) throw new ReplayFormatError({ file, line: 1 }, `is ${kind}, not a file`);
    const buf = Buffer.alloc(2);
    // A read that fails is named like a failed open, with the path.
    const { bytesRead } = await handle.read(buf, 0, 2, 0).catch((err: unknown) => {
      throw ioError(err, { file, line: 1 });
    });
    return bytesRead === 2 && buf[0] === 0x1f && buf[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/**
 * The bytes of a plain file in order, each chunk valid until the next one after it is asked for. Two buffers are
 * used in turn, the read of the next chunk started before the current one is handed out: the disk works while
 * the caller parses, and the caller does not wait for it.
 */
export async function* plainBytes(path: string, bytes: number, meter: ReadMeter | undefined): AsyncGenerator<Buffer, void, undefined> {
  const handle = await open(path, 'r');
  if (meter) meter.total = (await handle.stat()).size;
  const buffers = [Buffer.allocUnsafe(bytes), Buffer.allocUnsafe(bytes)];
  let which = 0;
  let position = 0;
  const read = (into: Buffer) => {
    const p = handle.read(into, 0, into.length, position);
    // The read-ahead may fail while nobody awaits it yet; it is awaited (and its error thrown) before anything else.
    p.catch(() => {});
    return p;
  };
  let next = read(buffers[0]!);
  try {
    for (;;) {
      const { bytesRead } = await next;
      if (bytesRead === 0) return;
      position += bytesRead;
      const current = buffers[which]!;
      which ^= 1;
      next = read(buffers[which]!);
      if (meter) meter.read += bytesRead;
      yield current.subarray(0, bytesRead);
    }
  } finally {
    await next.catch(() => undefined);
    await handle.close();
  }
}

/** The inflated bytes of a gzip file in order. */
export async function* gzipBytes(path: string, sizes: ReadSizes, meter: ReadMeter | undefined): AsyncGenerator<Buffer, void, undefined> {
  if (meter) meter.total = (await stat(path)).size;
  const raw = createReadStream(path, { highWaterMark: sizes.read });
  // (zlib's smallest output chunk is 64 bytes.)
  const gunzip = createGunzip({ chunkSize: Math.max(64, sizes.piece) });
  raw.on('error', (e) => gunzip.destroy(e));
  // Flushed before the end: of a file cut off mid-stream, the end's error alone lost the last output.
  raw.on('end', () => gunzip.flush(zlib.Z_SYNC_FLUSH, () => gunzip.end()));
  try {
    for await (const chunk of raw.pipe(gunzip, { end: false }) as AsyncIterable<Buffer>) {
      if (meter) meter.read = raw.bytesRead;
      yield chunk;
    }
  } finally {
    raw.destroy();
    gunzip.destroy();
  }
}

/** A file-system or gzip failure as a file:line error. */
export function ioError(err: unknown, ref: LineRef): ReplayFormatError {
  const e = err instanceof Error ? err : new Error(String(err));
  const code = (e as { code?: string }).code;
  const what =
    code === 'ENOENT' ? 'no such file'
    : code === 'EISDIR' ? 'is a directory, not a file'
    : code?.startsWith('Z_') ? `damaged gzip data: ${e.message}`
    : e.message;
  return new ReplayFormatError(ref, what, { cause: e });
}
