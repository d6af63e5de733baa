/**
 * The order store indexes closed orders only when a lookup asks, and an order that closes during its placement
 * is never registered as open (orders-store.ts). Every answer must be the one of the eager store it replaced
 * (every order added as open first, one id index kept up to date at every change), which this test keeps as the
 * reference: randomized placements that rest or close at once, closes, retention drops, and lookups of every kind.
 */
import { describe, expect, it } from 'vitest';
import { ZERO } from '../../../src/core/decimal.js';
import { mulberry32 as rng } from '../../../src/core/prng.js';
import { OrderStore } from '../../../src/sim/orders-store.js';
import { type RetentionLimits, dropCount } from '../../../src/sim/retention.js';
import type { OrderRecord } from '../../../src/sim/trading-types.js';


/** The eager store: every order added as open, one id index for all (the store before the change). */
class EagerStore {
  readonly byId = new Map<string, OrderRecord>();
  readonly accounts = new Map<string, { open: Map<string, OrderRecord>; closed: OrderRecord[] }>();
  readonly dropped = new Set<string>();
  constructor(
    readonly now: () => number,
    readonly limits: RetentionLimits,
  ) {}
  #acc(a: string) {
    let acc = this.accounts.get(a);
    if (!acc) this.accounts.set(a, (acc = { open: new Map(), closed: [] }));
    return acc;
  }
  add(rec: OrderRecord): void {
    this.byId.set(rec.order.id.toLowerCase(), rec);
    this.#acc(rec.accountId).open.set(rec.order.id, rec);
  }
  markClosed(rec: OrderRecord): void {
    const acc = this.#acc(rec.accountId);
    if (!acc.open.delete(rec.order.id)) throw new Error('not open');
    acc.closed.push(rec);
    const k = dropCount(acc.closed, this.limits, (r) => r.order.closedAt?.getTime(), this.now());
    for (const old of acc.closed.splice(0, k)) {
      this.byId.delete(old.order.id.toLowerCase());
      this.dropped.add(old.order.id.toLowerCase());
    }
  }
  get(id: string): OrderRecord | undefined {
    return this.byId.get(id.toLowerCase());
  }
}

function record(accountId: string, id: string): OrderRecord {
  const at = new Date(0);
  return {
    accountId,
    order: { id, marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', fillQuantity: ZERO, commission: ZERO, proceeds: ZERO, status: 'OPEN', createdAt: at, updatedAt: at },
    baseCurrency: 'BTC',
    quoteCurrency: 'USD',
    reserveCurrency: 'USD',
    reserved: ZERO,
    remaining: undefined,
    resting: undefined,
    executions: [],
    closeSeq: 0,
  };
}

function owned(store: OrderStore, accountId: string, id: string): string {
  try {
    return store.owned(accountId, id).order.id;
  } catch (e) {
    return (e as { code?: string }).code ?? 'threw';
  }
}

describe('OrderStore (closed orders indexed when asked, orders closed at placement never open)', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`answers as the eager store would, seed ${seed}`, () => {
      const random = rng(seed);
      let now = 1_000_000;
      const limits = { maxAgeMs: 5_000, maxPerAccount: 40 };
      const store = new OrderStore(() => now, limits);
      const ref = new EagerStore(() => now, limits);
      const accounts = ['a', 'b', 'c'];
      const ids: string[] = [];
      const close = (s: { markClosed(r: OrderRecord): void }, rec: OrderRecord) => {
        rec.order.closedAt = new Date(now);
        s.markClosed(rec);
      };
      // Each store gets its own records (markClosed writes closeSeq).
      const mine = new Map<string, OrderRecord>();
      const theirs = new Map<string, OrderRecord>();
      for (let step = 0; step < 5000; step++) {
        const r = random();
        const pick = () => accounts[Math.floor(random() * accounts.length)]!;
        if (r < 0.45) {
          const accountId = pick();
          const id = `o${step}-${Math.floor(random() * 1e9).toString(16)}`;
          const a = record(accountId, id);
          const b = record(accountId, id);
          mine.set(id, a);
          theirs.set(id, b);
          ids.push(id);
          ref.add(b);
          if (random() < 0.6) {
            // Traded and closed while being placed: the store never sees it open.
            close(store, a);
            close(ref, b);
          } else store.add(a);
        } else if (r < 0.6) {
          const open = [...ref.byId.values()].filter((x) => x.order.closedAt === undefined);
          if (open.length > 0) {
            const b = open[Math.floor(random() * open.length)]!;
            close(store, mine.get(b.order.id)!);
            close(ref, b);
          }
        } else if (r < 0.63) {
          now += Math.floor(random() * 2_000);
        } else if (ids.length > 0) {
          const id = ids[Math.floor(random() * ids.length)]!;
          const asked = random() < 0.3 ? id.toUpperCase() : id;
          const asker = pick();
          const expected = ref.get(id);
          expect(store.get(asked)?.order.id).toBe(expected?.order.id);
          expect(owned(store, asker, asked)).toBe(expected && expected.accountId === asker ? id : 'NOT_FOUND');
          expect(store.dropped.has(asked)).toBe(ref.dropped.has(id.toLowerCase()));
          const ids2 = (list: OrderRecord[]) => list.map((x) => x.order.id);
          expect(ids2(store.open(asker))).toEqual(ids2([...ref.accounts.get(asker)?.open.values() ?? []].reverse()));
          expect(ids2(store.closed(asker))).toEqual(ids2([...(ref.accounts.get(asker)?.closed ?? [])].reverse()));
          expect(store.openCount(asker)).toBe(ref.accounts.get(asker)?.open.size ?? 0);
        }
      }
      for (const id of ids) {
        const expected = ref.get(id);
        for (const a of accounts) expect(owned(store, a, id)).toBe(expected && expected.accountId === a ? id : 'NOT_FOUND');
      }
      expect(ref.dropped.size).toBeGreaterThan(100);
    });
  }

  it('refuses to close an order twice', () => {
    const store = new OrderStore(() => 0);
    const rec = record('a', 'x');
    store.markClosed(rec);
    expect(() => store.markClosed(rec)).toThrow(/not open/);
  });
});
