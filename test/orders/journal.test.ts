import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { Journal, JournalCorruptError } from '../../src/orders/journal.js';
import type { JournalRecord } from '../../src/orders/journal-records.js';
import { JournalState } from '../../src/orders/journal-state.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rexbot-journal-'));
  path = join(dir, 'sub', 'bot.journal');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const order: JournalRecord = {
  t: 'order',
  at: 1,
  clientOrderId: 'c1',
  strategy: 'mm',
  intentKey: 'k',
  role: 'entry',
  order: { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.12345678'), limit: dec('30000.001'), clientOrderId: 'c1' },
  bracket: { takeProfit: dec('33000'), stopLoss: dec('29000.5') },
};
const fill: JournalRecord = {
  t: 'fill',
  at: 3,
  id: 'c1',
  orderId: 'o1',
  executionId: 'x1',
  marketSymbol: 'BTC-USD',
  direction: 'BUY',
  quantity: dec('0.1'),
  rate: dec('30000.001'),
  commission: dec('0.00000001'),
  isTaker: true,
  executedAt: new Date(2),
};

describe('Journal', () => {
  it('round-trips every record kind exactly (decimals as strings, dates)', async () => {
    const j = Journal.open(path);
    await j.appendDurable(order);
    j.append({ t: 'sent', at: 2, id: 'c1', attempt: 1 });
    j.append({ t: 'ack', at: 2, id: 'c1', orderId: 'o1' });
    j.append(fill);
    j.append({
      t: 'conditional',
      at: 4,
      clientConditionalOrderId: 'cc1',
      strategy: 'mm',
      intentKey: 'k',
      role: 'takeProfit',
      parent: 'c1',
      order: { marketSymbol: 'BTC-USD', operand: 'GTE', triggerPrice: dec('33000'), clientConditionalOrderId: 'cc1', orderToCreate: { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.1'), limit: dec('33000') } },
    });
    j.append({ t: 'batch', at: 5, batchId: 'b1', strategy: 'mm', intentKey: 'q', orders: [{ clientOrderId: 'c2', order: { ...order.order, clientOrderId: 'c2' } }], cancels: ['o9'] });
    j.append({ t: 'rejected', at: 6, id: 'c2', code: 'INSUFFICIENT_FUNDS' });
    j.append({ t: 'triggered', at: 7, id: 'cc1', orderId: 'o5' });
    j.append({ t: 'lost', at: 8, id: 'c3' });
    j.append({ t: 'closed', at: 9, id: 'c1' });
    j.append({ t: 'armed', at: 10, id: 'c1' });
    j.close();
    expect(readFileSync(path, 'utf8')).not.toMatch(/\d\.\d+e/); // plain decimals, never floats
    const again = Journal.open(path);
    expect(again.replayed).toHaveLength(11);
    const r0 = again.replayed[0] as Extract<JournalRecord, { t: 'order' }>;
    expect(r0.order.limit!.toFixed()).toBe('30000.001');
    expect(r0.bracket!.stopLoss.toFixed()).toBe('29000.5');
    const f = again.replayed[3] as Extract<JournalRecord, { t: 'fill' }>;
    expect(f.commission.toFixed()).toBe('0.00000001');
    expect(f.executedAt.getTime()).toBe(2);
    const state = JournalState.from(again.replayed);
    expect(state.orders.get('c1')).toMatchObject({ status: 'closed', orderId: 'o1', legs: ['cc1'], armed: true });
    expect(state.orders.get('c2')).toMatchObject({ status: 'rejected', rejectCode: 'INSUFFICIENT_FUNDS', batchId: 'b1' });
    expect(state.conditionals.get('cc1')).toMatchObject({ status: 'intent', createdOrderId: 'o5', parent: 'c1' });
    expect(state.lastFill?.executionId).toBe('x1');
    again.close();
  });

  it('appendDurable resolves only once the record is in the file; appends of one tick share one write', async () => {
    const j = Journal.open(path);
    const p1 = j.appendDurable({ t: 'lost', at: 1, id: 'a' });
    const p2 = j.appendDurable({ t: 'lost', at: 1, id: 'b' });
    expect(readFileSync(path, 'utf8')).toBe('');
    await Promise.all([p1, p2]);
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(2);
    j.close();
  });

  it('tolerates a torn last line: earlier records kept, a warning, and the next append starts a clean line', async () => {
    const j = Journal.open(path);
    await j.appendDurable(order);
    await j.appendDurable({ t: 'ack', at: 2, id: 'c1', orderId: 'o1' });
    j.close();
    appendFileSync(path, '{"t":"fill","at":3,"id":"c1","orderId":"o1","execu');
    const warnings: string[] = [];
    const again = Journal.open(path, { onWarning: (w) => warnings.push(w) });
    expect(again.replayed.map((r) => r.t)).toEqual(['order', 'ack']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/bot\.journal:3: ignoring a torn last line/);
    await again.appendDurable({ t: 'closed', at: 4, id: 'c1' });
    again.close();
    const third = Journal.open(path);
    expect(third.replayed.map((r) => r.t)).toEqual(['order', 'ack', 'closed']);
    expect(third.warnings).toEqual([]);
    third.close();
  });

  it('keeps a complete last record whose newline was cut, and terminates it', async () => {
    const j = Journal.open(path);
    await j.appendDurable({ t: 'lost', at: 1, id: 'a' });
    j.close();
    appendFileSync(path, '{"t":"lost","at":2,"id":"b"}');
    const again = Journal.open(path);
    expect(again.replayed).toHaveLength(2);
    await again.appendDurable({ t: 'lost', at: 3, id: 'c' });
    again.close();
    expect(Journal.open(path).replayed.map((r) => (r as { id: string }).id)).toEqual(['a', 'b', 'c']);
  });

  it('a corrupt line before the end is an error naming the file and line', () => {
    Journal.open(path).close();
    writeFileSync(path, '{"t":"lost","at":1,"id":"a"}\nnot json at all\n{"t":"lost","at":2,"id":"b"}\n');
    let err: unknown;
    try {
      Journal.open(path);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(JournalCorruptError);
    expect((err as JournalCorruptError).line).toBe(2);
    expect((err as Error).message).toContain(`${path}:2:`);
  });

  it('a fill that no exchange reports (zero quantity, negative commission) is corrupt, never folded into a position', () => {
    Journal.open(path).close();
    const fill = (over: Record<string, string>) =>
      JSON.stringify({ t: 'fill', at: 1, id: 'c1', orderId: 'o1', executionId: 'e1', marketSymbol: 'BTC-USD', direction: 'BUY', quantity: '0.1', rate: '30000', commission: '1', isTaker: false, executedAt: '2021-01-01T00:00:00Z', ...over });
    writeFileSync(path, `${fill({})}\n${fill({ quantity: '0' })}\n{"t":"lost","at":2,"id":"b"}\n`);
    expect(() => Journal.open(path)).toThrow(/bot\.journal:2: .*quantity is not positive: 0/);
    writeFileSync(path, `${fill({ commission: '-0.5' })}\n{"t":"lost","at":2,"id":"b"}\n`);
    expect(() => Journal.open(path)).toThrow(/bot\.journal:1: .*commission is negative: -0\.5/);
  });

  it('a well-formed line that is not a valid record is corrupt too, naming the field', () => {
    Journal.open(path).close();
    writeFileSync(path, '{"t":"ack","at":1,"id":"a"}\n{"t":"lost","at":2,"id":"b"}\n');
    expect(() => Journal.open(path)).toThrow(/bot\.journal:1: .*orderId is missing/);
    writeFileSync(path, '{"t":"teleport","at":1}\n{"t":"lost","at":2,"id":"b"}\n');
    expect(() => Journal.open(path)).toThrow(/bot\.journal:1: .*t is not one of/);
  });

  it('a closed journal rejects durable appends', async () => {
    const j = Journal.open(path);
    j.close();
    await expect(j.appendDurable({ t: 'lost', at: 1, id: 'a' })).rejects.toThrow(/closed/);
  });

  it('hands resume the fold open built while reading (start reads and folds once), and refuses once anything was appended', async () => {
    const j = Journal.open(path);
    await j.appendDurable(order);
    j.append({ t: 'ack', at: 2, id: 'c1', orderId: 'o1' });
    j.close();
    const again = Journal.open(path);
    expect(again.unchangedSinceOpen).toBe(true);
    const expected = JournalState.from(again.replayed);
    const state = again.takeStateAtOpen();
    expect(state).toBe(again.state);
    expect(state.get('c1')).toEqual(expected.get('c1'));
    again.append({ t: 'closed', at: 3, id: 'c1' });
    expect(again.unchangedSinceOpen).toBe(false);
    expect(() => again.takeStateAtOpen()).toThrow(/resuming needs the journal as it was opened/);
    again.close();
    const compacted = Journal.open(path);
    compacted.compact(4);
    expect(() => compacted.takeStateAtOpen()).toThrow(expect.objectContaining({ code: 'JOURNAL_CHANGED' }));
    compacted.close();
  });

  it('replayed reads the records of the file as opened again, whatever was appended since; a compaction ends it', async () => {
    const j = Journal.open(path);
    await j.appendDurable(order);
    j.close();
    appendFileSync(path, '{"t":"ack","at":2,"id":"c1","orderId":"o1"}\n{"t":"fill","at":3,"id":"c1","orderId":"o1","execu');
    const again = Journal.open(path);
    const atOpen = again.replayed;
    expect(atOpen.map((r) => r.t)).toEqual(['order', 'ack']);
    again.takeStateAtOpen();
    expect(again.replayed).toEqual(atOpen);
    await again.appendDurable({ t: 'closed', at: 4, id: 'c1' });
    expect(again.replayed).toEqual(atOpen);
    again.compact(5);
    expect(() => again.replayed).toThrow(expect.objectContaining({ code: 'JOURNAL_CHANGED' }));
    again.close();
    // The closed order had nothing a restart needs: the compacted file is empty.
    const compacted = Journal.open(path);
    expect(compacted.replayed).toEqual([]);
    compacted.close();
  });
});
