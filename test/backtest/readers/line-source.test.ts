import { constants, deflateRawSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { lineReader } from '../../../backtest/readers/line-reader.js';
import { type NumberedLine, type ReadSizes, byteLineEnd, readByteBlocks, readByteSpans, readLineChunks } from '../../../backtest/readers/line-source.js';
import { openRexbotRecording, recordingParser } from '../../../backtest/readers/rexbot.js';
import type { MarketEvent, ReaderOpenOptions } from '../../../backtest/readers/index.js';
import { Prng } from '../../sync/prng.js';
import { tempFiles } from './read-helpers.js';
import { streamLines } from './stream-lines.js';

/** Every line a line source gives, and the error it ends with (its message), if any. */
async function collect(lines: AsyncIterable<NumberedLine[]>): Promise<{ lines: NumberedLine[]; error?: string }> {
  const out: NumberedLine[] = [];
  try {
    for await (const chunk of lines) out.push(...chunk);
  } catch (err) {
    return { lines: out, error: (err as Error).message };
  }
  return { lines: out };
}

/** The lines of byte blocks, each decoded on its own as the line reader decodes a line its parser leaves to `line`. */
async function* decodedLines(path: string, sizes?: ReadSizes): AsyncGenerator<NumberedLine[], void, undefined> {
  for await (const { bytes, view, first, count, ends } of readByteBlocks(path, path, sizes)) {
    expect([view.byteLength, view.getUint8(0)]).toEqual([bytes.length, bytes[0]]);
    const out: NumberedLine[] = [];
    let start = 0;
    for (let k = 0; k < count; k++) {
      const nl = ends[k]!;
      out.push({ text: bytes.toString('utf8', start, byteLineEnd(bytes, start, nl)), line: first + k });
      start = nl + 1;
    }
    yield out;
  }
}

/** The lines of byte spans, their ends found by the caller (as the line reader's byte path finds them). */
async function* spanLines(path: string, sizes?: ReadSizes): AsyncGenerator<NumberedLine[], void, undefined> {
  for await (const span of readByteSpans(path, path, sizes)) {
    const { bytes, view, first } = span;
    expect([view.byteLength, view.getUint8(0)]).toEqual([bytes.length, bytes[0]]);
    const out: NumberedLine[] = [];
    let k = 0;
    for (let start = 0; start < bytes.length; k++) {
      let nl = bytes.indexOf(10, start);
      if (nl < 0) nl = bytes.length;
      out.push({ text: bytes.toString('utf8', start, byteLineEnd(bytes, start, nl)), line: first + k });
      start = nl + 1;
    }
    span.count = k;
    yield out;
  }
}

/** Random text lines: ASCII, 2-, 3- and 4-byte characters, CRs, empty and long lines, and sometimes no last newline. */
function randomFile(rng: Prng, lines: number): string {
  const pieces = ['{"t":1,"name":"x"}', 'a', 'é', '€', '😀', '\r', ',', '0.5', ' ', 'ü€😀x'];
  const out: string[] = [];
  for (let k = 0; k < lines; k++) {
    let line = '';
    const len = rng.chance(0.05) ? 100 + rng.int(400) : rng.int(12);
    for (let i = 0; i < len; i++) line += rng.pick(pieces);
    out.push(line + (rng.chance(0.3) ? '\r' : ''));
  }
  return out.join('\n') + (rng.chance(0.5) ? '\n' : '');
}

/** `lines` gzipped as the recording writer writes them: a sync flush after every few lines. */
function syncFlushedGzip(lines: string[]): Buffer {
  const out: Buffer[] = [];
  for (let k = 0; k < lines.length; k += 7) out.push(deflateRawSync(lines.slice(k, k + 7).join(''), { finishFlush: constants.Z_SYNC_FLUSH }));
  return Buffer.concat([GZIP_HEADER, ...out]);
}
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** Sizes that put read and piece boundaries everywhere, the real ones included. */
const SIZES: (ReadSizes | undefined)[] = [
  { read: 1, piece: 1 }, { read: 3, piece: 2 }, { read: 7, piece: 64 }, { read: 64, piece: 5 }, { read: 1000, piece: 100 }, { read: 4096, piece: 4096 }, undefined,
];

describe('line source (blocks of lines decoded per piece)', () => {
  const tmp = tempFiles();
  afterEach(() => tmp.cleanup());

  it('gives exactly the lines the stream reader gave, plain and gzipped, wherever reads and pieces end', async () => {
    const rng = new Prng(11);
    for (let k = 0; k < 12; k++) {
      const text = k === 0 ? '' : k === 1 ? '\n\n\r\n' : k === 2 ? 'no newline at all\r' : randomFile(rng, 1 + rng.int(60));
      for (const name of ['f.txt', 'f.txt.gz']) {
        const path = tmp.write(name, text);
        const want = await collect(streamLines(path));
        expect(want.error).toBeUndefined();
        for (const sizes of SIZES) expect(await collect(readLineChunks(path, path, sizes)), `${k} ${name} ${JSON.stringify(sizes)}`).toEqual(want);
        for (const sizes of SIZES) expect(await collect(decodedLines(path, sizes)), `bytes ${k} ${name} ${JSON.stringify(sizes)}`).toEqual(want);
        for (const sizes of SIZES) expect(await collect(spanLines(path, sizes)), `spans ${k} ${name} ${JSON.stringify(sizes)}`).toEqual(want);
      }
    }
  });

  it('decodes bytes that are not UTF-8 as the stream reader did', async () => {
    const rng = new Prng(5);
    const bytes = [0x41, 0x0a, 0x0d, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xff, 0x80, 0xc3, 0xe2, 0xf0];
    for (let k = 0; k < 40; k++) {
      const buf = Buffer.from(Array.from({ length: 1 + rng.int(200) }, () => rng.pick(bytes)));
      const path = tmp.write('bad.txt', buf);
      // Chunks of 1 byte too: the stream's decoder then carries every multi-byte character over.
      const want = await collect(streamLines(path));
      expect(await collect(streamLines(path, path, 1))).toEqual(want);
      for (const sizes of SIZES) expect(await collect(readLineChunks(path, path, sizes)), `${buf.toString('hex')} ${JSON.stringify(sizes)}`).toEqual(want);
      for (const sizes of SIZES) expect(await collect(decodedLines(path, sizes)), `bytes ${buf.toString('hex')} ${JSON.stringify(sizes)}`).toEqual(want);
    }
  });

  it('fails at the line being read, after every complete line before it: damaged gzip, missing file', async () => {
    const text = randomFile(new Prng(3), 400);
    const gz = gzipSync(text);
    gz[gz.length - 6] = gz[gz.length - 6]! ^ 0xff; // the CRC does not match: damaged, not cut off (that is the next test's)
    const path = tmp.write('damaged.txt.gz', gz);
    // Lines come out complete and in order up to the damage (how many depends on where reads end); then the error.
    const { lines } = await collect(streamLines(tmp.write('whole.txt.gz', text)));
    for (const read of [(s?: ReadSizes) => readLineChunks(path, path, s), (s?: ReadSizes) => decodedLines(path, s)]) {
      for (const sizes of SIZES) {
        const got = await collect(read(sizes));
        expect(got.lines).toEqual(lines.slice(0, got.lines.length));
        expect(got.error).toBe(`${path}:${got.lines.length + 1}: damaged gzip data: incorrect data check`);
      }
    }
    const none = `${tmp.dir}/none.txt`;
    expect(await collect(readLineChunks(none))).toEqual({ lines: [], error: `${none}:1: no such file` });
    // A directory opens; reading it fails, and that too names the path.
    expect(await collect(readLineChunks(tmp.dir))).toEqual({ lines: [], error: `${tmp.dir}:1: is a directory, not a file` });
  });

  it('gives every complete line of a gzip file cut off mid-stream, then says where it was cut', async () => {
    // As the recorder writes: sync-flushed every few lines, so a cut anywhere leaves the lines before it readable.
    const text = randomFile(new Prng(8), 300);
    const whole = syncFlushedGzip(text.split(/(?<=\n)/));
    for (const at of [5, 10, 11, Math.floor(whole.length / 3), Math.floor(whole.length / 2) + 1, whole.length - 9, whole.length - 8, whole.length - 1]) {
      const path = tmp.write('cut.txt.gz', whole.subarray(0, at));
      // What the cut leaves: all the data inflated up to it; the lines are those a newline ends.
      const sofar = at < 10 ? '' : gunzipSync(whole.subarray(0, at), { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
      const complete = sofar.slice(0, sofar.lastIndexOf('\n') + 1);
      const lines = complete === '' ? [] : complete.slice(0, -1).split('\n').map((l, k) => ({ text: l.endsWith('\r') ? l.slice(0, -1) : l, line: k + 1 }));
      const torn = sofar.length > complete.length;
      const n = lines.length;
      const error = `${path}:${n + 1}: cut off mid-stream (the gzip data stops without its end, as when a recorder is killed); `
        + `${n > 0 ? `line ${n} is the last complete line` : 'not even line 1 is complete'}: onBadLine: skip reads up to it`;
      for (const sizes of SIZES) {
        const got = await collect(readLineChunks(path, path, sizes));
        expect(got, `cut at ${at}/${whole.length} ${JSON.stringify(sizes)}`).toEqual({ lines, error });
      }
      const e = await (async () => {
        for await (const _ of readByteBlocks(path)) void _;
      })().then(() => undefined, (err: unknown) => err);
      expect(e).toMatchObject({ lastLine: n, torn, line: n + 1 });
    }
  });

  it('refuses a line longer than the limit in bytes, multi-byte characters counted as bytes, after the lines before it', async () => {
    // 600 characters of 2 bytes each: 1200 bytes, over a limit of 1000 bytes though under 1000 characters. Counted in
    // characters, the limit joined and decoded the whole line after every read once it passed the limit in bytes
    // (a 300 MB line of é without a newline took two minutes and 500 MB before it was refused).
    const text = `first\nsecond\n${'é'.repeat(600)}`;
    for (const name of ['long.txt', 'long.txt.gz']) {
      const path = tmp.write(name, text);
      for (const sizes of [{ read: 64, piece: 16, maxLine: 1000 }, { read: 100, piece: 100, maxLine: 1000 }]) {
        for (const read of [(s: ReadSizes) => readLineChunks(path, path, s), (s: ReadSizes) => decodedLines(path, s)]) {
          expect(await collect(read(sizes)), `${name} ${JSON.stringify(sizes)}`).toEqual({
            lines: [{ text: 'first', line: 1 }, { text: 'second', line: 2 }],
            error: `${path}:3: line longer than 1000 bytes, which no line of a data file comes near: is it a file of this format?`,
          });
        }
      }
    }
  });

  it('skips a UTF-8 byte order mark at the start of the file, wherever reads end', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const text = 'héader\r\nrow 1\nrow 2';
    const lines = [{ text: 'héader', line: 1 }, { text: 'row 1', line: 2 }, { text: 'row 2', line: 3 }];
    for (const name of ['bom.txt', 'bom.txt.gz']) {
      const body = Buffer.concat([bom, Buffer.from(text)]);
      const path = tmp.write(name, name.endsWith('.gz') ? gzipSync(body) : body);
      for (const sizes of SIZES) {
        expect(await collect(readLineChunks(path, path, sizes)), `${name} ${JSON.stringify(sizes)}`).toEqual({ lines });
        expect(await collect(spanLines(path, sizes)), `spans ${name} ${JSON.stringify(sizes)}`).toEqual({ lines });
      }
    }
    // Only at the start, and only whole: elsewhere, or a file shorter than one, is data like any other.
    const later = tmp.write('later.txt', Buffer.concat([Buffer.from('a\n'), bom, Buffer.from('b')]));
    expect(await collect(readLineChunks(later, later, { read: 1, piece: 1 }))).toEqual({ lines: [{ text: 'a', line: 1 }, { text: '\ufeffb', line: 2 }] });
    const part = tmp.write('part.txt', bom.subarray(0, 2));
    expect(await collect(readLineChunks(part, part, { read: 1, piece: 1 }))).toEqual({ lines: [{ text: '\ufffd', line: 1 }] });
  });
});

describe('line reader over blocks', () => {
  const tmp = tempFiles();
  afterEach(() => tmp.cleanup());

  /** The events (as text) and errors of a rexbot reader: over blocks (the default) or over the stream reader. */
  async function read(path: string, opts: ReaderOpenOptions, stream: boolean): Promise<{ events: string[]; errors: string[]; end?: string; summary: unknown }> {
    const errors: string[] = [];
    const reader = stream
      ? lineReader(path, { ...opts, onError: (e) => errors.push(e.message) }, recordingParser, path, (p, f) => streamLines(p, f))
      : openRexbotRecording(path, { ...opts, onError: (e) => errors.push(e.message) });
    const events: string[] = [];
    try {
      for await (const batch of reader.batches()) events.push(...batch.map((e: MarketEvent) => JSON.stringify(e)));
    } catch (err) {
      return { events, errors, end: (err as Error).message, summary: reader.summary() };
    }
    return { events, errors, summary: reader.summary() };
  }

  it('reads a recording with CRLF, blank, bad and multi-byte lines into the same events and errors', async () => {
    const rng = new Prng(9);
    const header = '{"format":"rexbot-recording","version":1,"startedAt":1,"channels":[],"source":{"hub":"h","rest":"r","transport":"classic"}}';
    const lines = [header];
    for (let k = 0; k < 30_000; k++) {
      const t = 1_709_251_200_000 + k;
      const r = rng.int(20);
      lines.push(
        r === 0 ? ''
        : r === 1 ? `{"t":${t},"name":"orderBook","payload":{"marketSymbol"`
        : r === 2 ? `{"t":${t},"name":"orderBook","payload":{"marketSymbol":"BTC-€UR","depth":25,"sequence":${k},"bidDeltas":[],"askDeltas":[{"quantity":"1","rate":"2"}]}}\r`
        : r < 6 ? `{"t":${t},"name":"trade","payload":{"sequence":${k},"marketSymbol":"BTC-USD","deltas":[{"id":"i${k}","executedAt":"2024-03-01T00:0${rng.int(10)}:${10 + rng.int(50)}.${100 + rng.int(900)}Z","quantity":"0.${rng.int(1e6)}","rate":"${30_000 + rng.int(100)}","takerSide":"BUY"}]}}`
        : `{"t":${t},"name":"orderBook","payload":{"marketSymbol":"BTC-USD","depth":500,"sequence":${k},"bidDeltas":[{"quantity":"${rng.int(5)}.${rng.int(1e4)}","rate":"${29_900 + rng.int(100)}"}],"askDeltas":[]}}${r === 6 ? '\r' : ''}`,
      );
    }
    const text = lines.join('\n');
    for (const name of ['rec.jsonl', 'rec.jsonl.gz']) {
      const path = tmp.write(name, name.endsWith('.gz') ? gzipSync(text) : text);
      for (const onBadLine of ['skip', 'fail'] as const) {
        const blocks = await read(path, { onBadLine }, false);
        const stream = await read(path, { onBadLine }, true);
        if (onBadLine === 'skip') expect([blocks.events.length > 25_000, blocks.errors.length > 1000]).toEqual([true, true]);
        else expect(blocks.end).toMatch(/rec\.jsonl(\.gz)?:\d+: not JSON/);
        expect(blocks).toEqual(stream);
      }
    }
  });
});
