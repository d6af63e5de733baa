import { describe, expect, it } from 'vitest';
import { DEFAULT_RECONNECT, ReconnectPolicy } from '../../../src/bittrex/hub/reconnect-policy.js';

describe('ReconnectPolicy', () => {
  it('grows by the factor from the initial delay and never exceeds the cap', () => {
    const p = new ReconnectPolicy({ initialDelayMs: 100, maxDelayMs: 1_000, factor: 3, jitter: 0 });
    expect(Array.from({ length: 6 }, () => p.nextDelayMs())).toEqual([100, 300, 900, 1_000, 1_000, 1_000]);
    expect(p.attempt).toBe(6);
  });

  it('starts over after reset()', () => {
    const p = new ReconnectPolicy({ jitter: 0 });
    p.nextDelayMs();
    p.nextDelayMs();
    p.reset();
    expect(p.nextDelayMs()).toBe(DEFAULT_RECONNECT.initialDelayMs);
  });

  it('starts over after a connection that stayed up for stableAfterMs, and only then', () => {
    const p = new ReconnectPolicy({ initialDelayMs: 100, maxDelayMs: 10_000, factor: 2, jitter: 0, stableAfterMs: 5_000 });
    const flap = (upMs: number): number => {
      p.connected(1_000);
      p.lost(1_000 + upMs);
      return p.nextDelayMs();
    };
    expect(p.nextDelayMs()).toBe(100);
    expect([flap(0), flap(10), flap(4_999)]).toEqual([200, 400, 800]);
    expect(flap(5_000)).toBe(100);
    // A loss with no connection up (a failed attempt) never resets.
    p.lost(1_000_000);
    expect(p.nextDelayMs()).toBe(200);
  });

  it('refuses a stableAfterMs that is negative or not finite', () => {
    expect(() => new ReconnectPolicy({ stableAfterMs: -1 })).toThrow(/stableAfterMs must be a finite number >= 0/);
    expect(() => new ReconnectPolicy({ stableAfterMs: Number.NaN })).toThrow(/stableAfterMs/);
  });

  it('only shortens delays with jitter, by at most the jitter fraction', () => {
    const base = new ReconnectPolicy({ initialDelayMs: 1_000, maxDelayMs: 8_000, jitter: 0 });
    for (const r of [0, 0.25, 0.5, 0.999]) {
      const p = new ReconnectPolicy({ initialDelayMs: 1_000, maxDelayMs: 8_000, jitter: 0.3 }, () => r);
      for (let n = 1; n <= 6; n++) {
        const d = p.delayFor(n);
        expect(d).toBeLessThanOrEqual(base.delayFor(n));
        expect(d).toBeGreaterThanOrEqual(Math.floor(base.delayFor(n) * 0.7));
      }
    }
  });

  it('stays at the cap after very long outages instead of overflowing', () => {
    const p = new ReconnectPolicy({ initialDelayMs: 1_000, maxDelayMs: 30_000, factor: 10, jitter: 0 });
    expect(p.delayFor(10_000)).toBe(30_000);
    const zero = new ReconnectPolicy({ initialDelayMs: 0, maxDelayMs: 30_000, factor: 10, jitter: 0 });
    expect(zero.delayFor(10_000)).toBe(0);
  });

  it('rejects tuning that would storm or stall', () => {
    expect(() => new ReconnectPolicy({ initialDelayMs: -1 })).toThrow(RangeError);
    expect(() => new ReconnectPolicy({ initialDelayMs: 5_000, maxDelayMs: 1_000 })).toThrow(RangeError);
    expect(() => new ReconnectPolicy({ factor: 0.5 })).toThrow(RangeError);
    expect(() => new ReconnectPolicy({ jitter: 2 })).toThrow(RangeError);
    expect(() => new ReconnectPolicy({ maxDelayMs: Number.NaN })).toThrow(RangeError);
  });
});
