/**
 * A journal's size never becomes the bot's memory, one string or one Buffer: opening keeps no records (the fold is
 * built while reading), a compaction whose output is longer than the longest string V8 makes is written in chunks,
 * and the history copy of a journal larger than Node reads into one Buffer (2 GiB) is streamed.
 *
 * The files are generated (a block of records repeated, a sparse hole) and deleted after each test. The
 * compaction and history cases write ~0.5 and 2 GiB to disk: a few seconds each on a 2-core machine.
 */
import { closeSync, existsSync, ftruncateSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { constants } from 'node:buffer';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { compactionTempPath, Journal, scanJournal } from '../../src/orders/journal.js';
import { appendHistory } from '../../src/orders/journal-fs.js';
import { encodeRecord, type JournalRecord } from '../../src/orders/journal-records.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rexbot-journal-large-'));
  path = join(dir, 'bot.journal');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const MiB = 2 ** 20;
const order = (id: string, intentKey = 'k'): JournalRecord => ({
  t: 'order',
  at: 1,
  clientOrderId: id,
  strategy: 'mm',
  intentKey,
  role: 'order',
  order: { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.5'), limit: dec('30000'), clientOrderId: id },
});
const limits = (at: number): JournalRecord => ({
  t: 'limits',
  at,
  curve: { at, equity: dec('1000.5'), peak: dec('1001'), maxDrawdown: dec('3.25'), day: 19_800, dayOpen: dec('990') },
  risk: { peak: dec('1001'), day: 19_800, state: 'ACTIVE', reason: 'started' },
});

/** The `length` bytes at `offset` of `file`, as text. */
function bytesAt(file: string, offset: number, length: number): string {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(length);
    readSync(fd, buf, 0, length, offset);
    return buf.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

describe('a very large journal', () => {
  it('opens holding its fold, not its records: a 32 MiB journal of 280k records leaves under 8 MiB on the heap', () => {
    // One open order, then what a long run writes about it over and over: retries and limits records.
    const block = Buffer.from(
      Array.from({ length: 1000 }, (_, i) => `${encodeRecord({ t: 'sent', at: i, id: 'c1', attempt: i + 1 })}\n${encodeRecord(limits(i))}\n`).join(''),
    );
    const fd = openSync(path, 'w');
    writeSync(fd, `${encodeRecord(order('c1'))}\n`);
    const blocks = Math.ceil((32 * MiB) / block.length);
    for (let b = 0; b < blocks; b++) writeSync(fd, block);
    closeSync(fd);

    gc();
    const before = process.memoryUsage().heapUsed;
    const j = Journal.open(path);
    gc();
    const held = process.memoryUsage().heapUsed - before;
    // Every record kept, as before, held ~117 MiB here (3.6 bytes of heap per byte of file).
    expect(held, `heap held after open: ${(held / MiB).toFixed(1)} MiB`).toBeLessThan(8 * MiB);
    expect(j.size).toEqual({ records: 1 + blocks * 2000, bytes: statSync(path).size });
    const state = j.takeStateAtOpen();
    expect(state.get('c1')).toMatchObject({ status: 'sent', attempts: 1000 });
    expect(state.limits).toEqual(limits(999));
    j.close();
  });

  it('compacts to more than the longest string V8 makes (52 orders of 10 MiB each), and a restart reads it back', () => {
    // One string shared by every record this process appends (10 MiB held); the file holds 52 copies.
    const intentKey = 'k'.repeat(10 * MiB);
    const j = Journal.open(path);
    for (let i = 0; i < 52; i++) {
      j.append(order(`c${i}`, intentKey));
      j.flush();
    }
    const { before, after } = j.compact(2);
    expect(after.records).toBe(52);
    // As written before compaction (each order is open, with nothing else to keep), and past V8's string limit.
    expect(after.bytes).toBe(before.bytes);
    expect(after.bytes).toBeGreaterThan(constants.MAX_STRING_LENGTH);
    expect(statSync(path).size).toBe(after.bytes);
    expect(existsSync(compactionTempPath(path))).toBe(false);
    expect(j.state.orders.size).toBe(52);
    j.close();

    // What the next start reads, a record at a time (none kept here: 52 copies of the key are half a GiB).
    const ids: string[] = [];
    const scan = scanJournal(path, (r) => {
      expect(r.t === 'order' && r.intentKey === intentKey).toBe(true);
      ids.push((r as Extract<JournalRecord, { t: 'order' }>).clientOrderId);
    });
    expect(ids).toEqual(Array.from({ length: 52 }, (_, i) => `c${i}`));
    expect(scan.warnings).toEqual([]);
  });

  it('copies a journal larger than 2 GiB (more than Node reads into one Buffer) to the history, all of it', () => {
    const head = `${encodeRecord({ t: 'lost', at: 1, id: 'first' })}\n`;
    const tail = `${encodeRecord({ t: 'lost', at: 2, id: 'last' })}\n`;
    const fd = openSync(path, 'w');
    writeSync(fd, head);
    // A hole: 2 GiB of file without 2 GiB of disk (the copy itself is written out, then deleted with the folder).
    const tailAt = 2 ** 31 + 10;
    ftruncateSync(fd, tailAt);
    writeSync(fd, tail, tailAt);
    closeSync(fd);
    const size = statSync(path).size;
    const history = join(dir, 'bot.journal.history');

    appendHistory(history, path);

    expect(statSync(history).size).toBe(size);
    expect(bytesAt(history, 0, head.length)).toBe(head);
    expect(bytesAt(history, tailAt, tail.length)).toBe(tail);
  });
});
