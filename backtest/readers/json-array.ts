/**
 * Streaming a JSON array element by element: the text of each element of the top-level array (or of the first
 * array inside a top-level object, like a v1.1 `{"success":true,"result":[...]}` envelope) with the line it starts
 * on, read in chunks so a multi-gigabyte array never has to fit in memory. The file is opened and read as every
 * reader's (file-bytes.ts: a regular file, plain or gzip); an array cut off mid-file (a writer killed) gives every
 * element complete before the cut, then an {@link ArrayCutOffError}.
 *
 * Why a scanner of our own rather than a streaming JSON library (stream-json, @streamparser/json): those
 * tokenize every value in JavaScript and report no line numbers, while a reader must say `file:line` of a bad
 * element. Finding element boundaries only needs bracket depth and string/escape state; each element is then
 * parsed by the native JSON.parse, which is both faster and exact in its error messages.
 */
import { StringDecoder } from 'node:string_decoder';
import { type BadLinePolicy, ReplayFormatError, TruncatedDataError, isGzipCutOff } from '../../src/sim/driver/replay-error.js';
import { fileBytes, openDataFile } from './file-bytes.js';
import { MAX_LINE_CHARS, READ_SIZES, type ReadMeter, type ReadSizes, ioError } from './line-source.js';

/** One element of the array: its JSON text and the 1-based line its first character is on. */
export interface JsonElement {
  text: string;
  line: number;
}

/** Where an array was cut off, and what was read of it before the cut. */
export interface ArrayCut {
  file: string;
  /** How the data stops: the gzip stream without its end, or the text inside the array. */
  what: string;
  /** Elements read whole before the cut. */
  complete: number;
  /** The line the last of them starts on (0 when there is none). */
  lastLine: number;
  /** Whether a partial element after them was dropped. */
  torn: boolean;
  /** The line the torn element starts on, or where the data stops when nothing was torn. */
  line: number;
}

/**
 * A JSON array cut off before its end: every element before the cut was read; the line reader applies the bad-line
 * policy (`fail`: this error; `skip`: {@link skipped} reported once, a torn element counted as a skipped line).
 *
 * @example
 * new ArrayCutOffError({ file: 'c.json.gz', what: 'cut off mid-stream (...)', complete: 9, lastLine: 9, torn: true, line: 10 }, 'fail').message
 * // c.json.gz:10: cut off mid-stream (...); element 9 (line 9) is the last complete one: onBadLine: skip reads up to it
 */
export class ArrayCutOffError extends TruncatedDataError {
  readonly cut: ArrayCut;
  readonly torn: boolean;

  constructor(cut: ArrayCut, policy: BadLinePolicy, options?: { cause?: unknown }) {
    const { what, complete, lastLine, torn } = cut;
    const reason =
      policy === 'fail'
        ? `${what}; ${complete > 0 ? `element ${complete} (line ${lastLine}) is the last complete one` : 'not even element 1 is complete'}: onBadLine: skip reads up to it`
        : `${what}; ${complete > 0 ? `read up to element ${complete} (line ${lastLine})` : 'no element read'}${torn ? `, the torn element ${complete + 1} dropped` : ''}`;
    super({ file: cut.file, line: cut.line }, reason, options);
    this.cut = cut;
    this.torn = torn;
  }

  skipped(): ArrayCutOffError {
    return new ArrayCutOffError(this.cut, 'skip', { cause: this.cause });
  }
}

const GZIP_CUT = 'cut off mid-stream (the gzip data stops without its end, as when its writer is killed)';

/**
 * The elements of the file's array, in chunks. Throws {@link ReplayFormatError} for a file that is not an array
 * (or an object holding one), and {@link ArrayCutOffError} once every complete element is delivered when the data
 * stops before the array's end; an element that is not valid JSON is still delivered (its brackets balance), for
 * the caller to report at its line.
 *
 * @example
 * for await (const chunk of readJsonArray('candles.json')) for (const el of chunk) JSON.parse(el.text);
 */
export async function* readJsonArray(path: string, file: string = path, meter?: ReadMeter, sizes: ReadSizes = READ_SIZES): AsyncGenerator<JsonElement[], void, undefined> {
  const f = await openDataFile(path, file);
  const scanner = new ArrayScanner(file);
  // Characters may be split between two reads: the decoder keeps the start of one for the next.
  const decoder = new StringDecoder('utf8');
  let gzipCut: unknown;
  try {
    for await (const chunk of fileBytes(f, sizes, meter)) {
      const out: JsonElement[] = [];
      // Decoded a piece at a time: a string of 128 KB or more is allocated outside V8's young generation (slow).
      for (let p = 0; p < chunk.length; p += sizes.piece) scanner.scan(decoder.write(chunk.subarray(p, p + sizes.piece)), out);
      if (out.length > 0) yield out;
    }
  } catch (err) {
    if (err instanceof ReplayFormatError) throw err;
    if (!(f.gzip && isGzipCutOff(err))) throw ioError(err, { file, line: scanner.line });
    gzipCut = err;
  } finally {
    await f.handle.close();
  }
  const out: JsonElement[] = [];
  scanner.scan(decoder.end(), out);
  if (out.length > 0) yield out;
  scanner.end(gzipCut);
}

/**
 * Finds the elements of the array in text given in pieces: bracket depth and string/escape state carried from one
 * piece to the next, an element's text kept across pieces until it ends.
 */
class ArrayScanner {
  readonly #file: string;
  /** The line at the scan position. */
  line = 1;
  #depth = 0; // bracket depth at the scan position
  #arrayDepth = -1; // depth inside the element array once found; -2 once it closed inside an envelope
  #inString = false;
  #escaped = false;
  #parts: string[] = []; // text of the element being read, across pieces
  #partLen = 0;
  #elementLine = 0;
  #inElement = false;
  #done = false;
  #topIsObject = false;
  /** Elements delivered, and the line the last one starts on. */
  #count = 0;
  #lastLine = 0;

  constructor(file: string) {
    this.#file = file;
  }

  /** Scan `chunk`, putting the elements it completes into `out`. */
  scan(chunk: string, out: JsonElement[]): void {
    if (chunk.length === 0) return;
    if (this.#done && !this.#inString) {
      if (/\S/.test(chunk)) this.#fail('text after the end of the array');
      return;
    }
    let start = this.#inElement ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === 10) this.line++;
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (c === 92) this.#escaped = true;
        else if (c === 34) this.#inString = false;
        continue;
      }
      if (this.#done) {
        if (c !== 32 && c !== 10 && c !== 13 && c !== 9) this.#fail('text after the end of the array');
        continue;
      }
      if (c === 34) {
        if (this.#depth === 0) this.#fail('is not a JSON array (nor an object holding one)');
        this.#inString = true;
        if (!this.#inElement && this.#depth === this.#arrayDepth) start = this.#begin(i);
        continue;
      }
      if (c === 91 || c === 123) {
        // [ or {
        if (this.#depth === 0) {
          this.#topIsObject = c === 123;
          if (!this.#topIsObject) this.#arrayDepth = 1;
        } else if (this.#arrayDepth === -1 && this.#topIsObject && this.#depth === 1 && c === 91) {
          this.#arrayDepth = 2;
        } else if (!this.#inElement && this.#depth === this.#arrayDepth) start = this.#begin(i);
        this.#depth++;
        continue;
      }
      if (c === 93 || c === 125) {
        // ] or }
        this.#depth--;
        if (this.#depth < 0) this.#fail('has an unbalanced closing bracket');
        if (this.#inElement && this.#depth === this.#arrayDepth) {
          // A nested value closed back to the array: the element ends here.
          out.push(this.#finish(chunk, start, i + 1));
          start = -1;
        } else if (this.#inElement && this.#depth === this.#arrayDepth - 1) {
          // The array closed right after a scalar element.
          out.push(this.#finish(chunk, start, i));
          start = -1;
        }
        // The element array closed: in an envelope object the rest of the object is skipped.
        if (this.#arrayDepth > 0 && this.#depth === this.#arrayDepth - 1 && this.#depth > 0) this.#arrayDepth = -2;
        if (this.#depth === 0) this.#done = true;
        continue;
      }
      if (c === 44 && this.#inElement && this.#depth === this.#arrayDepth) {
        // , ends a scalar element
        out.push(this.#finish(chunk, start, i));
        start = -1;
        continue;
      }
      if (this.#depth === 0 && c !== 32 && c !== 10 && c !== 13 && c !== 9) this.#fail('is not a JSON array (nor an object holding one)');
      if (!this.#inElement && this.#depth === this.#arrayDepth && c !== 32 && c !== 10 && c !== 13 && c !== 9 && c !== 44) start = this.#begin(i);
    }
    if (this.#inElement) {
      this.#parts.push(chunk.slice(start < 0 ? 0 : start));
      this.#partLen += chunk.length - Math.max(start, 0);
      if (this.#partLen > MAX_LINE_CHARS) this.#fail(`an element longer than ${MAX_LINE_CHARS} characters`);
    }
  }

  /**
   * The data has ended (`gzipCut`: zlib's error when the gzip stream stopped without its end): throws unless the
   * array was read whole.
   */
  end(gzipCut: unknown): void {
    if (this.#done && gzipCut === undefined) {
      if (this.#arrayDepth === -1) this.#fail('holds no JSON array');
      return;
    }
    // Nothing at all, or no array in what there is, and the data was not cut: not an array file.
    if (gzipCut === undefined && this.#arrayDepth === -1 && this.#depth === 0) this.#fail('holds no JSON array');
    const what = gzipCut !== undefined ? GZIP_CUT : this.#arrayDepth > 0 ? 'ends inside the array (cut off, as when its writer is killed)' : 'ends before the end of its JSON (cut off, as when its writer is killed)';
    const torn = this.#inElement;
    throw new ArrayCutOffError(
      { file: this.#file, what, complete: this.#count, lastLine: this.#lastLine, torn, line: torn ? this.#elementLine : this.line },
      'fail',
      gzipCut !== undefined ? { cause: gzipCut } : undefined,
    );
  }

  #fail(reason: string): never {
    throw new ReplayFormatError({ file: this.#file, line: this.line }, reason);
  }

  /** An element starts at `i`: answers where its text starts. */
  #begin(i: number): number {
    this.#inElement = true;
    this.#elementLine = this.line;
    this.#parts = [];
    this.#partLen = 0;
    return i;
  }

  #finish(chunk: string, start: number, end: number): JsonElement {
    this.#inElement = false;
    const text = this.#parts.length > 0 ? this.#parts.join('') + chunk.slice(0, end) : chunk.slice(start, end);
    this.#parts = [];
    this.#partLen = 0;
    this.#count++;
    this.#lastLine = this.#elementLine;
    return { text, line: this.#elementLine };
  }
}
