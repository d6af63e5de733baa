/** Int ids of uuids for v1.1: stable while remembered, bounded, and never reused. */
import { describe, expect, it } from 'vitest';
import { NumericIds } from '../../../src/server/v1/numeric-ids.js';

describe('NumericIds', () => {
  it('numbers uuids in order of first sight and answers the same int again', () => {
    const ids = new NumericIds(10);
    expect(['a', 'b', 'a', 'c', 'b'].map((u) => ids.idOf(u))).toEqual([1, 2, 1, 3, 2]);
  });

  it('remembers at least the newest half of its capacity, forgets older ones, and never hands out an int twice', () => {
    const ids = new NumericIds(10);
    const first = Array.from({ length: 25 }, (_, i) => ids.idOf(`u${i}`));
    expect(first).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    // The newest five are remembered whatever the generation boundary.
    for (let i = 20; i < 25; i++) expect(ids.idOf(`u${i}`)).toBe(i + 1);
    // The oldest is long forgotten: seen again, it gets a new, larger int.
    expect(ids.idOf('u0')).toBe(26);
  });
});
