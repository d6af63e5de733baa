/**
 * A journal on discardingJournalFs (a backtest's, whose file is deleted when the run ends) behaves as one on the
 * real disk — same record count, durable appends resolve after the same flush — while nothing is written to the
 * file (nor encoded: its size in bytes stays the empty file's) and nothing is folded: its state stays the file as
 * opened, since only a restart or a compaction reads the fold and a discarded journal has neither.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { Journal } from '../../src/orders/journal.js';
import { discardingJournalFs } from '../../src/orders/journal-appender.js';
import type { JournalRecord } from '../../src/orders/journal-records.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rexbot-journal-discard-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const newOrder = (id: string) => ({ marketSymbol: 'BTC-USD', direction: 'BUY' as const, type: 'LIMIT' as const, timeInForce: 'GOOD_TIL_CANCELLED' as const, quantity: dec('0.01'), limit: dec('30000.5'), clientOrderId: id });

async function run(j: Journal): Promise<string[]> {
  const log: string[] = [];
  const records: JournalRecord[] = [];
  for (let i = 0; i < 20; i++) {
    const id = `c${i}`;
    const durable = j.appendDurable({ t: 'batch', at: i, batchId: `b${i}`, strategy: 'mm', intentKey: 'q', orders: [{ clientOrderId: id, order: newOrder(id) }], cancels: [] }).then(() => log.push(`durable ${id}`));
    log.push(`queued ${id} written=${j.written}`);
    await durable;
    records.push({ t: 'sent', at: i, id: `b${i}`, attempt: 1 }, { t: 'ack', at: i, id, orderId: `o${i}` });
    if (i % 3 === 0) records.push({ t: 'closed', at: i, id, filled: dec('0') });
    for (const r of records.splice(0)) j.append(r);
    await Promise.resolve();
    log.push(`after ${id} written=${j.written} records=${j.size.records}`);
  }
  j.flush();
  return log;
}

describe('discardingJournalFs', () => {
  it('leaves the journal behaving as on disk, with nothing written', async () => {
    const disk = Journal.open(join(dir, 'disk.journal'), { fsync: false });
    const discard = Journal.open(join(dir, 'discard.journal'), { fsync: false, fs: discardingJournalFs });
    expect(await run(discard)).toEqual(await run(disk));
    expect([...disk.state.orders.keys()]).toHaveLength(20);
    expect(discard.state.orders.size).toBe(0);
    expect(discard.writable).toBe(true);
    expect(discard.size).toEqual({ records: disk.size.records, bytes: 0 });
    disk.close();
    discard.close();
    expect(readFileSync(join(dir, 'disk.journal'), 'utf8').length).toBeGreaterThan(0);
    expect(readFileSync(join(dir, 'discard.journal'), 'utf8')).toBe('');
  });
});
