import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { guardClock } from '../../src/strategy/guarded-clock.js';

describe('guardClock', () => {
  it('counts timers as pending until they fire, are cancelled or the clock is disposed', async () => {
    const base = new VirtualClock(0);
    const errors: unknown[] = [];
    const clock = guardClock(base, (e) => errors.push(e));
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('a'), 10);
    const b = clock.setTimeout(() => fired.push('b'), 20);
    const tick = clock.setInterval(() => fired.push('i'), 15);
    expect(clock.pendingTimers).toBe(3);
    await base.advance(10);
    expect(fired).toEqual(['a']);
    expect(clock.pendingTimers).toBe(2); // a timeout that fired is no longer pending
    b.cancel();
    b.cancel(); // twice is harmless
    expect(clock.pendingTimers).toBe(1);
    await base.advance(20);
    expect(fired).toEqual(['a', 'i', 'i']);
    expect(clock.pendingTimers).toBe(1); // an interval stays pending
    tick.cancel();
    expect(clock.pendingTimers).toBe(0);
    await base.advance(100);
    expect(fired).toEqual(['a', 'i', 'i']);
    expect(errors).toEqual([]);
  });

  it('reports a throwing callback to onError and keeps the interval going', async () => {
    const base = new VirtualClock(0);
    const errors: unknown[] = [];
    const clock = guardClock(base, (e) => errors.push((e as Error).message));
    let n = 0;
    clock.setInterval(() => {
      n++;
      throw new Error(`boom ${n}`);
    }, 5);
    clock.setTimeout(() => {
      throw new Error('once');
    }, 7);
    await base.advance(10);
    expect(errors).toEqual(['boom 1', 'once', 'boom 2']);
    expect(clock.pendingTimers).toBe(1);
  });

  it('dispose cancels every pending timer and refuses new ones', async () => {
    const base = new VirtualClock(0);
    const clock = guardClock(base, () => {});
    const fired: number[] = [];
    clock.setTimeout(() => fired.push(1), 5);
    clock.setInterval(() => fired.push(2), 5);
    clock.dispose();
    expect(clock.disposed).toBe(true);
    expect(clock.pendingTimers).toBe(0);
    clock.setTimeout(() => fired.push(3), 1);
    expect(clock.pendingTimers).toBe(0);
    await base.advance(50);
    expect(fired).toEqual([]);
    expect(base.pendingTimers).toBe(0);
  });

  it('keeps its pending count through random schedules, cancels and fires (the linked list of live timers)', async () => {
    const base = new VirtualClock(0);
    const clock = guardClock(base, () => {});
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pending = new Set<{ cancel(): void }>();
    for (let step = 0; step < 2000; step++) {
      const r = rand(10);
      if (r < 4) {
        const h = clock.setTimeout(() => pending.delete(h), 1 + rand(5));
        pending.add(h);
      } else if (r < 7 && pending.size > 0) {
        const h = [...pending][rand(pending.size)]!;
        h.cancel();
        h.cancel();
        pending.delete(h);
      } else await base.advance(1);
      expect(clock.pendingTimers).toBe(pending.size);
    }
    clock.dispose();
    expect(clock.pendingTimers).toBe(0);
    expect(base.pendingTimers).toBe(0);
  });
});
