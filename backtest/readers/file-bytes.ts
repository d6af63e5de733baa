/**
 * Opening a data file and reading its bytes, for every reader: the check made first (a regular file, gzip or not),
 * the bytes of a plain file read ahead into two buffers, the inflated bytes of a gzip file (a file cut off
 * mid-stream yields everything before the cut, then zlib's error), and file-system and gzip failures as file:line
 * errors. A file is opened once and read through that one descriptor.
 */
import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { createGunzip, constants as zlib } from 'node:zlib';
import { type LineRef, ReplayFormatError } from '../../src/sim/driver/replay-error.js';
import { assertOpenedInside } from '../sweep/confined-files.js';
import type { ReadMeter, ReadSizes } from './line-source.js';
import { notAFile } from '../../src/core/file-kind.js';

/** A data file open for reading: a regular file, gzip or not, with its size on disk. */
export interface DataFile {
  readonly handle: FileHandle;
  readonly gzip: boolean;
  readonly size: number;
}

/**
 * Open a data file: every reader opens its file here, so this is where anything but a regular file is refused,
 * before a byte is read (a FIFO would block the reader for good). The caller closes `handle`; everything read of the
 * file is read through it, so what was checked is what is read.
 */
export async function openDataFile(path: string, file = path): Promise<DataFile> {
  let handle;
  try {
    // Non-blocking: opening a FIFO for reading otherwise waits for a writer, on a libuv thread nothing can free.
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    throw ioError(err, { file, line: 1 });
  }
  try {
    // A queued job's file: what was opened must be what was checked (confined-files.ts).
    assertOpenedInside(handle.fd, path);
    const st = await handle.stat();
    const kind = notAFile(st);
    if (kind !== undefined) throw new ReplayFormatError({ file, line: 1 }, `is ${kind}, not a file`);
    const buf = Buffer.alloc(2);
    // A read that fails is named like a failed open, with the path.
    const { bytesRead } = await handle.read(buf, 0, 2, 0).catch((err: unknown) => {
      throw ioError(err, { file, line: 1 });
    });
    return { handle, gzip: bytesRead === 2 && buf[0] === 0x1f && buf[1] === 0x8b, size: st.size };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** True when the file starts with the gzip magic bytes (1f 8b); refused as {@link openDataFile} refuses. */
export async function isGzipFile(path: string, file = path): Promise<boolean> {
  const f = await openDataFile(path, file);
  await f.handle.close();
  return f.gzip;
}

/**
 * The bytes of an open data file in order (inflated when it is gzip), less a UTF-8 byte order mark at the start, each
 * chunk valid until the next one after it is asked for. The caller closes the file.
 */
export function fileBytes(f: DataFile, sizes: ReadSizes, meter: ReadMeter | undefined): AsyncGenerator<Buffer, void, undefined> {
  if (meter) meter.total = f.size;
  return withoutBom(f.gzip ? gzipBytes(f.handle, sizes, meter) : plainBytes(f.handle, sizes.read, meter));
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * `chunks` less a UTF-8 byte order mark (EF BB BF) at their start. Editors and spreadsheets on Windows write one
 * before the text; it is no part of the data, and left in it made line 1 of a JSON-lines file "not JSON" over a
 * character nobody can see. The first bytes are held until three are in (a chunk may be shorter).
 */
async function* withoutBom(chunks: AsyncGenerator<Buffer, void, undefined>): AsyncGenerator<Buffer, void, undefined> {
  let head: Buffer | undefined = Buffer.alloc(0); // undefined once the start is decided
  for await (const chunk of chunks) {
    if (head === undefined) {
      yield chunk;
      continue;
    }
    const start: Buffer = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
    if (start.length < BOM.length && BOM.subarray(0, start.length).equals(start)) {
      head = Buffer.from(start); // copied: `chunk` is reused
      continue;
    }
    head = undefined;
    const rest = start.subarray(start.subarray(0, BOM.length).equals(BOM) ? BOM.length : 0);
    if (rest.length > 0) yield rest;
  }
  // Data shorter than a byte order mark that starts like one: data all the same.
  if (head !== undefined && head.length > 0) yield head;
}

/**
 * The bytes of a plain file in order. Two buffers are used in turn, the read of the next chunk started before the
 * current one is handed out: the disk works while the caller parses, and the caller does not wait for it.
 */
async function* plainBytes(handle: FileHandle, bytes: number, meter: ReadMeter | undefined): AsyncGenerator<Buffer, void, undefined> {
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
  }
}

/** The inflated bytes of a gzip file in order (a file cut off mid-stream yields everything before the cut, then zlib's error). */
async function* gzipBytes(handle: FileHandle, sizes: ReadSizes, meter: ReadMeter | undefined): AsyncGenerator<Buffer, void, undefined> {
  const raw = handle.createReadStream({ start: 0, highWaterMark: sizes.read, autoClose: false });
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
