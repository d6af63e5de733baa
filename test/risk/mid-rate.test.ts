/** midRate's kept answer equals computing (bid + ask) / 2 afresh, for repeated, equal and new pairs. */
import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import { midRate } from '../../src/risk/order-value.js';

describe('midRate', () => {
  it('equals (bid + ask) / 2 whatever the previous pair was', () => {
    const rnd = mulberry32(3);
    // Few distinct values, written in different ways, so the same pair comes back often as equal but new objects.
    const rate = () => dec((29990 + Math.floor(rnd() * 4) * 0.5).toFixed(1 + Math.floor(rnd() * 3)));
    let bid = rate();
    let ask = rate();
    for (let n = 0; n < 5000; n++) {
      if (rnd() < 0.4) bid = rate();
      if (rnd() < 0.4) ask = rate();
      const mid = midRate(bid, ask);
      expect(mid.toFixed()).toBe(bid.plus(ask).div(2).toFixed());
    }
  });
});
