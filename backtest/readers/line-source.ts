/**
 * The one place the readers touch the disk: a file (plain, or gzip detected by its magic bytes) read as numbered
 * text lines in blocks, never whole. Lines are handed out per block so a reader parses thousands of lines between
 * two awaits; memory holds one block (about {@link READ_BYTES} of text) and at most one partial line.
 *
 * The bytes are cut into lines before they are decoded: a block always ends just after a `\n` byte, which UTF-8
 * never uses inside a multi-byte character, so no character is ever split between two blocks and each block is
 * decoded on its own. A block of pure ASCII (nearly every block of every supported format) is then decoded as
 * latin1, which gives the same string as UTF-8 for those bytes at a fraction of the cost; any other block goes
 * through the UTF-8 decoder. Plain files are read with `read` into two buffers in turn, the next read already
 * under way while the lines of the current block are parsed, so the reader does not wait for the disk
 * (a stream of 64 KB chunks decoded to UTF-8 left ~200 ms of 1 s idle and spent ~100 ms decoding per 1M lines).
 */
import { createReadStream } from 'node:fs';
import { isAscii } from 'node:buffer';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { type LineRef, ReplayFormatError } from '../../src/sim/driver/replay-error.js';

/** The longest line a reader accepts: far above any real line (a 500-level REST snapshot is ~20 KB). */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;

/** Bytes asked of the disk per read (and the gzip output chunk size): large enough that a read costs nothing. */
export const READ_BYTES = 64 * 1024;

/** One text line of a file, without its `\n` (or `\r\n`), with its 1-based number. */
export interface NumberedLine {
  text: string;
  line: number;
}

/**
 * Consecutive lines of a file in one string, without an object per line. Line `k` (0-based) of the block is file
 * line `first + k`; it ends at `ends[k]` (the index of its `\n` in `text`, or `text.length` for a last line without
 * one), and starts just after the end of the line before (0 for the first). A `\r` just before the end is not part
 * of the line (see {@link lineEnd}). `ends` is reused: a block is valid until the next one is asked for.
 */
export interface LineBlock {
  readonly text: string;
  readonly first: number;
  readonly count: number;
  readonly ends: Int32Array;
}

/** Where the line of `text` that starts at `start` and whose `\n` (or the text's end) is at `nl` ends: before a `\r`. */
export function lineEnd(text: string, start: number, nl: number): number {
  return nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
}

/** True when the file starts with the gzip magic bytes (1f 8b). */
export async function isGzipFile(path: string, file = path): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw ioError(err, { file, line: 1 });
  }
  try {
    const buf = Buffer.alloc(2);
    const { bytesRead } = await handle.read(buf, 0, 2, 0);
    return bytesRead === 2 && buf[0] === 0x1f && buf[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/**
 * Where the bytes of a file go before they are cut into lines: `buf[0, length)` holds the bytes not yet handed
 * out, which start with the partial line left by the last block.
 */
class ByteWindow {
  buf = Buffer.allocUnsafe(READ_BYTES);
  length = 0;

  /** Room for at least `bytes` more, the bytes held kept. */
  reserve(bytes: number): void {
    if (this.length + bytes <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.length + bytes));
    this.buf.copy(bigger, 0, 0, this.length);
    this.buf = bigger;
  }

  /**
   * The complete lines held, decoded, and only the partial line after them kept; undefined when no line is
   * complete yet. With `all`, the partial line too (the file's end).
   */
  take(all: boolean): string | undefined {
    // (lastIndexOf from -1 would search from the buffer's end, past what it holds.)
    const cut = all || this.length === 0 ? this.length : this.buf.lastIndexOf(10, this.length - 1) + 1;
    if (cut <= 0) return undefined;
    const text = decode(this.buf.subarray(0, cut));
    this.buf.copyWithin(0, cut, this.length);
    this.length -= cut;
    return text;
  }
}

/**
 * The text of a plain file in pieces of complete lines, `''` while a line is not complete yet; the partial line
 * at the end stays in `window`. The next read is started before a piece is handed out, so the disk works while
 * the caller parses.
 */
async function* plainText(path: string, window: ByteWindow): AsyncGenerator<string, void, undefined> {
  const handle = await open(path, 'r');
  let position = 0;
  const read = () => {
    window.reserve(READ_BYTES);
    const p = handle.read(window.buf, window.length, READ_BYTES, position);
    // The read-ahead may fail while nobody awaits it yet; it is awaited (and its error thrown) before anything else.
    p.catch(() => {});
    return p;
  };
  let next = read();
  try {
    for (;;) {
      const { bytesRead } = await next;
      if (bytesRead === 0) break;
      position += bytesRead;
      window.length += bytesRead;
      const text = window.take(false) ?? '';
      next = read();
      yield text;
    }
  } finally {
    await next.catch(() => undefined);
    await handle.close();
  }
}

/** The text of a gzip file in pieces of complete lines, as {@link plainText}. */
async function* gzipText(path: string, window: ByteWindow): AsyncGenerator<string, void, undefined> {
  const raw = createReadStream(path, { highWaterMark: READ_BYTES });
  const gunzip = createGunzip({ chunkSize: 128 * 1024 });
  raw.on('error', (e) => gunzip.destroy(e));
  try {
    for await (const chunk of raw.pipe(gunzip) as AsyncIterable<Buffer>) {
      window.reserve(chunk.length);
      chunk.copy(window.buf, window.length);
      window.length += chunk.length;
      if (window.length >= READ_BYTES) yield window.take(false) ?? '';
    }
  } catch (err) {
    // The lines inflated before the damage are delivered first.
    yield window.take(false) ?? '';
    throw err;
  } finally {
    raw.destroy();
    gunzip.destroy();
  }
}

/** A block of complete lines decoded: latin1 is UTF-8 for ASCII bytes, and several times cheaper. */
function decode(bytes: Buffer): string {
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

/**
 * The lines of `path`, in blocks of consecutive lines (empty lines included, so numbering is exact). A gzipped
 * file is inflated on the fly. A missing file, a read error or damaged gzip data is a {@link ReplayFormatError}
 * at the line being read when it happened, raised after every complete line before it was delivered.
 *
 * @example
 * for await (const b of readLineBlocks('trades.csv.gz')) {
 *   let start = 0;
 *   for (let k = 0; k < b.count; k++) { const nl = b.ends[k]!; use(b.text.slice(start, lineEnd(b.text, start, nl)), b.first + k); start = nl + 1; }
 * }
 */
export async function* readLineBlocks(path: string, file: string = path): AsyncGenerator<LineBlock, void, undefined> {
  const gzip = await isGzipFile(path, file);
  const window = new ByteWindow();
  let ends: Int32Array<ArrayBuffer> = new Int32Array(8192);
  let n = 0;
  /** The block of `text` (complete lines, the last maybe without its `\n`). */
  const block = (text: string): LineBlock => {
    const first = n + 1;
    let count = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', nl + 1)) {
      if (count === ends.length) ends = grow(ends);
      ends[count++] = nl;
    }
    if (text.length > 0 && (count === 0 || ends[count - 1] !== text.length - 1)) {
      if (count === ends.length) ends = grow(ends);
      ends[count++] = text.length;
    }
    n += count;
    return { text, first, count, ends };
  };
  try {
    for await (const text of gzip ? gzipText(path, window) : plainText(path, window)) {
      if (text.length > 0) yield block(text);
      // Bytes count at least the characters they hold: count those only when the bytes alone say "too long".
      if (window.length > MAX_LINE_CHARS && window.buf.toString('utf8', 0, window.length).length > MAX_LINE_CHARS) {
        throw new ReplayFormatError({ file, line: n + 1 }, `line longer than ${MAX_LINE_CHARS} characters`);
      }
    }
  } catch (err) {
    if (err instanceof ReplayFormatError) throw err;
    throw ioError(err, { file, line: n + 1 });
  }
  const rest = window.take(true);
  if (rest !== undefined) yield block(rest);
}

/** `ends` with room for twice as many lines, the ones it holds kept. */
function grow(ends: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const out = new Int32Array(ends.length * 2);
  out.set(ends);
  return out;
}

/**
 * The lines of `path` as {@link readLineBlocks} reads them, in chunks of {@link NumberedLine} objects: for readers
 * that keep or reorder lines.
 *
 * @example
 * for await (const chunk of readLineChunks('trades.csv.gz', 'trades.csv.gz')) for (const l of chunk) parse(l.text, l.line);
 */
export async function* readLineChunks(path: string, file: string = path): AsyncGenerator<NumberedLine[], void, undefined> {
  for await (const { text, first, count, ends } of readLineBlocks(path, file)) {
    const out: NumberedLine[] = new Array(count);
    let start = 0;
    for (let k = 0; k < count; k++) {
      const nl = ends[k]!;
      out[k] = { text: text.slice(start, lineEnd(text, start, nl)), line: first + k };
      start = nl + 1;
    }
    yield out;
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
