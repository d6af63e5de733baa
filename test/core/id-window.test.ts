import { describe, expect, it } from 'vitest';
import { IdWindow } from '../../src/core/id-window.js';
import { sameAs } from '../helpers/cheap-expect.js';

describe('IdWindow', () => {
  it('adds new ids only and forgets the oldest first', () => {
    const ids = new IdWindow();
    expect(ids.add('a')).toBe(true);
    expect(ids.add('b')).toBe(true);
    expect(ids.add('a')).toBe(false);
    expect(ids.size).toBe(2);
    ids.dropOldest();
    expect(ids.has('a')).toBe(false);
    expect(ids.has('b')).toBe(true);
    expect(ids.add('a')).toBe(true);
    ids.dropOldest();
    ids.dropOldest();
    ids.dropOldest(); // nothing left: no-op
    expect(ids.size).toBe(0);
    expect(ids.add('b')).toBe(true);
  });

  it('answers as a Set with an insertion-order list does, over long random runs', () => {
    // The model: a Set plus the ids in the order added, the oldest deleted from both. Random ids from small and
    // large pools (many repeats, and tables rebuilt many times), bounded like the store and strategies bound them.
    // Some 465k checks: sameAs calls `expect` only for a case that differs (expect itself took most of the time).
    let seed = 11;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (const [pool, bound] of [
      [8, 3],
      [50, 20],
      [5000, 1000],
      [100000, 2000],
    ] as const) {
      const ids = new IdWindow();
      const set = new Set<string>();
      const order: string[] = [];
      for (let step = 0; step < 30000; step++) {
        const id = rnd(3) === 0 ? `${rnd(pool)}` : `s-${rnd(pool)}-x`;
        sameAs(ids.has(id), set.has(id), () => `pool ${pool} step ${step}: has ${id}`);
        const fresh = !set.has(id);
        if (fresh) {
          set.add(id);
          order.push(id);
        }
        sameAs(ids.add(id), fresh, () => `pool ${pool} step ${step}: add ${id}`);
        while (set.size > bound || (set.size > 0 && rnd(50) === 0)) {
          set.delete(order.shift()!);
          ids.dropOldest();
        }
        sameAs(ids.size, set.size, () => `pool ${pool} step ${step}: size`);
      }
      for (let k = 0; k < pool; k++) sameAs(ids.has(`s-${k}-x`), set.has(`s-${k}-x`), () => `pool ${pool} at the end: has s-${k}-x`);
    }
  });
});
