import { describe, expect, it } from 'vitest';
import { OldestFirst } from '../../src/core/oldest-first.js';
import { mulberry32 } from '../../src/core/prng.js';
import { equalTo } from '../helpers/cheap-expect.js';

describe('OldestFirst', () => {
  it('takes entries out in insertion order, and answers undefined on an empty map', () => {
    const m = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    const oldest = new OldestFirst(m);
    expect(oldest.shift()).toEqual(['a', 1]);
    m.set('c', 3);
    expect(oldest.shift()).toEqual(['b', 2]);
    expect(oldest.shift()).toEqual(['c', 3]);
    expect(oldest.shift()).toBeUndefined();
    expect(m.size).toBe(0);
    // After the iterator said done, entries set later are still found.
    m.set('d', 4);
    expect(oldest.shift()).toEqual(['d', 4]);
  });

  it('follows a key deleted and set again to the end, and skips keys deleted elsewhere', () => {
    const m = new Map([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    const oldest = new OldestFirst(m);
    m.delete('a');
    m.set('a', 10);
    m.delete('b');
    m.set('c', 30); // an existing key keeps its place
    expect(oldest.shift()).toEqual(['c', 30]);
    expect(oldest.shift()).toEqual(['a', 10]);
    m.clear();
    m.set('e', 5);
    expect(oldest.shift()).toEqual(['e', 5]);
  });

  it('agrees with a list kept in insertion order over random sets, deletes, moves, clears and shifts', () => {
    const rand = mulberry32(7);
    const m = new Map<number, number>();
    const oldest = new OldestFirst(m);
    let order: number[] = []; // the model: keys oldest first
    for (let step = 0; step < 50_000; step++) {
      const r = rand();
      const key = Math.floor(rand() * 300);
      if (r < 0.45) {
        if (!m.has(key)) order.push(key);
        m.set(key, step);
      } else if (r < 0.6) {
        if (m.delete(key)) order = order.filter((k) => k !== key);
      } else if (r < 0.7) {
        // re-insert: the key moves to the end
        if (m.delete(key)) order = order.filter((k) => k !== key);
        m.set(key, step);
        order.push(key);
      } else if (r < 0.7005) {
        m.clear();
        order = [];
      } else {
        const got = oldest.shift();
        const want = order.shift();
        equalTo(got?.[0], want, () => `step ${step}`);
      }
      if (step % 1000 === 0) equalTo([...m.keys()], order, () => `keys at step ${step}`);
    }
  });
});
