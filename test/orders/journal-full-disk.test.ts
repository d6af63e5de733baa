/**
 * The journal after a full disk (issue 9 item 3): a write that fails part-way must never leave a torn record for
 * the next one to be glued onto. Failures are injected through the journal's fs seam at every byte offset of a
 * record, at the fsync, and with the cut-back failing too; after each, the file must read back with every record
 * that was acknowledged and nothing else — no torn line, no JournalCorruptError.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { Journal, parseJournal, type JournalHealthEvent } from '../../src/orders/journal.js';
import { JournalWriteError } from '../../src/orders/journal-appender.js';
import { encodeRecord, type JournalRecord } from '../../src/orders/journal-records.js';
import { FullDisk } from '../helpers/full-disk.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rexbot-journal-disk-'));
  path = join(dir, 'bot.journal');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function order(id: string): JournalRecord {
  return {
    t: 'order', at: 1, clientOrderId: id, strategy: 'mm', intentKey: 'mm:BTC-USD', role: 'order',
    order: { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('30000'), clientOrderId: id },
  };
}
const ids = (records: JournalRecord[]) => records.map((r) => (r.t === 'order' ? r.clientOrderId : `${r.t}:${'id' in r ? r.id : ''}`));

/** The file as a restart reads it: must parse whole, with no torn line tolerated. */
function readBack(): string[] {
  const parsed = parseJournal(path, readFileSync(path, 'utf8'));
  expect(parsed.warnings).toEqual([]);
  expect(parsed.terminated).toBe(true);
  return ids(parsed.records);
}

describe('journal on a full disk', () => {
  const recordBytes = Buffer.byteLength(`${encodeRecord(order('c3'))}\n`);

  it(`a write failing at any of the ${recordBytes} byte offsets of a record is cut back; the next record starts clean`, async () => {
    for (let at = 0; at < recordBytes; at++) {
      rmSync(path, { force: true });
      const disk = new FullDisk();
      const j = Journal.open(path, { fs: disk });
      await j.appendDurable(order('c1'));
      await j.appendDurable(order('c2'));
      const good = statSync(path).size;
      disk.room = at;
      const err = await j.appendDurable(order('c3')).then(() => undefined, (e: unknown) => e);
      expect(err, `offset ${at}`).toBeInstanceOf(JournalWriteError);
      expect((err as JournalWriteError).torn).toBe(false);
      expect(statSync(path).size, `offset ${at}: cut back to the last whole record`).toBe(good);
      expect(j.writable).toBe(false);
      // Space comes back while the bot runs.
      disk.room = undefined;
      await j.appendDurable(order('c4'));
      expect(j.writable).toBe(true);
      j.close();
      expect(readBack(), `offset ${at}`).toEqual(['c1', 'c2', 'c4']);
      const reopened = Journal.open(path);
      expect(ids([...reopened.replayed])).toEqual(['c1', 'c2', 'c4']);
      reopened.close();
    }
  });

  it('a failed fsync after a whole write is cut back too: an unacknowledged record is not left behind', async () => {
    const disk = new FullDisk();
    const j = Journal.open(path, { fs: disk });
    await j.appendDurable(order('c1'));
    disk.fsyncFails = true;
    await expect(j.appendDurable(order('c2'))).rejects.toThrow(/write failed \(EIO/);
    disk.fsyncFails = false;
    await j.appendDurable(order('c3'));
    j.close();
    expect(readBack()).toEqual(['c1', 'c3']);
  });

  it('when the cut fails too, every write is refused until it succeeds; never a torn record followed by more', async () => {
    const disk = new FullDisk();
    const j = Journal.open(path, { fs: disk });
    await j.appendDurable(order('c1'));
    const good = statSync(path).size;
    disk.room = 40;
    disk.truncateFails = true;
    const first = await j.appendDurable(order('c2')).then(() => undefined, (e: unknown) => e);
    expect(first).toMatchObject({ torn: true, message: expect.stringMatching(/could not be cut back.*every write is refused/) });
    // Space is back but the cut still fails: the next order is refused, and nothing is written after the torn bytes.
    disk.room = undefined;
    const tornSize = statSync(path).size;
    expect(tornSize).toBe(good + 40);
    await expect(j.appendDurable(order('c3'))).rejects.toThrow(/partial record that cannot be cut off/);
    expect(statSync(path).size).toBe(tornSize);
    disk.truncateFails = false;
    await j.appendDurable(order('c4'));
    j.close();
    expect(readBack()).toEqual(['c1', 'c4']);
  });

  it('follow-up records of a failed write are kept for the next one; health events say failed, then recovered', async () => {
    const disk = new FullDisk();
    const j = Journal.open(path, { fs: disk });
    const events: JournalHealthEvent['kind'][] = [];
    j.onHealth((e) => events.push(e.kind));
    await j.appendDurable(order('c1'));
    disk.room = 10;
    j.append({ t: 'sent', at: 2, id: 'c1', attempt: 1 });
    const refused = j.appendDurable(order('c2'));
    await expect(refused).rejects.toBeInstanceOf(JournalWriteError);
    expect(j.writeErrors).toBe(1);
    disk.room = undefined;
    await j.appendDurable(order('c3'));
    j.close();
    expect(readBack()).toEqual(['c1', 'sent:c1', 'c3']);
    expect(events).toEqual(['failed', 'recovered']);
  });
});
