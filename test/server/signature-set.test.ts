/** SignatureSet (the replay guard's per-key memory) against a plain Set of the same pairs, through many growths. */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { mulberry32 as rng } from '../../src/core/prng.js';
import { ReplayGuard } from '../../src/server/rest/replay-guard.js';
import { MAX_OFFSET, SignatureSet } from '../../src/server/rest/signature-set.js';
import { sameAs } from '../helpers/cheap-expect.js';


describe('SignatureSet', () => {
  it('adds each (offset, id) pair once, like a Set of the pairs, while it grows', () => {
    for (let seed = 1; seed <= 5; seed++) {
      const r = rng(seed);
      const set = new SignatureSet();
      const ref = new Set<string>();
      const pairs: Array<[number, number]> = [];
      for (let step = 0; step < 20_000; step++) {
        let pair: [number, number];
        if (pairs.length > 0 && r() < 0.3) pair = pairs[Math.floor(r() * pairs.length)]!;
        else {
          // Few offsets and ids with shared low bits, so pairs collide on cells as well as on either half.
          const offset = r() < 0.1 ? MAX_OFFSET : Math.floor(r() * 50);
          const id = r() < 0.5 ? Math.floor(r() * 2 ** 52) : Math.floor(r() * 8) * 2 ** 32 + Math.floor(r() * 4);
          pair = [offset, id];
          pairs.push(pair);
        }
        const key = `${pair[0]} ${pair[1]}`;
        // 200k checks: sameAs calls `expect` (and builds the message) only for a case that differs.
        sameAs(set.add(pair[0], pair[1]), !ref.has(key), () => `seed ${seed} step ${step}: add ${key}`);
        ref.add(key);
        sameAs(set.size, ref.size, () => `seed ${seed} step ${step}: size`);
      }
    }
  });
});

describe('ReplayGuard outside the compact memory', () => {
  it('still refuses a replay whose timestamp is no integer or whose signature is not hex', () => {
    const clock = new VirtualClock(1_000_000);
    const g = new ReplayGuard({ clock, timestampWindowMs: 5_000 });
    expect(g.firstUse('k', '1000000.5', 'ab'.repeat(64))).toBe(true);
    expect(g.firstUse('k', '1000000.5', 'ab'.repeat(64))).toBe(false);
    expect(g.firstUse('k', '1000000', 'not hex at all')).toBe(true);
    expect(g.firstUse('k', '1000000', 'NOT HEX AT ALL')).toBe(false);
    expect(g.firstUse('k', '1000000', 'ab'.repeat(64))).toBe(true);
    expect(g.firstUse('k', '1000000', 'AB'.repeat(64))).toBe(false);
    expect(g.remembered).toBe(3);
  });
});
