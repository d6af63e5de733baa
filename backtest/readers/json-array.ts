/**
 * Streaming a JSON array element by element: the text of each element of the top-level array (or of the first
 * array inside a top-level object, like a v1.1 `{"success":true,"result":[...]}` envelope) with the line it starts
 * on, read in chunks so a multi-gigabyte array never has to fit in memory.
 *
 * Why a scanner of our own rather than a streaming JSON library (stream-json, @streamparser/json): those
 * tokenize every value in JavaScript and report no line numbers, while a reader must say `file:line` of a bad
 * element. Finding element boundaries only needs bracket depth and string/escape state; each element is then
 * parsed by the native JSON.parse, which is both faster and exact in its error messages.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ReplayFormatError } from '../../src/sim/driver/replay-error.js';
import { MAX_LINE_CHARS, type ReadMeter, ioError, isGzipFile } from './line-source.js';

/** One element of the array: its JSON text and the 1-based line its first character is on. */
export interface JsonElement {
  text: string;
  line: number;
}

/**
 * The elements of the file's array, in chunks. Throws {@link ReplayFormatError} for a file that is not an array
 * (or an object holding one) or that ends inside it; an element that is not valid JSON is still delivered (its
 * brackets balance), for the caller to report at its line.
 *
 * @example
 * for await (const chunk of readJsonArray('candles.json')) for (const el of chunk) JSON.parse(el.text);
 */
export async function* readJsonArray(path: string, file: string = path, meter?: ReadMeter): AsyncGenerator<JsonElement[], void, undefined> {
  const gzip = await isGzipFile(path, file);
  // No size (the file gone since): no share read to tell, and reading reports the error where it happens.
  if (meter) meter.total = await stat(path).then((s) => s.size, () => 0);
  const raw = createReadStream(path, { highWaterMark: 256 * 1024 });
  let input: Readable = raw;
  if (gzip) {
    const gunzip = createGunzip();
    raw.on('error', (e) => gunzip.destroy(e));
    input = raw.pipe(gunzip);
  }
  input.setEncoding('utf8');

  let line = 1;
  let depth = 0; // bracket depth at the scan position
  let arrayDepth = -1; // depth inside the element array once found
  let inString = false;
  let escaped = false;
  let parts: string[] = []; // text of the element being read, across chunks
  let partLen = 0;
  let elementLine = 0;
  let inElement = false;
  let done = false;
  let topIsObject = false;
  const fail = (reason: string): never => {
    throw new ReplayFormatError({ file, line }, reason);
  };
  try {
    for await (const chunk of input as AsyncIterable<string>) {
      if (meter) meter.read = raw.bytesRead;
      if (done) {
        if (/\S/.test(chunk)) fail('text after the end of the array');
        continue;
      }
      const out: JsonElement[] = [];
      let start = inElement ? 0 : -1;
      for (let i = 0; i < chunk.length; i++) {
        const c = chunk.charCodeAt(i);
        if (c === 10) line++;
        if (inString) {
          if (escaped) escaped = false;
          else if (c === 92) escaped = true;
          else if (c === 34) inString = false;
          continue;
        }
        if (done) {
          if (c !== 32 && c !== 10 && c !== 13 && c !== 9) fail('text after the end of the array');
          continue;
        }
        if (c === 34) {
          if (depth === 0) fail('is not a JSON array (nor an object holding one)');
          inString = true;
          if (!inElement && depth === arrayDepth) ({ start } = begin(i));
          continue;
        }
        if (c === 91 || c === 123) {
          // [ or {
          if (depth === 0) {
            topIsObject = c === 123;
            if (!topIsObject) arrayDepth = 1;
          } else if (arrayDepth === -1 && topIsObject && depth === 1 && c === 91) {
            arrayDepth = 2;
          } else if (!inElement && depth === arrayDepth) ({ start } = begin(i));
          depth++;
          continue;
        }
        if (c === 93 || c === 125) {
          // ] or }
          depth--;
          if (depth < 0) fail('has an unbalanced closing bracket');
          if (inElement && depth === arrayDepth) {
            // A nested value closed back to the array: the element ends here.
            out.push(finish(chunk, start, i + 1));
            start = -1;
          } else if (inElement && depth === arrayDepth - 1) {
            // The array closed right after a scalar element.
            out.push(finish(chunk, start, i));
            start = -1;
          }
          // The element array closed: in an envelope object the rest of the object is skipped.
          if (arrayDepth > 0 && depth === arrayDepth - 1 && depth > 0) arrayDepth = -2;
          if (depth === 0) done = true;
          continue;
        }
        if (c === 44 && inElement && depth === arrayDepth) {
          // , ends a scalar element
          out.push(finish(chunk, start, i));
          start = -1;
          continue;
        }
        if (depth === 0 && c !== 32 && c !== 10 && c !== 13 && c !== 9) fail('is not a JSON array (nor an object holding one)');
        if (!inElement && depth === arrayDepth && c !== 32 && c !== 10 && c !== 13 && c !== 9 && c !== 44) ({ start } = begin(i));
      }
      if (inElement) {
        parts.push(chunk.slice(start < 0 ? 0 : start));
        partLen += chunk.length - Math.max(start, 0);
        if (partLen > MAX_LINE_CHARS) fail(`an element longer than ${MAX_LINE_CHARS} characters`);
      }
      if (out.length > 0) yield out;
    }
  } catch (err) {
    if (err instanceof ReplayFormatError) throw err;
    throw ioError(err, { file, line });
  } finally {
    raw.destroy();
    if (input !== raw) input.destroy();
  }
  if (arrayDepth === -1) fail('holds no JSON array');
  if (!done) fail('ends inside the array (file cut short?)');

  function begin(i: number): { start: number } {
    inElement = true;
    elementLine = line;
    parts = [];
    partLen = 0;
    return { start: i };
  }
  function finish(chunk: string, start: number, end: number): JsonElement {
    inElement = false;
    const text = parts.length > 0 ? parts.join('') + chunk.slice(0, end) : chunk.slice(start, end);
    parts = [];
    partLen = 0;
    return { text, line: elementLine };
  }
}
