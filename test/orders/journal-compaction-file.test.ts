/**
 * Journal compaction on disk: the atomic swap (a crash before the rename leaves the old journal, after it the new
 * one), the new file written in chunks and read back line by line (a refused record fails the compaction and leaves
 * nothing), appends around a compaction, compaction by size, the audit history, and the selection rules that are
 * easiest to state on hand-written records. journal-large.test.ts has the sizes the chunks exist for.
 */
import { closeSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { compactionTempPath, Journal, parseJournal, type CompactionResult } from '../../src/orders/journal.js';
import { writeCompactedJournal } from '../../src/orders/journal-compaction-file.js';
import { appendHistory } from '../../src/orders/journal-fs.js';
import { encodeRecord, type JournalRecord } from '../../src/orders/journal-records.js';
import { JournalState } from '../../src/orders/journal-state.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rexbot-compaction-'));
  path = join(dir, 'bot.journal');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const read = (): JournalRecord[] => parseJournal(path, readFileSync(path, 'utf8')).records;
const orderRecord = (id: string, extra: Partial<Extract<JournalRecord, { t: 'order' }>> = {}): JournalRecord => ({
  t: 'order',
  at: 1,
  clientOrderId: id,
  strategy: 's',
  intentKey: id,
  role: 'order',
  order: { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('1'), limit: dec('100'), clientOrderId: id },
  ...extra,
});
const fill = (id: string, executionId: string, quantity: string, rate = '100', direction: 'BUY' | 'SELL' = 'BUY'): JournalRecord => ({
  t: 'fill',
  at: 2,
  id,
  orderId: `o-${id}`,
  executionId,
  marketSymbol: 'BTC-USD',
  direction,
  quantity: dec(quantity),
  rate: dec(rate),
  commission: dec('0.01'),
  isTaker: false,
  executedAt: new Date(Number(executionId.replace(/\D/g, '')) * 1000),
});
/** A finished order with a fill, an open one, a lost one. */
async function writeMixed(j: Journal): Promise<void> {
  j.append(orderRecord('done'));
  j.append({ t: 'ack', at: 2, id: 'done', orderId: 'o-done' });
  j.append(fill('done', 'x1', '1'));
  j.append({ t: 'closed', at: 3, id: 'done', filled: dec('1') });
  j.append(orderRecord('open'));
  j.append({ t: 'sent', at: 2, id: 'open', attempt: 1 });
  j.append({ t: 'ack', at: 2, id: 'open', orderId: 'o-open' });
  j.append(fill('open', 'x2', '0.5', '110', 'SELL'));
  j.append(orderRecord('lost'));
  j.append({ t: 'sent', at: 2, id: 'lost', attempt: 1 });
  await j.appendDurable({ t: 'lost', at: 3, id: 'lost' });
}

describe('Journal.compact', () => {
  it('keeps open requests and their fills, drops finished ones, and carries positions and the last fill', async () => {
    const j = Journal.open(path);
    await writeMixed(j);
    const before = JournalState.from(read());
    const r = j.compact(10);
    j.close();
    const after = JournalState.from(read());
    expect([...after.orders.keys()]).toEqual(['open']);
    expect(after.get('open')).toEqual(before.get('open'));
    expect([...after.fills.keys()]).toEqual(['x2']);
    expect(after.lastFill).toEqual(before.lastFill);
    expect(after.positions()).toEqual(before.positions());
    expect(after.positions()[0]!.quantity.toFixed()).toBe('0.5');
    expect(r.before.records).toBe(11);
    expect(r.after.records).toBe(read().length);
  });

  it('keeps a closed order whose closed record says it filled more than its journaled fills', async () => {
    const j = Journal.open(path);
    j.append(orderRecord('short'));
    j.append(fill('short', 'x1', '0.4'));
    await j.appendDurable({ t: 'closed', at: 3, id: 'short', filled: dec('1') });
    j.compact(10);
    j.close();
    expect(JournalState.from(read()).get('short')?.status).toBe('closed');
  });

  it('keeps a filled, unarmed bracket entry with all its legs; drops it once a leg has finished', async () => {
    const entry = orderRecord('e', { role: 'entry', bracket: { takeProfit: dec('120'), stopLoss: dec('90') } });
    const leg = (id: string): JournalRecord => ({
      t: 'conditional',
      at: 4,
      clientConditionalOrderId: id,
      strategy: 's',
      intentKey: 'e',
      role: 'takeProfit',
      order: { marketSymbol: 'BTC-USD', operand: 'GTE', triggerPrice: dec('120'), clientConditionalOrderId: id },
      parent: 'e',
    });
    const j = Journal.open(path);
    j.append(entry);
    j.append(fill('e', 'x1', '1'));
    j.append({ t: 'closed', at: 3, id: 'e', filled: dec('1') });
    j.append(leg('tp'));
    await j.appendDurable({ t: 'sent', at: 4, id: 'tp', attempt: 1 });
    j.compact(10);
    let state = JournalState.from(read());
    expect(state.get('e')).toMatchObject({ status: 'closed', legs: ['tp'], armed: false });
    // The take-profit finished: a restart would not arm the entry any more, so neither is kept.
    await j.appendDurable({ t: 'closed', at: 5, id: 'tp' });
    j.compact(11);
    j.close();
    state = JournalState.from(read());
    expect(state.orders.size + state.conditionals.size).toBe(0);
    expect(state.positions()[0]!.quantity.toFixed()).toBe('1');
  });

  it('a crash before the rename leaves the old journal whole; the leftover temp file is removed with a warning', async () => {
    const j = Journal.open(path);
    await writeMixed(j);
    j.close();
    const old = readFileSync(path, 'utf8');
    // What a compaction killed before its rename leaves behind: a complete or partial new file beside the journal.
    writeFileSync(compactionTempPath(path), '{"t":"order","at":1,"clientOrderId":"x"');
    const warnings: string[] = [];
    const reopened = Journal.open(path, { onWarning: (w) => warnings.push(w) });
    expect(existsSync(compactionTempPath(path))).toBe(false);
    expect(warnings).toEqual([expect.stringContaining('deleted a compaction that never completed')]);
    expect(reopened.replayed).toHaveLength(11);
    reopened.close();
    expect(readFileSync(path, 'utf8')).toBe(old);
  });

  it('a crash right after the rename (nothing closed, nothing else done) opens to the complete new journal', async () => {
    const j = Journal.open(path);
    await writeMixed(j);
    const { after } = j.compact(10);
    // The process "dies" here: j is never closed. A new process opens the file.
    const reopened = Journal.open(path);
    expect(reopened.replayed).toHaveLength(after.records);
    expect(reopened.warnings).toEqual([]);
    expect(JournalState.from(reopened.replayed).get('open')?.status).toBe('acked');
    reopened.close();
  });

  it('appends queued before a compaction and made after it all survive, durable ones resolved', async () => {
    const j = Journal.open(path);
    await writeMixed(j);
    j.append(orderRecord('queued'));
    const durable = j.appendDurable({ t: 'sent', at: 5, id: 'queued', attempt: 1 });
    j.compact(10); // same tick: both are still queued
    await durable;
    j.append({ t: 'ack', at: 6, id: 'queued', orderId: 'o-q' });
    await j.appendDurable(fill('open', 'x3', '0.25', '120', 'SELL'));
    j.close();
    const state = JournalState.from(read());
    expect(state.get('queued')).toMatchObject({ status: 'acked', orderId: 'o-q', attempts: 1 });
    expect(state.filledQuantity('open', dec(0)).toFixed()).toBe('0.75');
    expect(state.positions()[0]!.quantity.toFixed()).toBe('0.25');
  });

  it('compacts by itself once the file reaches the threshold, and only when it has grown again', async () => {
    const j = Journal.open(path);
    const results: CompactionResult[] = [];
    j.autoCompact({ thresholdBytes: 4096, now: () => 99, onCompacted: (r) => results.push(r) });
    // 200 orders placed and closed, one left open: only the open one and a checkpoint are needed.
    for (let i = 0; i < 200; i++) {
      j.append(orderRecord(`c${i}`));
      j.append({ t: 'ack', at: 2, id: `c${i}`, orderId: `o${i}` });
      j.append(fill(`c${i}`, `x${i + 1}`, '0.01'));
      await j.appendDurable({ t: 'closed', at: 3, id: `c${i}`, filled: dec('0.01') });
      if (i === 100) await j.appendDurable(orderRecord('still-open'));
    }
    await Promise.resolve();
    expect(results.length).toBeGreaterThan(1);
    for (const r of results) expect(r.before.bytes).toBeGreaterThanOrEqual(4096);
    expect(j.size.bytes).toBeLessThan(2 * 4096);
    j.close();
    const state = JournalState.from(read());
    expect(state.get('still-open')?.status).toBe('intent');
    expect(state.positions()[0]!.quantity.toFixed()).toBe('2');
    expect(state.lastFill?.executionId).toBe('x200');
  });

  it('with a history file, every record ever written is still somewhere', async () => {
    const history = `${path}.history`;
    const j = Journal.open(path, { historyPath: history });
    await writeMixed(j);
    j.compact(10);
    await j.appendDurable(orderRecord('later'));
    j.compact(11);
    j.close();
    const all = parseJournal(history, readFileSync(history, 'utf8')).records.concat(read());
    const state = JournalState.from(all);
    expect([...state.orders.keys()].sort()).toEqual(['done', 'later', 'lost', 'open']);
    expect(state.get('done')?.status).toBe('closed');
  });

  it('appends the journal to the history in chunks of any size, after closing a torn last line of the history', () => {
    const text = [orderRecord('é€😀'), fill('é€😀', 'x1', '0.5'), { t: 'closed', at: 3, id: 'é€😀' } as const].map((r) => `${encodeRecord(r)}\n`).join('');
    writeFileSync(path, text);
    const history = `${path}.history`;
    for (const chunkBytes of [1, 3, 64, 4 * 2 ** 20]) {
      writeFileSync(history, '{"t":"ord');
      appendHistory(history, path, chunkBytes);
      expect(readFileSync(history, 'utf8'), `chunks of ${chunkBytes}`).toBe(`{"t":"ord\n${text}`);
    }
  });
});

describe('writing a compacted journal', () => {
  // Multi-byte text: bytes and characters differ, and a chunk boundary can fall anywhere in a record.
  const records: JournalRecord[] = [orderRecord('ä€😀'), { t: 'sent', at: 2, id: 'ä€😀', attempt: 2 }, fill('ä€😀', 'x1', '0.5'), orderRecord('b'), fill('b', 'x2', '0.25', '110', 'SELL')];
  const text = records.map((r) => `${encodeRecord(r)}\n`).join('');

  it('writes, in chunks of any size, exactly the text of its records, and folds them as read back', () => {
    for (const chunkChars of [1, 7, 100, 4 * 2 ** 20]) {
      writeFileSync(path, 'the old journal\n');
      const c = writeCompactedJournal({ path, chunkChars }, records);
      closeSync(c.fd);
      expect(readFileSync(path, 'utf8'), `chunks of ${chunkChars}`).toBe(text);
      expect(c.bytes).toBe(Buffer.byteLength(text));
      expect(c.records).toBe(records.length);
      expect(c.state.get('ä€😀')).toEqual(JournalState.from(records).get('ä€😀'));
      expect(c.state.positions()).toEqual(JournalState.from(records).positions());
      expect(existsSync(compactionTempPath(path))).toBe(false);
    }
  });

  it('a record no start could read, after part of the new file was written: refused naming line and field, nothing left of it', () => {
    writeFileSync(path, 'the old journal\n');
    // A fractional time (a clock that is not whole ms): the fold took it, the decoder would not.
    const refused = [...records, orderRecord('c', { at: 1.5 })];
    expect(() => writeCompactedJournal({ path, chunkChars: 10 }, refused)).toThrow(/bot\.journal\.compact:6: .*at is not an integer: 1\.5/);
    expect(existsSync(compactionTempPath(path))).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('the old journal\n');
  });

  it('Journal.compact refused so: the journal is untouched and goes on appending to the old file', async () => {
    const j = Journal.open(path);
    await writeMixed(j);
    await j.appendDurable(orderRecord('odd', { at: 1.5 }));
    const old = readFileSync(path, 'utf8');
    expect(() => j.compact(10)).toThrow(/bot\.journal\.compact:\d+: .*at is not an integer/);
    expect(existsSync(compactionTempPath(path))).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe(old);
    await j.appendDurable({ t: 'closed', at: 11, id: 'odd' });
    expect(j.size.bytes).toBe(Buffer.byteLength(readFileSync(path)));
    j.close();
    expect(readFileSync(path, 'utf8')).toBe(`${old}${encodeRecord({ t: 'closed', at: 11, id: 'odd' })}\n`);
  });
});
