/**
 * A discarding journal (a backtest's) keeps its fold to what a compaction would keep: nothing compacts it
 * otherwise, and a long run's fold held every order it ever placed. Over a seeded random life of many thousand
 * requests (batches and single orders, sent, acknowledged, rejected, lost, closed with all, some or none of their
 * fills, left open or unanswered, limits records), the fold must say exactly what the whole journal says about
 * what a restart needs — the same compaction, unresolved requests, positions, last fill and limits — while
 * holding a bounded number of requests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { DISCARD_FOLD_REQUESTS, Journal } from '../../src/orders/journal.js';
import { discardingJournalFs } from '../../src/orders/journal-appender.js';
import { compactRecords } from '../../src/orders/journal-compaction.js';
import type { JournalRecord } from '../../src/orders/journal-records.js';
import { JournalState } from '../../src/orders/journal-state.js';
import { Prng } from '../sync/prng.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rexbot-journal-fold-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const newOrder = (id: string, direction: 'BUY' | 'SELL') => ({ marketSymbol: 'BTC-USD', direction, type: 'LIMIT' as const, timeInForce: 'GOOD_TIL_CANCELLED' as const, quantity: dec('0.01'), limit: dec('30000.5'), clientOrderId: id });

/** A random journal life: requests and what became of them, interleaved. */
function life(seed: number, requests: number): JournalRecord[] {
  const rng = new Prng(seed);
  const out: JournalRecord[] = [];
  const open: { id: string; orderId: string; direction: 'BUY' | 'SELL' }[] = [];
  let at = 1_700_000_000_000;
  let exec = 0;
  const fill = (o: { id: string; orderId: string; direction: 'BUY' | 'SELL' }, q: string): JournalRecord => ({
    t: 'fill', at, id: o.id, orderId: o.orderId, executionId: `x${exec++}`, marketSymbol: 'BTC-USD', direction: o.direction,
    quantity: dec(q), rate: dec(30000 + rng.int(10)), commission: dec('0.01'), isTaker: false, executedAt: new Date(at),
  });
  for (let n = 0; n < requests; n++) {
    at += 1 + rng.int(50);
    const id = `c${n}`;
    const direction: 'BUY' | 'SELL' = rng.chance(0.5) ? 'BUY' : 'SELL';
    const sentId = rng.chance(0.7) ? `b${n}` : id;
    if (sentId === id) out.push({ t: 'order', at, clientOrderId: id, strategy: 's', intentKey: 'k', role: 'quote', order: newOrder(id, direction) });
    else out.push({ t: 'batch', at, batchId: sentId, strategy: 's', intentKey: 'q', orders: [{ clientOrderId: id, order: newOrder(id, direction) }], cancels: [] });
    const r = rng.int(100);
    if (r < 3) continue; // never sent: the intent alone
    out.push({ t: 'sent', at, id: sentId, attempt: 1 + rng.int(2) });
    if (r < 6) continue; // sent, no answer
    if (r < 9) {
      out.push(rng.chance(0.5) ? { t: 'rejected', at, id, code: 'INSUFFICIENT_FUNDS' } : { t: 'lost', at, id });
      continue;
    }
    const o = { id, orderId: `o${n}`, direction };
    out.push({ t: 'ack', at, id, orderId: o.orderId });
    open.push(o);
    // Settle some open order: closed with every fill journaled, with a fill missing, or cancelled unfilled.
    if (open.length > 3 || rng.chance(0.6)) {
      const done = open.splice(rng.int(open.length), 1)[0]!;
      const k = rng.int(10);
      if (k < 2) {
        out.push(fill(done, '0.004'), fill(done, '0.006'), { t: 'closed', at, id: done.id, filled: dec('0.01') });
      } else if (k < 3) {
        out.push(fill(done, '0.004'), { t: 'closed', at, id: done.id, filled: dec('0.01') });
      } else out.push({ t: 'closed', at, id: done.id, filled: dec('0') });
    }
    if (rng.chance(0.01)) {
      out.push({ t: 'limits', at, curve: { at, equity: dec(rng.int(100)), peak: dec('100'), maxDrawdown: dec('3'), day: 19_800, dayOpen: dec('0') }, risk: { peak: dec('100'), day: 19_800, state: 'ACTIVE', reason: 'started' } });
    }
  }
  return out;
}

describe('a discarding journal\'s fold', () => {
  for (const seed of [1, 2]) {
    it(`says what the whole journal says about a restart, and stays bounded (seed ${seed})`, () => {
      const records = life(seed, 3 * DISCARD_FOLD_REQUESTS);
      const discard = Journal.open(join(dir, 'discard.journal'), { fsync: false, fs: discardingJournalFs });
      let largest = 0;
      for (let i = 0; i < records.length; ) {
        // Flushed in groups of 1-40 records, as ticks do.
        const end = Math.min(records.length, i + 1 + (i % 40));
        for (; i < end; i++) discard.append(records[i]!);
        discard.flush();
        largest = Math.max(largest, discard.state.orders.size);
      }
      const whole = JournalState.from(records);
      const at = records[records.length - 1]!.at + 1;
      expect(whole.orders.size).toBe(3 * DISCARD_FOLD_REQUESTS);
      expect(largest).toBeLessThanOrEqual(DISCARD_FOLD_REQUESTS);
      const fold = discard.state;
      expect(compactRecords(fold, at)).toEqual(compactRecords(whole, at));
      expect(fold.unresolved().map((r) => r.kind === 'order' && r.clientOrderId)).toEqual(whole.unresolved().map((r) => r.kind === 'order' && r.clientOrderId));
      expect(fold.positions()).toEqual(whole.positions());
      expect(fold.lastFill).toEqual(whole.lastFill);
      expect(fold.limits).toEqual(whole.limits);
      expect(discard.size.records).toBe(records.length);
      discard.close();
    });
  }

  it('is the whole fold below the bound', () => {
    const records = life(3, 500);
    const discard = Journal.open(join(dir, 'small.journal'), { fsync: false, fs: discardingJournalFs });
    for (const r of records) discard.append(r);
    discard.flush();
    expect(discard.state.orders).toEqual(JournalState.from(records).orders);
    discard.close();
  });
});
