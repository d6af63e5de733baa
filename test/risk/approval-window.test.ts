/**
 * The submit-rate window (src/risk/approval-window.ts, a ring of approval times) against a plain list of times:
 * the same count, and the same answer to "when are `n` more admitted", over random lives of approvals and prunes
 * that fill, empty and overflow the ring's first capacity many times.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/prng.js';
import { ApprovalWindow } from '../../src/risk/approval-window.js';
import { sameAs } from '../helpers/cheap-expect.js';

/** The window as a list: every approval time, pruned by filtering. */
class ListWindow {
  times: number[] = [];
  constructor(readonly windowMs: number) {}
  prune(now: number): void {
    this.times = this.times.filter((t) => t > now - this.windowMs);
  }
  admitsAt(orders: number, max: number): number | undefined {
    const leaving = this.times.length + Math.min(orders, max) - max;
    return leaving <= 0 ? undefined : this.times[leaving - 1]! + this.windowMs;
  }
}

describe('ApprovalWindow', () => {
  for (const [seed, windowMs, max] of [[1, 1000, 5], [2, 60_000, 120], [3, 5000, 300], [4, 250, 1]] as const) {
    it(`answers as a list of times (seed ${seed}, ${max} per ${windowMs} ms)`, () => {
      const random = mulberry32(seed);
      const ring = new ApprovalWindow(windowMs);
      const list = new ListWindow(windowMs);
      let now = 1_700_000_000_000;
      let added = 0;
      // 40k checks a seed: sameAs calls `expect` only for a case that differs (expect took most of the time).
      for (let step = 0; step < 20_000; step++) {
        // Bursts (many approvals at one instant or close together) and pauses (the window empties).
        now += random() < 0.05 ? Math.floor(random() * windowMs * 2) : random() < 0.5 ? 0 : Math.floor(random() * (windowMs / max) * 2);
        ring.prune(now);
        list.prune(now);
        sameAs(ring.count, list.times.length, () => `step ${step} at ${now}: count`);
        if (ring.count < max && random() < 0.7) {
          ring.add(now);
          list.times.push(now);
          added++;
        }
        const orders = 1 + Math.floor(random() * (max + 2));
        sameAs(ring.admitsAt(orders, max), list.admitsAt(orders, max), () => `step ${step} at ${now}: admitsAt(${orders})`);
      }
      expect(added).toBeGreaterThan(1000);
    });
  }

  it('grows past its first capacity without losing the order of approvals', () => {
    const ring = new ApprovalWindow(1000);
    for (let t = 0; t < 500; t++) ring.add(t);
    ring.prune(1100);
    expect(ring.count).toBe(399);
    expect(ring.admitsAt(1, 399)).toBe(1101);
    expect(ring.admitsAt(399, 399)).toBe(1499);
    for (let t = 500; t < 700; t++) ring.add(t);
    expect(ring.count).toBe(599);
    expect(ring.admitsAt(1, 599)).toBe(1101);
  });
});
