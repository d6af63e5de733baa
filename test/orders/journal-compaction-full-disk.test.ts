/**
 * A compaction meeting a full disk or a failing fsync (journal-compaction-file.ts writes through the journal's fs
 * seam): at every byte of the new file, and with the file written a line per write, the journal must stay the
 * complete old one — no `.compact` left, nothing torn — and the bot keeps appending to it; once space is back the
 * compaction goes through.
 */
import { closeSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { compactionTempPath, Journal } from '../../src/orders/journal.js';
import { compactRecords } from '../../src/orders/journal-compaction.js';
import { writeCompactedJournal } from '../../src/orders/journal-compaction-file.js';
import type { JournalRecord } from '../../src/orders/journal-records.js';
import { FullDisk } from '../helpers/full-disk.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rexbot-compaction-disk-'));
  path = join(dir, 'bot.journal');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function order(id: string): JournalRecord {
  return {
    // A multi-byte character in every line: at some byte offsets the disk fills inside one.
    t: 'order', at: 1, clientOrderId: id, strategy: 'mm', intentKey: `mm:€:${id}`, role: 'order',
    order: { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('30000'), clientOrderId: id },
  };
}
/** Two open orders (kept by compaction) and a finished one (dropped). */
const RECORDS: JournalRecord[] = [order('c1'), order('c2'), order('c3'), { t: 'ack', at: 2, id: 'c3', orderId: 'o3' }, { t: 'closed', at: 3, id: 'c3', filled: dec('0') }];
const ids = (records: readonly JournalRecord[]): string[] => records.map((r) => (r.t === 'order' ? r.clientOrderId : `${r.t}:${'id' in r ? r.id : ''}`));

/** A journal of RECORDS on `disk`, and its bytes. */
async function journalOn(disk: FullDisk): Promise<{ j: Journal; old: Buffer }> {
  rmSync(path, { force: true });
  const j = Journal.open(path, { fs: disk, fsync: false });
  for (const r of RECORDS) j.append(r);
  await j.appendDurable(order('c4'));
  return { j, old: readFileSync(path) };
}

describe('compaction on a full disk', () => {
  it('fails at every byte of the new file leaving the old journal whole, and the bot keeps appending', async () => {
    let at = 0;
    for (;; at++) {
      const disk = new FullDisk();
      const { j, old } = await journalOn(disk);
      disk.room = at;
      let failed: unknown;
      try {
        j.compact(10);
      } catch (e) {
        failed = e;
      }
      if (failed === undefined) break; // room enough for the whole new file
      expect((failed as NodeJS.ErrnoException).code, `room ${at}`).toBe('ENOSPC');
      expect(readFileSync(path).equals(old), `room ${at}: the old journal, byte for byte`).toBe(true);
      expect(existsSync(compactionTempPath(path)), `room ${at}`).toBe(false);
      disk.room = undefined;
      await j.appendDurable(order('c5'));
      j.close();
      const reopened = Journal.open(path);
      expect(reopened.warnings, `room ${at}`).toEqual([]);
      expect(ids(reopened.replayed), `room ${at}`).toEqual([...ids(RECORDS), 'c4', 'c5']);
      reopened.close();
    }
    // It did fail at every byte before: the whole new file was written through the seam.
    expect(at).toBeGreaterThan(100);
    expect(statSync(path).size).toBe(at);
  });

  it('a failing fsync of the new file leaves the old journal; the next compaction goes through', async () => {
    const disk = new FullDisk();
    const { j, old } = await journalOn(disk);
    disk.fsyncFails = true;
    expect(() => j.compact(10)).toThrow(/EIO/);
    expect(readFileSync(path).equals(old)).toBe(true);
    expect(existsSync(compactionTempPath(path))).toBe(false);
    disk.fsyncFails = false;
    await j.appendDurable(order('c5'));
    j.compact(11);
    await j.appendDurable(order('c6'));
    j.close();
    const reopened = Journal.open(path);
    expect(ids(reopened.replayed).filter((x) => x.startsWith('c'))).toEqual(['c1', 'c2', 'c4', 'c5', 'c6']);
    reopened.close();
  });

  it('written a line per write: a failure at any byte of any write leaves no .compact and the journal untouched', async () => {
    const disk = new FullDisk();
    const { j, old } = await journalOn(disk);
    const records = compactRecords(j.state, 10);
    j.close();
    let writes = 0;
    const counting = new FullDisk();
    const realWrite = counting.write.bind(counting);
    counting.write = (fd, buf, offset, length) => {
      writes++;
      return realWrite(fd, buf, offset, length);
    };
    for (let room = 0; ; room += 7) {
      counting.room = room;
      try {
        closeSync(writeCompactedJournal({ path: join(dir, 'copy.journal'), chunkChars: 1, fs: counting }, records).fd);
        break;
      } catch (e) {
        expect((e as NodeJS.ErrnoException).code).toBe('ENOSPC');
        expect(existsSync(compactionTempPath(join(dir, 'copy.journal')))).toBe(false);
        expect(existsSync(join(dir, 'copy.journal'))).toBe(false);
      }
    }
    expect(writes).toBeGreaterThan(records.length);
    expect(readFileSync(path).equals(old)).toBe(true);
  });
});
