/**
 * Operation.touch (sim/trading-settle.ts) keeps the touched orders once each in order of first change: by a scan
 * while few, by a set of ids beyond; compared with a Map on random sequences that cross the switch.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/prng.js';
import { Operation } from '../../src/sim/trading-settle.js';
import type { OrderRecord } from '../../src/sim/trading-types.js';

describe('Operation.touch', () => {
  it('equals a Map of first changes on random sequences', () => {
    const rng = mulberry32(5);
    for (let run = 0; run < 200; run++) {
      const op = new Operation('BTC-USD');
      const model = new Map<string, OrderRecord>();
      const ids = 1 + Math.floor(rng() * 40);
      const steps = Math.floor(rng() * 80);
      for (let s = 0; s < steps; s++) {
        const id = `o${Math.floor(rng() * ids)}`;
        // A record object per touch: the first one of an id is kept, as the Map kept it.
        const rec = { accountId: 'a', order: { id } } as unknown as OrderRecord;
        op.touch(rec);
        if (!model.has(id)) model.set(id, rec);
      }
      expect(op.touched).toEqual([...model.values()]);
      for (let i = 0; i < op.touched.length; i++) expect(op.touched[i]).toBe([...model.values()][i]);
    }
    expect(new Operation('BTC-USD').executions).toBeUndefined();
  });
});
