/**
 * The one place the readers touch the disk: a file (plain, or gzip detected by its magic bytes) read as numbered
 * text lines in chunks, never whole. Lines are handed out per chunk so a reader parses thousands of lines between
 * two awaits; memory holds one chunk and at most one partial line.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { type LineRef, ReplayFormatError } from '../../src/sim/driver/replay-error.js';

/** The longest line a reader accepts: far above any real line (a 500-level REST snapshot is ~20 KB). */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;

/** One text line of a file, without its `\n` (or `\r\n`), with its 1-based number. */
export interface NumberedLine {
  text: string;
  line: number;
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
 * The lines of `path`, in chunks of consecutive lines (empty lines included, so numbering is exact). A gzipped
 * file is inflated on the fly. A missing file, a read error or damaged gzip data is a {@link ReplayFormatError}
 * at the line being read when it happened, raised after every complete line before it was delivered.
 *
 * @example
 * for await (const chunk of readLineChunks('trades.csv.gz', 'trades.csv.gz')) for (const l of chunk) parse(l.text, l.line);
 */
export async function* readLineChunks(path: string, file: string = path): AsyncGenerator<NumberedLine[], void, undefined> {
  const gzip = await isGzipFile(path, file);
  const raw = createReadStream(path, { highWaterMark: 64 * 1024 });
  let input: Readable = raw;
  if (gzip) {
    const gunzip = createGunzip();
    raw.on('error', (e) => gunzip.destroy(e));
    input = raw.pipe(gunzip);
  }
  input.setEncoding('utf8');
  let rest = '';
  let n = 0;
  try {
    for await (const chunk of input as AsyncIterable<string>) {
      const text = rest.length > 0 ? rest + chunk : chunk;
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
