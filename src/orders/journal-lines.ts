/**
 * Reading a journal file as lines, a chunk at a time (journal-parse.ts turns the lines into records): a long-lived
 * journal can outgrow what one string may hold (V8's limit is ~512 MiB), and a bot that cannot read its journal
 * cannot restart, so the file is never read whole.
 *
 * The file is read in large chunks into one reused buffer and split on the newline byte. 0x0a never occurs inside
 * a multi-byte UTF-8 sequence, so the bytes up to a chunk's last newline decode on their own, exactly as the whole
 * file would: they are decoded with one call per chunk rather than one per line, and split as a string. Only
 * the bytes after the last newline — the start of a line the next chunk finishes — are copied and kept. A line
 * may be at most {@link MAX_JOURNAL_LINE_BYTES} (a record is a few hundred bytes): a longer one is not gathered
 * into an ever larger buffer but reported as too long, without its text. A UTF-8 byte order mark at the file's very
 * start (a journal saved from a Windows editor) is skipped, as the splitter hands over the first line.
 */
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { notAFile } from '../core/file-kind.js';

/** Bytes read per call (the chunk a journal is read in). */
export const JOURNAL_READ_CHUNK_BYTES = 4 * 2 ** 20;
/** The longest journal line read (without its newline); a longer one is reported without its text. */
export const MAX_JOURNAL_LINE_BYTES = 64 * 2 ** 20;

const EMPTY = Buffer.alloc(0);

/** How a journal file is read: the seam where tests make every record cross a chunk boundary. */
export interface JournalReadOptions {
  /** Bytes read per call (default {@link JOURNAL_READ_CHUNK_BYTES}). */
  chunkBytes?: number | undefined;
  /** The longest line accepted (default {@link MAX_JOURNAL_LINE_BYTES}). */
  maxLineBytes?: number | undefined;
}

/** Told each line of a journal file, in file order; `lineNo` counts from 1. */
export interface JournalLineSink {
  /**
   * A line: its text without the `\n` (a `\r` before it stays, as in the file; the first line's byte order mark,
   * if any, does not). `last` is true only for an unterminated final line (no newline after it).
   */
  line(text: string, lineNo: number, last: boolean): void;
  /**
   * A line longer than `limit` bytes, told instead of {@link JournalLineSink.line}: `bytes` is its length without
   * the newline.
   */
  tooLong(lineNo: number, last: boolean, bytes: number, limit: number): void;
}

/**
 * Splits bytes pushed in any chunking into the lines of {@link JournalLineSink}, the same lines whatever the
 * chunk boundaries. A chunk may be reused by the caller once {@link JournalLineSplitter.push} returns.
 *
 * @example
 * const split = new JournalLineSplitter({ line: (text, lineNo) => console.log(lineNo, text), tooLong: () => {} });
 * split.push(Buffer.from('{"a":1}\n{"b"'));
 * split.push(Buffer.from(':2}\n'));
 * split.end();                                       // 1 {"a":1}, then 2 {"b":2}
 */
export class JournalLineSplitter {
  readonly #sink: JournalLineSink;
  readonly #maxLineBytes: number;
  /** The unfinished line's bytes (copies), while it is not too long. */
  #parts: Buffer[] = [];
  /** Bytes of the unfinished line seen so far (also once it is too long and its bytes are dropped). */
  #pending = 0;
  #lineNo = 0;
  /** Bytes of complete lines (newlines included) pushed so far. */
  #complete = 0;

  constructor(sink: JournalLineSink, maxLineBytes = MAX_JOURNAL_LINE_BYTES) {
    this.#sink = sink;
    this.#maxLineBytes = maxLineBytes;
  }

  /** Bytes of the file before its unterminated last line: all of it when it ends with a newline. */
  get completeBytes(): number {
    return this.#complete;
  }

  /** Split the next bytes of the file. */
  push(chunk: Buffer): void {
    const first = chunk.indexOf(0x0a);
    if (first < 0) {
      this.#gather(chunk);
      return;
    }
    this.#finishLine(chunk.subarray(0, first));
    const last = chunk.lastIndexOf(0x0a);
    if (last > first) {
      // Whole lines, decoded together: they start after a newline and end at one (see the module note).
      const text = chunk.toString('utf8', first + 1, last);
      let from = 0;
      for (;;) {
        const nl = text.indexOf('\n', from);
        const line = nl < 0 ? text.slice(from) : text.slice(from, nl);
        // Never too long: a line inside one chunk is shorter than the chunk, which is at most the longest line.
        this.#sink.line(line, ++this.#lineNo, false);
        if (nl < 0) break;
        from = nl + 1;
      }
      this.#complete += last - first;
    }
    this.#gather(chunk.subarray(last + 1));
  }

  /** The file ended: hand over its unterminated last line, if any. */
  end(): void {
    if (this.#pending === 0) return;
    this.#emit(EMPTY, true);
  }

  /** `head` (bytes up to a newline) ends the unfinished line. */
  #finishLine(head: Buffer): void {
    this.#complete += this.#pending + head.length + 1;
    this.#emit(head, false);
  }

  /** Hand over the unfinished line ended by `head`, and start the next one. */
  #emit(head: Buffer, last: boolean): void {
    const bytes = this.#pending + head.length;
    const lineNo = ++this.#lineNo;
    const parts = this.#parts;
    this.#parts = [];
    this.#pending = 0;
    if (bytes > this.#maxLineBytes) {
      this.#sink.tooLong(lineNo, last, bytes, this.#maxLineBytes);
      return;
    }
    const text = parts.length === 0 ? head.toString('utf8') : Buffer.concat(head.length > 0 ? [...parts, head] : parts, bytes).toString('utf8');
    // The first line always comes through here (whole lines start after a newline), so this is the one check of
    // the file's first bytes, however they were chunked.
    this.#sink.line(lineNo === 1 ? withoutBom(text) : text, lineNo, last);
  }

  /** Keep `tail` (no newline in it) as more of the unfinished line; copied, as the caller reuses its buffer. */
  #gather(tail: Buffer): void {
    if (tail.length === 0) return;
    this.#pending += tail.length;
    if (this.#pending > this.#maxLineBytes) {
      // Too long to be a record: keep counting its bytes, never its text.
      this.#parts = [];
      return;
    }
    this.#parts.push(Buffer.from(tail));
  }
}

/**
 * The first line without a UTF-8 byte order mark (EF BB BF, decoded as U+FEFF; no other bytes decode to it) at its
 * start: a Windows editor adds one when a user saves a journal, and the line then was "not valid JSON". Only at
 * the file's first byte: anywhere else it is data, and an error. Its bytes still count in the file's offsets.
 */
function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Chunk size to read with: never above the longest line, so a line inside one chunk is never too long. */
function chunkSize(o: JournalReadOptions): { chunk: number; max: number } {
  const max = o.maxLineBytes ?? MAX_JOURNAL_LINE_BYTES;
  const chunk = Math.min(o.chunkBytes ?? JOURNAL_READ_CHUNK_BYTES, max);
  if (!(chunk >= 1) || !Number.isInteger(chunk)) throw new RangeError(`journal read chunk must be a positive whole number of bytes, got ${chunk}`);
  return { chunk, max };
}

/**
 * Read the file at `path` line by line into `sink` (synchronously: a bot's start reads its journal before anything
 * else runs). Returns the file's bytes read and the bytes before its unterminated last line. Throws the fs error
 * (ENOENT for a missing file).
 *
 * `endBytes` stops the reading there, as if the file ended: an open journal re-reads what it held when it was
 * opened while later appends grow the file behind it.
 */
export function readJournalLines(path: string, sink: JournalLineSink, options: JournalReadOptions = {}, endBytes = Infinity): { bytes: number; completeBytes: number } {
  const { chunk, max } = chunkSize(options);
  const split = new JournalLineSplitter(sink, max);
  const buf = Buffer.allocUnsafe(chunk);
  let bytes = 0;
  const fd = openSync(path, 'r');
  try {
    while (bytes < endBytes) {
      const want = Math.min(chunk, endBytes - bytes);
      const n = readSync(fd, buf, 0, want, null);
      if (n === 0) break;
      bytes += n;
      split.push(n === chunk ? buf : buf.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  split.end();
  return { bytes, completeBytes: split.completeBytes };
}

/**
 * {@link readJournalLines} without blocking the event loop while reading (`rexbot report`, given any path). Anything
 * but a regular file is refused before a byte is read, naming the path (a FIFO held `rexbot report` for good; a
 * directory failed with `EISDIR` and no path), and so is a gzip file (a journal is plain JSON lines; gzipped, its
 * first line was "not valid JSON" over binary bytes).
 */
export async function readJournalLinesAsync(path: string, sink: JournalLineSink, options: JournalReadOptions = {}): Promise<{ bytes: number; completeBytes: number }> {
  const { chunk, max } = chunkSize(options);
  const split = new JournalLineSplitter(sink, max);
  const buf = Buffer.allocUnsafe(chunk);
  let bytes = 0;
  // Non-blocking: opening a FIFO for reading otherwise waits for a writer, on a thread nothing can free.
  const fh = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new Error(`${path}: is ${notAFile(st)}, not a journal file`);
    for (;;) {
      const { bytesRead: n } = await fh.read(buf, 0, chunk, null);
      if (n === 0) break;
      if (bytes === 0 && n >= 2 && buf[0] === 0x1f && buf[1] === 0x8b) {
        throw new Error(`${path}: is gzip-compressed; a journal is read as the bot writes it, plain JSON lines: gunzip it first`);
      }
      bytes += n;
      split.push(n === chunk ? buf : buf.subarray(0, n));
    }
  } finally {
    await fh.close();
  }
  split.end();
  return { bytes, completeBytes: split.completeBytes };
}
