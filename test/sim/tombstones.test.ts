/**
 * Tombstones skip their expiry sweep while nothing can have expired (retention.ts): `has` and `size` must answer
 * as with a sweep on every add (the earlier code, kept here as the reference), under random adds, re-adds of the
 * same id and jumps of the clock past the tombstone lifetime.
 */
import { describe, expect, it } from 'vitest';
import { TOMBSTONE_MS, Tombstones } from '../../src/sim/retention.js';

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
      const known = new Set<string>();
      let now = 0;
      for (let step = 0; step < 20_000; step++) {
        const r = random();
        if (r < 0.02) now += Math.floor(random() * 2 * TOMBSTONE_MS);
        else if (r < 0.3) now += Math.floor(random() * (TOMBSTONE_MS / 50));
        const id = ids.length > 0 && random() < 0.1 ? ids[Math.floor(random() * ids.length)]! : `id-${step}`;
        if (!known.has(id)) {
          known.add(id);
          ids.push(id);
        }
        fast.add(random() < 0.2 ? id.toUpperCase() : id, now);
        ref.add(id, now);
        expect(fast.size).toBe(ref.at.size);
        const x = ids[Math.floor(random() * ids.length)]!;
        expect(fast.has(x.toUpperCase())).toBe(ref.at.has(x));
      }
      for (const x of ids) expect(fast.has(x)).toBe(ref.at.has(x));
    });
  }
});
