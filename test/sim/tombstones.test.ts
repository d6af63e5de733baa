/**
 * Tombstones keep dropped ids in batches and index them when asked (retention.ts): `has` and `size` must answer
 * as the earlier code did (one map entry per id, swept on every add; kept here as the reference), under random
 * batches, questions between them and jumps of the clock past the tombstone lifetime. Each id is dropped once, as
 * retention drops each item once.
 */
import { describe, it } from 'vitest';
import { TOMBSTONE_MS, Tombstones } from '../../src/sim/retention.js';
import { sameAs } from '../helpers/cheap-expect.js';

/** The reference: sweep from the oldest entry on every add. */
class SweepEveryAdd {
  readonly at = new Map<string, number>();
  add(id: string, now: number): void {
    this.at.set(id.toLowerCase(), now);
    for (const [k, t] of this.at) {
      if (now - t < TOMBSTONE_MS) break;
      this.at.delete(k);
    }
  }
}

describe('Tombstones', () => {
  for (const seed of [1, 2, 3]) {
    it(`answers as a sweep on every add would, seed ${seed}`, () => {
      let s = seed;
      const random = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
      const fast = new Tombstones();
      const ref = new SweepEveryAdd();
      const ids: string[] = [];
      let now = 0;
      // Some 14k checks a seed: sameAs calls `expect` only for a case that differs (expect took most of the time).
      for (let step = 0; step < 5_000; step++) {
        const r = random();
        if (r < 0.02) now += Math.floor(random() * 2 * TOMBSTONE_MS);
        else if (r < 0.3) now += Math.floor(random() * (TOMBSTONE_MS / 50));
        const batch: string[] = [];
        for (let i = Math.floor(random() * 4); i >= 0; i--) {
          const id = `id-${step}-${i}`;
          batch.push(random() < 0.2 ? id.toUpperCase() : id);
          ids.push(id);
          ref.add(id, now);
        }
        if (batch.length === 1 && random() < 0.5) fast.add(batch[0]!, now);
        else fast.addAll(batch, now);
        if (random() < 0.3) {
          const x = ids[Math.floor(random() * ids.length)]!;
          sameAs(fast.has(x.toUpperCase()), ref.at.has(x), () => `step ${step}: has ${x.toUpperCase()}`);
        }
        if (random() < 0.05) sameAs(fast.size, ref.at.size, () => `step ${step}: size`);
      }
      for (const x of ids) sameAs(fast.has(x), ref.at.has(x), () => `at the end: has ${x}`);
    });
  }
});
