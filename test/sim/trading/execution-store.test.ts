/**
 * The execution store indexes ids only when a lookup asks (trading-executions.ts): every answer must be what an
 * index kept up to date at every add would give, across retention drops, several accounts, upper-case ids and
 * lookups of other accounts' or dropped executions. Compared, randomized, with such an index kept here.
 */
import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { mulberry32 as rng } from '../../../src/core/prng.js';
import type { Execution } from '../../../src/model/order.js';
import { ExecutionStore } from '../../../src/sim/trading-executions.js';
import { holds, sameAs } from '../../helpers/cheap-expect.js';


function execution(id: string, at: number): Execution {
  return {
    id,
    marketSymbol: 'BTC-USD',
    executedAt: new Date(at),
    quantity: dec('1'),
    rate: dec('100'),
    orderId: `o-${id}`,
    commission: dec('0'),
    isTaker: true,
    direction: 'BUY',
  };
}

/** What the store answers for (account, id): the execution's id, or 'NOT_FOUND'. */
function lookup(store: ExecutionStore, accountId: string, id: string): string {
  try {
    return store.get(accountId, id).id;
  } catch (e) {
    return (e as { code?: string }).code ?? 'threw';
  }
}

describe('ExecutionStore id lookups (index built when asked)', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`answers as an eagerly kept index would, seed ${seed}`, () => {
      const random = rng(seed);
      let now = 1_000_000;
      const limits = { maxAgeMs: 5_000, maxPerAccount: 48 };
      const store = new ExecutionStore(() => now, limits);
      const accounts = ['a', 'b', 'c'];
      // The reference: every id ever added with its account, and the ids retention dropped.
      const owner = new Map<string, string>();
      const all: string[] = [];
      for (let step = 0; step < 4000; step++) {
        const r = random();
        if (r < 0.6) {
          const accountId = accounts[Math.floor(random() * accounts.length)]!;
          const id = `e${step}-${Math.floor(random() * 1e9).toString(16)}`;
          store.add(accountId, execution(id, now));
          owner.set(id, accountId);
          all.push(id);
        } else if (r < 0.65) {
          now += Math.floor(random() * 2_000);
        } else if (all.length > 0) {
          const id = all[Math.floor(random() * all.length)]!;
          const asker = random() < 0.8 ? owner.get(id)! : accounts[Math.floor(random() * accounts.length)]!;
          const asked = random() < 0.3 ? id.toUpperCase() : id;
          // Kept iff still in the owner's list (retention drops from the front of each account's list).
          const kept = store.list(owner.get(id)!).some((e) => e.id === id);
          const expected = kept && asker === owner.get(id) ? id : 'NOT_FOUND';
          // Some 1,400 lookups a seed, and 3 for every id at the end: compared in plain code first, `expect` only for
          // one that differs.
          sameAs(lookup(store, asker, asked), expected, () => `${asker} asking ${asked} at step ${step}`);
          if (!kept) holds(store.dropped.has(id), () => `${id} dropped`);
        }
      }
      // Every id at the end, each account asking: found exactly for the owner while kept.
      for (const id of all) {
        const kept = store.list(owner.get(id)!).some((e) => e.id === id);
        for (const a of accounts) sameAs(lookup(store, a, id), kept && a === owner.get(id) ? id : 'NOT_FOUND', () => `${a} asking ${id} at the end`);
      }
      expect(lookup(store, 'nobody', all[0]!)).toBe('NOT_FOUND');
    });
  }
});
