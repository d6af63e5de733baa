import { describe, expect, it } from 'vitest';
import { batchChunks } from '../../src/orders/batch-chunks.js';

describe('batchChunks', () => {
  it('makes no chunk of nothing, one chunk of the lists themselves when they fit', () => {
    expect(batchChunks([], [], 3)).toEqual([]);
    const cancels = ['c1'];
    const [only, ...rest] = batchChunks(['p1', 'p2'], cancels, 3);
    expect(rest).toEqual([]);
    expect(only).toEqual({ places: ['p1', 'p2'], cancels: ['c1'] });
    expect(only!.cancels).toBe(cancels);
  });

  it('cuts cancels first, then placements, at most size operations each, in their order', () => {
    expect(batchChunks(['p1', 'p2', 'p3'], ['c1', 'c2'], 2)).toEqual([
      { places: [], cancels: ['c1', 'c2'] },
      { places: ['p1', 'p2'], cancels: [] },
      { places: ['p3'], cancels: [] },
    ]);
    expect(batchChunks(['p1', 'p2'], ['c1'], 2)).toEqual([
      { places: ['p1'], cancels: ['c1'] },
      { places: ['p2'], cancels: [] },
    ]);
  });
});
