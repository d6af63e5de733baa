/**
 * `rexbot report` folds a journal while reading it: the heap holds what the report lists (its orders and fills) and
 * one chunk of the file, never the file's records. A generated journal of one order and what a long run writes
 * about it again and again (send retries, limits records) is read while the heap is sampled after a full
 * collection at every turn of the event loop (the file is read a chunk a turn).
 */
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { encodeRecord, type JournalRecord } from '../../../src/orders/journal-records.js';
import { journalReportInput } from '../../../backtest/report/journal-report.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const MiB = 2 ** 20;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rexbot-report-large-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const T = Date.UTC(2026, 10, 25, 9, 0, 0);
const order: JournalRecord = {
  t: 'order',
  at: T,
  clientOrderId: 'c1',
  strategy: 'mm',
  intentKey: 'k',
  role: 'order',
  order: { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.5'), limit: dec('30000'), clientOrderId: 'c1' },
};
const limits = (at: number): JournalRecord => ({
  t: 'limits',
  at,
  curve: { at, equity: dec('1000.5'), peak: dec('1001'), maxDrawdown: dec('3.25'), day: 19_800, dayOpen: dec('990') },
  risk: { peak: dec('1001'), day: 19_800, state: 'ACTIVE', reason: 'started' },
});

describe('rexbot report on a large journal', () => {
  it('holds its fold, not its records: a 32 MiB journal of 280k records never holds 8 MiB more heap while read', async () => {
    const path = join(dir, 'mm-paper-2026-11-25T09-00-00-000Z.jsonl');
    const block = Buffer.from(
      Array.from({ length: 1000 }, (_, i) => `${encodeRecord({ t: 'sent', at: T + i, id: 'c1', attempt: i + 1 })}\n${encodeRecord(limits(T + i))}\n`).join(''),
    );
    const fd = openSync(path, 'w');
    writeSync(fd, `${encodeRecord(order)}\n`);
    const blocks = Math.ceil((32 * MiB) / block.length);
    for (let b = 0; b < blocks; b++) writeSync(fd, block);
    writeSync(fd, `${encodeRecord({ t: 'closed', at: T + 2_000, id: 'c1', filled: dec('0') })}\n`);
    closeSync(fd);
    expect(statSync(path).size).toBeGreaterThan(32 * MiB);

    gc();
    const before = process.memoryUsage().heapUsed;
    let peak = 0;
    let samples = 0;
    let reading = true;
    const sampler = (async () => {
      while (reading) {
        await nextTurn();
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - before);
        samples++;
      }
    })();
    const input = await journalReportInput(path, { read: { chunkBytes: MiB } }).finally(() => (reading = false));
    await sampler;
    // Every record kept until the fold (as before) held ~117 MiB at the end of the read.
    expect(samples, 'the heap was sampled while the file was read').toBeGreaterThanOrEqual(16);
    expect(peak, `most heap held while reading: ${(peak / MiB).toFixed(1)} MiB`).toBeLessThan(8 * MiB);
    expect(input.orders.map((o) => [o.clientOrderId, o.outcome])).toEqual([['c1', 'CANCELLED']]);
    expect(input.journalWarnings).toBeUndefined();
  });
});
