/**
 * The reference the line source is checked against: the way the readers read lines before the block reader
 * (backtest/readers/line-source.ts) replaced it, a Node stream decoded as UTF-8 (with a StringDecoder, which
 * carries a character split between two chunks over) and cut into lines after decoding. Slow and obviously right.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { type NumberedLine, MAX_LINE_CHARS, ioError, isGzipFile } from '../../../backtest/readers/line-source.js';
import { ReplayFormatError } from '../../../src/sim/driver/replay-error.js';

/** The lines of `path` (gzip or plain) as the stream reader gave them; `chunk` is the stream's chunk size. */
export async function* streamLines(path: string, file: string = path, chunk = 64 * 1024): AsyncGenerator<NumberedLine[], void, undefined> {
  const gzip = await isGzipFile(path, file);
  const raw = createReadStream(path, { highWaterMark: chunk });
  let input: Readable = raw;
  if (gzip) {
    const gunzip = createGunzip({ chunkSize: Math.max(64, chunk) });
    raw.on('error', (e) => gunzip.destroy(e));
    input = raw.pipe(gunzip);
  }
  input.setEncoding('utf8');
  let rest = '';
  let n = 0;
  try {
    for await (const piece of input as AsyncIterable<string>) {
      const text = rest.length > 0 ? rest + piece : piece;
      const out: NumberedLine[] = [];
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
        out.push({ text: text.slice(start, end), line: ++n });
        start = nl + 1;
      }
      rest = text.slice(start);
      if (rest.length > MAX_LINE_CHARS) throw new ReplayFormatError({ file, line: n + 1 }, `line longer than ${MAX_LINE_CHARS} characters`);
      if (out.length > 0) yield out;
    }
  } catch (err) {
    if (err instanceof ReplayFormatError) throw err;
    throw ioError(err, { file, line: n + 1 });
  } finally {
    raw.destroy();
    if (input !== raw) input.destroy();
  }
  if (rest.length > 0) yield [{ text: rest.endsWith('\r') ? rest.slice(0, -1) : rest, line: ++n }];
}
