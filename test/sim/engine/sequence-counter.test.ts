/**
 * SequenceCounters.counter hands out a key's counter itself, for producers that number the same keys on every trade:
 * bumping it must be exactly `next(key)`, in any mix with `next` and `current`, and a counter taken but never bumped
 * must read as a key never numbered.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../src/core/prng.js';
import { SequenceCounters, seqKey } from '../../../src/sim/sequences.js';

describe('SequenceCounters.counter', () => {
  it('numbers a key exactly as next() does, whichever of the two each event uses', () => {
    const rnd = mulberry32(7);
    const keys = [seqKey.trade('BTC-USD'), seqKey.candle('BTC-USD', 'TRADE', 'MINUTE_1'), seqKey.tickers(), 'x'];
    const viaCounter = new SequenceCounters();
    const viaNext = new SequenceCounters();
    const counters = new Map<string, { value: number }>();
    for (let i = 0; i < 2000; i++) {
      const key = keys[Math.floor(rnd() * keys.length)]!;
      const expected = viaNext.next(key);
      let got: number;
      if (rnd() < 0.5) {
        let c = counters.get(key);
        if (!c) counters.set(key, (c = viaCounter.counter(key)));
        got = ++c.value;
      } else got = viaCounter.next(key);
      expect(got).toBe(expected);
      for (const k of keys) expect(viaCounter.current(k)).toBe(viaNext.current(k));
    }
  });

  it('reads 0 for a counter taken and never bumped, and keeps the counter the key already had', () => {
    const seq = new SequenceCounters();
    const c = seq.counter('a');
    expect(c.value).toBe(0);
    expect(seq.current('a')).toBe(0);
    expect(seq.next('a')).toBe(1);
    expect(c.value).toBe(1);
    expect(seq.counter('a')).toBe(c);
  });
});

describe('SequenceCounters.accountCounters', () => {
  it('numbers each account of its stream as next(seqKey.account(stream, id)) does, apart from other streams', () => {
    const rnd = mulberry32(11);
    const ids = ['a1', 'a2', 'a3'];
    const kept = new SequenceCounters();
    const plain = new SequenceCounters();
    const orders = kept.accountCounters('order');
    for (let i = 0; i < 1000; i++) {
      const id = ids[Math.floor(rnd() * ids.length)]!;
      const viaNext = rnd() < 0.3;
      const expected = plain.next(seqKey.account('order', id));
      expect(viaNext ? kept.next(seqKey.account('order', id)) : orders.next(id)).toBe(expected);
    }
    for (const id of ids) {
      expect(kept.current(seqKey.account('order', id))).toBe(plain.current(seqKey.account('order', id)));
      expect(kept.current(seqKey.account('execution', id))).toBe(0);
    }
  });
});
