/**
 * encodeRecord writes a record's JSON line directly (toWireJson); it must be exactly JSON.stringify(toWire(record,
 * 'plain')), the text journals were always written with. Checked on every record a ladder's life journals
 * (batch, sent, acks, fills, closes) and on records carrying positions and limits.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { toWire } from '../../src/model/encode.js';
import { decodeRecord, encodeRecord, type JournalRecord } from '../../src/orders/journal-records.js';
import { M, makeRig, type Rig } from './harness.js';

let rig: Rig;
afterEach(async () => rig?.cleanup());

const general = (r: JournalRecord) => JSON.stringify(toWire(r, 'plain'));

describe('encodeRecord', () => {
  it('writes each journaled record as JSON.stringify(toWire(record, "plain"))', async () => {
    rig = await makeRig();
    const q = (rate: string) => ({ rate: dec(rate), quantity: dec('0.1') });
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids: [q('29900'), q('29800.5')], asks: [q('30100')] });
    await rig.settle();
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids: [q('29950')], asks: [q('30000.25')] });
    await rig.settle();
    await rig.manager.cancelAll('mm');
    await rig.settle();
    const lines = readFileSync(rig.journalPath, 'utf8').split('\n').filter((l) => l.length > 0);
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) {
      const record = decodeRecord(JSON.parse(line));
      expect(encodeRecord(record)).toBe(general(record));
      expect(encodeRecord(record)).toBe(line);
    }
  });

  it('writes positions and limits snapshots as the general path does', () => {
    const records: JournalRecord[] = [
      {
        t: 'limits',
        at: 5,
        curve: { at: 5, equity: dec('-1.5'), peak: dec('2'), maxDrawdown: dec('3.5'), day: 19000, dayOpen: dec('0') },
        risk: { peak: dec('2'), day: 19000, state: 'REDUCING', cause: 'dailyLoss', reason: 'daily "loss"\\n', resumeBase: undefined },
      } as JournalRecord,
      { t: 'ack', at: 7, id: 'c1', orderId: 'o1' } as JournalRecord,
    ];
    for (const r of records) expect(encodeRecord(r)).toBe(general(r));
  });
});
