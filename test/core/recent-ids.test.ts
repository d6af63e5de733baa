import { describe, expect, it } from 'vitest';
import { RecentIds } from '../../src/core/recent-ids.js';

describe('RecentIds', () => {
  it('remembers at least the last `capacity` ids and at most twice that', () => {
    const ids = new RecentIds(3);
    for (let i = 0; i < 10; i++) {
      ids.add(`e${i}`);
      // the last three added are always known
      for (let j = Math.max(0, i - 2); j <= i; j++) expect(ids.has(`e${j}`)).toBe(true);
      expect(ids.size).toBeLessThanOrEqual(6);
    }
    expect(ids.has('e0')).toBe(false); // long gone
  });

  it('a repeat is a no-op', () => {
    const ids = new RecentIds(2);
    ids.add('a');
    ids.add('a');
    expect(ids.size).toBe(1);
  });

  it('keeps working far past capacity (no per-add cost growth to observe here, only correctness)', () => {
    const ids = new RecentIds(1000);
    for (let i = 0; i < 50_000; i++) ids.add(String(i));
    expect(ids.has('49999')).toBe(true);
    expect(ids.has('49000')).toBe(true);
    expect(ids.has('0')).toBe(false);
  });
});
