/**
 * The one place the readers read a file (opened by file-bytes.ts; plain, or gzip detected by its magic bytes) as numbered
 * text lines in blocks, never whole. Lines are handed out per block so a reader parses hundreds of lines between
 * two awaits; memory holds two read buffers, one decoded block and at most one partial line.
 *
 * The bytes are cut into lines before they are decoded: a block always ends just after a `\n` byte, which UTF-8
 * never uses inside a multi-byte character, so no character is split between two blocks and each block is decoded
 * on its own. A block of pure ASCII (nearly every block of every supported format; `isAscii` is native) is decoded
 * as latin1, the same string as UTF-8 gives for those bytes at a fraction of the cost; any other block goes through
 * the UTF-8 decoder. Plain files are read 1 MB at a time into two buffers in turn, the next read under way while
 * the lines of the current one are parsed, so the reader does not wait for the disk. (The stream of 64 KB chunks
 * decoded as UTF-8 that this replaced left the reader idle ~200 ms per 1M lines and spent ~100 ms more decoding.)
 * Reads stay asynchronous: the event loop is never blocked by the disk. A parser that reads bytes itself gets the
 * same blocks undecoded ({@link readByteBlocks}): no decoding at all for the lines it reads.
 */
import { isAscii } from 'node:buffer';
import '../../src/core/string-prototype-fast.js'; // line scans use charCodeAt: that module keeps it inlined
import { CutOffError, ReplayFormatError, isGzipCutOff } from '../../src/sim/driver/replay-error.js';
import { fileBytes, ioError, openDataFile } from './file-bytes.js';

export { ioError, isGzipFile } from './file-bytes.js';

/**
 * The longest line a reader accepts, in bytes: far above any real line (a 500-level REST snapshot is ~20 KB). Counted
 * in bytes as the line is gathered, so a longer line is refused without being joined or decoded (see
 * {@link LineCutter.tooLong}).
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** The longest JSON element (json-array.ts) in characters, and formerly of a line: the same 64 Mi. */
export const MAX_LINE_CHARS = MAX_LINE_BYTES;

/** Bytes asked of the disk per read: large enough that reads cost nothing next to parsing. */
export const READ_BYTES = 1024 * 1024;
/**
 * Bytes decoded into one string at most (unless a line is longer): a string of 128 KB or more is allocated outside
 * V8's young generation, which made decoding ~6 times slower than in pieces of 64 KB.
 */
const PIECE_BYTES = 64 * 1024;

/**
 * How many bytes a read asks for and a decoded piece holds at most, and the longest line in bytes (default
 * {@link MAX_LINE_BYTES}); smaller in tests, to cut lines anywhere.
 */
export interface ReadSizes {
  read: number;
  piece: number;
  maxLine?: number | undefined;
}

/** The sizes every reader reads with. */
export const READ_SIZES: ReadSizes = { read: READ_BYTES, piece: PIECE_BYTES, maxLine: MAX_LINE_BYTES };

/**
 * How much of a file a reader has read: `read` of its `total` bytes on disk (compressed bytes for a gzip file),
 * counted as the bytes are handed on. A backtest with no end time shows its progress from it.
 */
export interface ReadMeter {
  read: number;
  total: number;
}

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

/**
 * Consecutive lines of a file as bytes (complete UTF-8 lines, never decoded): {@link LineBlock} with byte indexes.
 * `bytes` and `view` (the same bytes, for reading several at once) are valid until the next block is asked for.
 */
export interface ByteBlock {
  readonly bytes: Buffer;
  readonly view: DataView;
  readonly first: number;
  readonly count: number;
  readonly ends: Int32Array;
}

/** {@link lineEnd} in bytes: where the line starting at `start` whose `\n` (or the block's end) is at `nl` ends. */
export function byteLineEnd(bytes: Uint8Array, start: number, nl: number): number {
  return nl > start && bytes[nl - 1] === 13 ? nl - 1 : nl;
}

/** Where the line of `text` that starts at `start` and whose `\n` (or the text's end) is at `nl` ends: before a `\r`. */
export function lineEnd(text: string, start: number, nl: number): number {
  return nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
}

/**
 * Cuts chunks of bytes into pieces of complete lines of at most about {@link PIECE_BYTES} each, keeping the
 * partial line at a chunk's end (copied: a chunk's buffer is reused) for the next chunk. A piece is valid until
 * the chunk after the one it came from is read.
 */
class LineCutter {
  readonly #piece: number;
  #partial: Buffer[] = [];
  #partialBytes = 0;

  constructor(piece: number) {
    this.#piece = piece;
  }

  /** The pieces of the lines `chunk` completes. */
  *cut(chunk: Buffer): Generator<Buffer, void, undefined> {
    let pos = 0;
    if (this.#partialBytes > 0) {
      const nl = chunk.indexOf(10);
      if (nl < 0) {
        this.#keep(chunk);
        return;
      }
      this.#partial.push(chunk.subarray(0, nl + 1));
      const line = Buffer.concat(this.#partial);
      this.#partial = [];
      this.#partialBytes = 0;
      pos = nl + 1;
      yield line;
    }
    while (pos < chunk.length) {
      const stop = Math.min(pos + this.#piece, chunk.length);
      let nl = chunk.lastIndexOf(10, stop - 1);
      // A line longer than a piece: it is a piece of its own.
      if (nl < pos && stop < chunk.length) nl = chunk.indexOf(10, stop);
      if (nl < pos) {
        this.#keep(chunk.subarray(pos));
        return;
      }
      const piece = chunk.subarray(pos, nl + 1);
      pos = nl + 1;
      yield piece;
    }
  }

  /** The partial line at the end of the file (undefined when the file ends with a newline). */
  end(): Buffer | undefined {
    return this.#partialBytes > 0 ? Buffer.concat(this.#partial) : undefined;
  }

  /**
   * The partial line is longer than `max` bytes. Bytes, not decoded characters: deciding in characters joined and
   * decoded the whole partial line after every read once it passed `max` bytes, and a line of 2-byte characters
   * without a newline took minutes and several times the limit in memory before it was refused.
   */
  tooLong(max: number): boolean {
    return this.#partialBytes > max;
  }

  #keep(bytes: Buffer): void {
    this.#partial.push(Buffer.from(bytes));
    this.#partialBytes += bytes.length;
  }
}

/**
 * Why a line longer than `max` bytes is refused: no record of any format comes near it, so the file is most likely
 * not text of the format named (or has lost its newlines).
 *
 * @example
 * tooLongReason(64 * 1024 * 1024) // 'line longer than 64 MiB (67108864 bytes) ...'
 */
export function tooLongReason(max: number): string {
  const mib = max / (1024 * 1024);
  return `line longer than ${Number.isInteger(mib) ? `${mib} MiB (${max} bytes)` : `${max} bytes`}, which no line of a data file comes near: is it a file of this format?`;
}

/**
 * A piece of complete lines decoded: latin1 is UTF-8 for ASCII bytes, and several times cheaper. (A piece always
 * ends just after a `\n`, which UTF-8 never uses inside a character, so no character is split between two pieces.)
 */
function decode(bytes: Buffer): string {
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

/**
 * The pieces of `path` (plain, or gzip inflated on the fly) made into blocks by `block` (given the piece and the
 * number of its first line; it says how many lines it holds). A missing file, a read error or damaged gzip data is
 * a {@link ReplayFormatError} at the line being read when it happened, raised after every block before it; gzip
 * data that stops mid-stream (a recorder killed) is a {@link CutOffError} (the line reader applies its policy).
 */
async function* pieceBlocks<B extends { readonly count: number }>(
  path: string,
  file: string,
  sizes: ReadSizes,
  block: (piece: Buffer, first: number) => B,
  meter: ReadMeter | undefined,
): AsyncGenerator<B, void, undefined> {
  const maxLine = sizes.maxLine ?? MAX_LINE_BYTES;
  const f = await openDataFile(path, file);
  const cutter = new LineCutter(sizes.piece);
  let n = 0;
  try {
    for await (const chunk of fileBytes(f, sizes, meter)) {
      for (const piece of cutter.cut(chunk)) {
        const b = block(piece, n + 1);
        yield b;
        // Counted once the caller is done with the block: a block of bytes may leave its lines to the caller to find.
        n += b.count;
      }
      if (cutter.tooLong(maxLine)) throw new ReplayFormatError({ file, line: n + 1 }, tooLongReason(maxLine));
    }
  } catch (err) {
    if (err instanceof ReplayFormatError) throw err;
    if (f.gzip && isGzipCutOff(err)) throw new CutOffError(file, n, cutter.end() !== undefined, 'fail', { cause: err });
    throw ioError(err, { file, line: n + 1 });
  } finally {
    await f.handle.close();
  }
  const rest = cutter.end();
  if (rest !== undefined) yield block(rest, n + 1);
}

/** Where the lines of a block end (reused from block to block, grown when a block has more lines). */
class LineEnds {
  ends: Int32Array<ArrayBuffer> = new Int32Array(8192);

  /** Line `count` ends at `nl`: answers the new count. */
  add(count: number, nl: number): number {
    if (count === this.ends.length) this.ends = grow(this.ends);
    this.ends[count] = nl;
    return count + 1;
  }

  /** The count once a block of `length` is done: its last line ends at `length` when it has no `\n`. */
  last(count: number, length: number): number {
    return length > 0 && (count === 0 || this.ends[count - 1] !== length - 1) ? this.add(count, length) : count;
  }
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
export async function* readLineBlocks(path: string, file: string = path, sizes: ReadSizes = READ_SIZES, meter?: ReadMeter): AsyncGenerator<LineBlock, void, undefined> {
  const ends = new LineEnds();
  yield* pieceBlocks(path, file, sizes, (piece, first): LineBlock => {
    const text = decode(piece);
    let count = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', nl + 1)) count = ends.add(count, nl);
    count = ends.last(count, text.length);
    return { text, first, count, ends: ends.ends };
  }, meter);
}

/**
 * The lines of `path` as {@link readLineBlocks} reads them, but undecoded: blocks of bytes, for parsers that read
 * the bytes themselves (no decoding of the lines they read; a line's text is `bytes.toString('utf8', start, end)`,
 * the same string {@link readLineBlocks} gives for it).
 *
 * @example
 * for await (const b of readByteBlocks('book.jsonl')) {
 *   let start = 0;
 *   for (let k = 0; k < b.count; k++) { const nl = b.ends[k]!; use(b.bytes, start, byteLineEnd(b.bytes, start, nl), b.first + k); start = nl + 1; }
 * }
 */
export async function* readByteBlocks(path: string, file: string = path, sizes: ReadSizes = READ_SIZES, meter?: ReadMeter): AsyncGenerator<ByteBlock, void, undefined> {
  const ends = new LineEnds();
  yield* pieceBlocks(path, file, sizes, (bytes, first): ByteBlock => {
    let count = 0;
    for (let nl = bytes.indexOf(10); nl >= 0; nl = bytes.indexOf(10, nl + 1)) count = ends.add(count, nl);
    count = ends.last(count, bytes.length);
    return { bytes, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), first, count, ends: ends.ends };
  }, meter);
}

/**
 * Consecutive complete lines of a file as bytes, their ends not yet found: the caller finds them (a parser that reads
 * a line up to its end learns where it ends anyway) and sets `count` to the number of lines before it asks for the
 * next span, whose first line is numbered after them. The bytes end just after a `\n`, except the file's last line
 * when it has none. `bytes` and `view` are valid until the next span is asked for.
 */
export interface ByteSpan {
  readonly bytes: Buffer;
  readonly view: DataView;
  readonly first: number;
  count: number;
}

/**
 * The lines of `path` as {@link readByteBlocks} reads them, without the scan for their ends: {@link ByteSpan}s.
 *
 * @example
 * for await (const s of readByteSpans('book.jsonl')) {
 *   let k = 0;
 *   for (let start = 0; start < s.bytes.length; k++) { const nl = endOf(s.bytes, start); use(s.bytes, start, byteLineEnd(s.bytes, start, nl), s.first + k); start = nl + 1; }
 *   s.count = k;
 * }
 */
export async function* readByteSpans(path: string, file: string = path, sizes: ReadSizes = READ_SIZES, meter?: ReadMeter): AsyncGenerator<ByteSpan, void, undefined> {
  yield* pieceBlocks(path, file, sizes, (bytes, first): ByteSpan => ({ bytes, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), first, count: 0 }), meter);
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
export async function* readLineChunks(path: string, file: string = path, sizes: ReadSizes = READ_SIZES, meter?: ReadMeter): AsyncGenerator<NumberedLine[], void, undefined> {
  for await (const { text, first, count, ends } of readLineBlocks(path, file, sizes, meter)) {
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
