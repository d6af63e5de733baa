/**
 * Reading a journal a chunk at a time (journal-lines.ts, journal-parse.ts): the lines are the same whatever the
 * chunk boundaries, a file read in chunks means exactly what its text meant when it was read whole (torn tail,
 * corrupt line, blank lines, CRLF), a line too long is refused naming file and line, and a journal longer than
 * the longest string V8 can make still opens.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, closeSync, constants, ftruncateSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { Journal, JournalCorruptError, parseJournal, readJournal, readJournalAsync, scanJournal } from '../../src/orders/journal.js';
import { JournalLineSplitter } from '../../src/orders/journal-lines.js';
import { encodeRecord, type JournalRecord } from '../../src/orders/journal-records.js';
import { journalReportInput } from '../../backtest/report/journal-report.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rexbot-journal-lines-'));
  path = join(dir, 'bot.journal');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

type Told = { line: string; lineNo: number; last: boolean } | { tooLong: number; lineNo: number; last: boolean };

/** The lines `chunks` split into, and the bytes before the unterminated last line. */
function split(chunks: Buffer[], maxLineBytes?: number): { told: Told[]; completeBytes: number } {
  const told: Told[] = [];
  const splitter = new JournalLineSplitter(
    { line: (line, lineNo, last) => told.push({ line, lineNo, last }), tooLong: (lineNo, last, bytes) => told.push({ tooLong: bytes, lineNo, last }) },
    maxLineBytes,
  );
  for (const c of chunks) {
    // The caller reuses its read buffer: the splitter must have copied what it keeps.
    const reused = Buffer.from(c);
    splitter.push(reused);
    reused.fill(0x23);
  }
  splitter.end();
  return { told, completeBytes: splitter.completeBytes };
}

/** `bytes` cut into chunks of `size`. */
function chunked(bytes: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

const lost = (id: string, at = 1): string => encodeRecord({ t: 'lost', at, id });
const order = (id: string): JournalRecord => ({
  t: 'order',
  at: 1,
  clientOrderId: id,
  strategy: 'mm',
  intentKey: 'k',
  role: 'order',
  order: { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.5'), limit: dec('30000'), clientOrderId: id },
});

describe('JournalLineSplitter', () => {
  it('gives the same lines at every chunk boundary, a record split across two chunks included (multi-byte characters too)', () => {
    const text = `${lost('a')}\n${lost('é€😀 b')}\n\n${lost('c')}\n`;
    const bytes = Buffer.from(text, 'utf8');
    const whole = split([bytes]);
    expect(whole.told).toEqual([
      { line: lost('a'), lineNo: 1, last: false },
      { line: lost('é€😀 b'), lineNo: 2, last: false },
      { line: '', lineNo: 3, last: false },
      { line: lost('c'), lineNo: 4, last: false },
    ]);
    expect(whole.completeBytes).toBe(bytes.length);
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(split([bytes.subarray(0, cut), bytes.subarray(cut)]), `cut at byte ${cut}`).toEqual(whole);
    }
    for (let size = 1; size <= 9; size++) expect(split(chunked(bytes, size)), `chunks of ${size}`).toEqual(whole);
  });

  it('keeps the CR of a CRLF line (as the file has it), whether or not the CR and LF share a chunk', () => {
    const bytes = Buffer.from(`${lost('a')}\r\n${lost('b')}\r\n`);
    const expected = [
      { line: `${lost('a')}\r`, lineNo: 1, last: false },
      { line: `${lost('b')}\r`, lineNo: 2, last: false },
    ];
    const cr = bytes.indexOf('\r');
    expect(split([bytes.subarray(0, cr + 1), bytes.subarray(cr + 1)]).told).toEqual(expected);
    for (let size = 1; size <= 5; size++) expect(split(chunked(bytes, size)).told).toEqual(expected);
  });

  it('tells an unterminated last line as last, after the bytes before it', () => {
    const bytes = Buffer.from(`${lost('a')}\n{"t":"lost","at":2,"i`);
    for (let size = 1; size <= bytes.length; size += 3) {
      const { told, completeBytes } = split(chunked(bytes, size));
      expect(told).toEqual([
        { line: lost('a'), lineNo: 1, last: false },
        { line: '{"t":"lost","at":2,"i', lineNo: 2, last: true },
      ]);
      expect(completeBytes).toBe(lost('a').length + 1);
    }
  });

  it('an empty file has no lines', () => {
    expect(split([])).toEqual({ told: [], completeBytes: 0 });
    expect(split([Buffer.alloc(0)])).toEqual({ told: [], completeBytes: 0 });
  });

  it('tells a line longer than the maximum without gathering its text, whether in the middle or last', () => {
    const long = 'x'.repeat(50);
    const bytes = Buffer.from(`${lost('a')}\n${long}\n${lost('b')}\n${long}`);
    for (const size of [1, 7, 32]) {
      expect(split(chunked(bytes, size), 40).told).toEqual([
        { line: lost('a'), lineNo: 1, last: false },
        { tooLong: 50, lineNo: 2, last: false },
        { line: lost('b'), lineNo: 3, last: false },
        { tooLong: 50, lineNo: 4, last: true },
      ]);
    }
  });
});

describe('reading a journal file in chunks', () => {
  /** Texts whose reading decides something: each is read in chunks as parseJournal reads it whole. */
  const texts: Record<string, string> = {
    empty: '',
    plain: `${lost('a')}\n${lost('b')}\n`,
    'torn tail': `${lost('a')}\n${lost('b')}\n{"t":"lost","at":3,"id":"c`,
    'torn tail, multi-byte': `${lost('a')}\n{"t":"lost","at":3,"id":"€€`,
    'only a torn line': '{"t":"lo',
    'complete record without its newline': `${lost('a')}\n${lost('b')}`,
    'blank lines and a blank last line': `\n${lost('a')}\n  \n\n${lost('b')}\n \t`,
    CRLF: `${lost('a')}\r\n${lost('b')}\r\n`,
    'CRLF, torn tail': `${lost('a')}\r\n{"t":`,
    'non-ASCII ids': `${lost('ä€😀')}\n${encodeRecord(order('ø-1'))}\n`,
  };

  for (const [name, text] of Object.entries(texts)) {
    it(`reads "${name}" as its text is parsed, in chunks of any size`, async () => {
      writeFileSync(path, text);
      const expected = { ...parseJournal(path, text), bytes: Buffer.byteLength(text) };
      for (const chunkBytes of [1, 2, 3, 5, 8, 13, 4 * 2 ** 20]) {
        expect(readJournal(path, { chunkBytes }), `chunks of ${chunkBytes}`).toEqual(expected);
        expect(await readJournalAsync(path, { chunkBytes }), `async, chunks of ${chunkBytes}`).toEqual(expected);
      }
    });
  }

  it('a corrupt line in the middle is the same error naming file and line, in chunks of any size', async () => {
    const text = `${lost('a')}\n${lost('b')}\nnot json at all\n${lost('c')}\n`;
    writeFileSync(path, text);
    const expected = (() => {
      try {
        parseJournal(path, text);
      } catch (e) {
        return e as JournalCorruptError;
      }
      throw new Error('parseJournal accepted a corrupt line');
    })();
    expect(expected.message).toContain(`${path}:3:`);
    for (const chunkBytes of [1, 4, 16]) {
      expect(() => readJournal(path, { chunkBytes })).toThrow(expected.message);
      await expect(readJournalAsync(path, { chunkBytes })).rejects.toThrow(expected.message);
      expect(() => Journal.open(path, { read: { chunkBytes } })).toThrow(JournalCorruptError);
    }
  });

  it('Journal.open in tiny chunks: every record crosses a chunk boundary, the torn tail is cut, appends start clean', async () => {
    const j = Journal.open(path);
    for (let i = 0; i < 20; i++) j.append(order(`c${i}`));
    j.close();
    appendFileSync(path, '{"t":"fill","at":3,"id":"c1","orderId":"o1","execu');
    const warnings: string[] = [];
    const again = Journal.open(path, { read: { chunkBytes: 7 }, onWarning: (w) => warnings.push(w) });
    expect(again.replayed.map((r) => (r.t === 'order' ? r.clientOrderId : r.t))).toEqual(Array.from({ length: 20 }, (_, i) => `c${i}`));
    expect(warnings).toEqual([expect.stringMatching(/bot\.journal:21: ignoring a torn last line \(50 bytes/)]);
    await again.appendDurable({ t: 'lost', at: 2, id: 'x' });
    again.close();
    const third = Journal.open(path, { read: { chunkBytes: 3 } });
    expect(third.replayed).toHaveLength(21);
    expect(third.warnings).toEqual([]);
    expect(third.size.bytes).toBe(statSync(path).size);
    third.close();
  });

  it('a line longer than the longest record is refused naming file and line, not gathered into an ever larger buffer', () => {
    writeFileSync(path, `${lost('a')}\n{"t":"lost","at":2,"id":"${'b'.repeat(200)}"}\n${lost('c')}\n`);
    expect(() => Journal.open(path, { read: { chunkBytes: 16, maxLineBytes: 100 } })).toThrow(/bot\.journal:2: a line of 2\d\d bytes, longer than any record can be \(at most 100\)/);
    // The same file with room for the line: it is a record.
    expect(Journal.open(path, { read: { chunkBytes: 16, maxLineBytes: 1000 } }).replayed).toHaveLength(3);
  });

  it('rexbot report reads the journal in chunks as it does whole', async () => {
    writeFileSync(path, `${encodeRecord(order('c1'))}\n${encodeRecord({ t: 'ack', at: 2, id: 'c1', orderId: 'o1' })}\n{"t":"clo`);
    const whole = await journalReportInput(path);
    expect(await journalReportInput(path, { read: { chunkBytes: 5 } })).toEqual(whole);
    expect(whole.orders.map((o) => o.clientOrderId)).toEqual(['c1']);
    expect(whole.journalWarnings).toContainEqual(expect.stringMatching(/bot\.journal:3: ignoring a torn last line/));
  });

  it('a journal longer than the longest string V8 makes still opens: a crash left a tail of zeros, which is cut off', async () => {
    const text = `${encodeRecord(order('c1'))}\n${lost('c2')}\n`;
    writeFileSync(path, text);
    // A zero-filled tail (what a power loss can leave after the last flushed block) as a hole: no disk used.
    const fd = openSync(path, 'r+');
    ftruncateSync(fd, 513 * 2 ** 20);
    closeSync(fd);
    const report = await journalReportInput(path);
    expect(report.orders.map((o) => o.clientOrderId)).toEqual(['c1']);
    expect(report.journalWarnings).toContainEqual(expect.stringMatching(/bot\.journal:3: ignoring a torn last line/));
    const warnings: string[] = [];
    const j = Journal.open(path, { onWarning: (w) => warnings.push(w) });
    expect(j.replayed.map((r) => r.t)).toEqual(['order', 'lost']);
    expect(warnings).toEqual([expect.stringMatching(/bot\.journal:3: ignoring a torn last line/)]);
    expect(statSync(path).size).toBe(Buffer.byteLength(text));
    j.close();
    expect(readFileSync(path, 'utf8')).toBe(text);
  });
});

describe('a journal that starts with a UTF-8 byte order mark (saved from a Windows editor)', () => {
  const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
  const text = `${encodeRecord(order('c1'))}\n${encodeRecord({ t: 'ack', at: 2, id: 'c1', orderId: 'o1' })}\n`;
  const withBom = (body: string): Buffer => Buffer.concat([BOM, Buffer.from(body)]);

  it('the splitter drops it from the first line, however the first bytes are chunked, and still counts its bytes', () => {
    const bytes = withBom(text);
    const plain = split([Buffer.from(text)]);
    for (let size = 1; size <= 5; size++) {
      expect(split(chunked(bytes, size)), `chunks of ${size}`).toEqual({ told: plain.told, completeBytes: bytes.length });
    }
  });

  it('rexbot report reads it as the same journal without the mark', async () => {
    writeFileSync(path, text);
    const plain = await journalReportInput(path);
    writeFileSync(path, withBom(text));
    for (const chunkBytes of [1, 2, 4 * 2 ** 20]) expect(await journalReportInput(path, { read: { chunkBytes } }), `chunks of ${chunkBytes}`).toEqual(plain);
    expect(plain.orders.map((o) => o.clientOrderId)).toEqual(['c1']);
  });

  it('a bot opens it (Journal.open, scanJournal), appends after it, and opens it again', async () => {
    writeFileSync(path, withBom(text));
    for (const chunkBytes of [1, 2, 4 * 2 ** 20]) {
      const seen: string[] = [];
      expect(scanJournal(path, (r) => seen.push(r.t), { chunkBytes })).toMatchObject({ records: 2, goodBytes: BOM.length + text.length, terminated: true });
      expect(seen).toEqual(['order', 'ack']);
    }
    const j = Journal.open(path, { read: { chunkBytes: 2 } });
    expect(j.replayed.map((r) => r.t)).toEqual(['order', 'ack']);
    expect(j.warnings).toEqual([]);
    await j.appendDurable(JSON.parse(lost('x')) as JournalRecord);
    j.close();
    const again = Journal.open(path);
    expect(again.replayed.map((r) => r.t)).toEqual(['order', 'ack', 'lost']);
    expect(again.size.bytes).toBe(statSync(path).size);
    again.close();
    // The mark stays where the user's editor put it: the bot only appends.
    expect(readFileSync(path).subarray(0, 3)).toEqual(BOM);
  });

  it('anywhere but the first byte it is data: a line starting with it is corrupt, naming file and line', async () => {
    writeFileSync(path, Buffer.concat([Buffer.from(`${lost('a')}\n`), withBom(`${lost('b')}\n${lost('c')}\n`)]));
    expect(() => Journal.open(path)).toThrow(new RegExp(`bot\\.journal:2: `));
    await expect(journalReportInput(path)).rejects.toThrow(/bot\.journal:2: /);
    writeFileSync(path, Buffer.concat([BOM, withBom(text)]));
    expect(() => Journal.open(path)).toThrow(/bot\.journal:1: /);
  });
});

describe('rexbot report: what is not a journal file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rexbot-journal-kind-'));
  });
  afterEach(() => {
    // A reader stuck opening the FIFO (as before the fix) is freed by a writer coming and going.
    const fifo = join(dir, 'fifo.jsonl');
    try {
      closeSync(openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK));
    } catch {
      // no FIFO in this test
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a FIFO before waiting for a writer, naming it', async () => {
    const fifo = join(dir, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    await expect(journalReportInput(fifo)).rejects.toThrow(`${fifo}: is a FIFO (named pipe), not a journal file`);
  });

  it('refuses a directory and a gzipped journal, naming the file and what it is', async () => {
    await expect(journalReportInput(dir)).rejects.toThrow(`${dir}: is a directory, not a journal file`);
    const gz = join(dir, 'bot.jsonl.gz');
    writeFileSync(gz, gzipSync('{"t":"sent","at":1,"id":"x","attempt":1}\n'));
    await expect(journalReportInput(gz)).rejects.toThrow(`${gz}: is gzip-compressed; a journal is read as the bot writes it, plain JSON lines: gunzip it first`);
  });
});
