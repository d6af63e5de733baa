/**
 * Reading a plain text file backwards, last line first, in fixed-size chunks from its end: how a newest-first
 * candle file of any size is replayed oldest first in constant memory (one chunk and one partial line). Line
 * numbers are the file's own (a first pass counts the lines, at disk speed, without keeping any).
 */
import { openDataFile } from './file-bytes.js';
import type { NumberedLine, ReadMeter } from './line-source.js';
import { ioError, MAX_LINE_BYTES, tooLongReason } from './line-source.js';
import { ReplayFormatError } from '../../src/sim/driver/replay-error.js';

const CHUNK = 256 * 1024;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The lines of `path` from last to first, in chunks, each with its 1-based number; lines numbered `< from` are
 * left out (e.g. `from: 2` leaves the header out). Plain files only: gzip cannot be read backwards.
 *
 * @example
 * for await (const chunk of readLinesBackwards('candles.desc.csv', 'candles.desc.csv', 2)) for (const l of chunk) use(l);
 */
export async function* readLinesBackwards(path: string, file: string = path, from = 1, meter?: ReadMeter): AsyncGenerator<NumberedLine[], void, undefined> {
  // Opened as every reader opens its file (a regular file, checked on the descriptor it is read through).
  const { handle, size } = await openDataFile(path, file);
  try {
    if (meter) meter.total = size;
    const buf = Buffer.allocUnsafe(CHUNK);
    // The final newline ends the last line; it does not start another.
    let end = size;
    if (size > 0 && (await handle.read(buf, 0, 1, size - 1)).buffer[0] === 0x0a) end = size - 1;
    // A UTF-8 byte order mark at the start is no part of line 1, as when the file is read forwards (file-bytes.ts):
    // the text begins after it.
    const begin = size >= BOM.length && (await handle.read(buf, 0, BOM.length, 0)).buffer.subarray(0, BOM.length).equals(BOM) ? BOM.length : 0;
    let lines = end > begin ? 1 : 0;
    for (let pos = begin; pos < end; pos += CHUNK) {
      const { bytesRead } = await handle.read(buf, 0, Math.min(CHUNK, end - pos), pos);
      for (let i = buf.indexOf(0x0a, 0); i >= 0 && i < bytesRead; i = buf.indexOf(0x0a, i + 1)) lines++;
    }
    let line = lines;
    let carry: Buffer = Buffer.alloc(0);
    let pos = end;
    while (pos > begin && line >= from) {
      const start = Math.max(begin, pos - CHUNK);
      const chunk = Buffer.allocUnsafe(pos - start);
      await handle.read(chunk, 0, chunk.length, start);
      if (meter) meter.read += chunk.length;
      const text = carry.length > 0 ? Buffer.concat([chunk, carry]) : chunk;
      const out: NumberedLine[] = [];
      let stop = text.length;
      for (let nl = stop > 0 ? text.lastIndexOf(0x0a, stop - 1) : -1; nl >= 0; nl = stop > 0 ? text.lastIndexOf(0x0a, stop - 1) : -1) {
        if (line >= from) out.push({ text: stripCr(text.toString('utf8', nl + 1, stop)), line });
        line--;
        stop = nl;
      }
      carry = Buffer.from(text.subarray(0, stop));
      if (carry.length > MAX_LINE_BYTES) throw new ReplayFormatError({ file, line }, tooLongReason(MAX_LINE_BYTES));
      pos = start;
      if (out.length > 0) yield out;
    }
    if (pos === begin && line >= from && line === 1) yield [{ text: stripCr(carry.toString('utf8')), line: 1 }];
    // Done with the file: what was not read backwards (the lines before `from`, the final newline) is read.
    if (meter) meter.read = size;
  } catch (err) {
    if (err instanceof ReplayFormatError) throw err;
    throw ioError(err, { file, line: 1 });
  } finally {
    await handle.close();
  }
}

function stripCr(s: string): string {
  return s.endsWith('\r') ? s.slice(0, -1) : s;
}
