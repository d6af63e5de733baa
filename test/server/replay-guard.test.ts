/**
 * ReplayGuard's memory of state-changing signatures, unit by unit: remembered per API key by the signature text
 * (case-insensitive), refused while the request could still verify, forgotten once it cannot.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { ReplayGuard } from '../../src/server/rest/replay-guard.js';

function guard(start = 1_000_000) {
  const clock = new VirtualClock(start);
  const g = new ReplayGuard({ clock, timestampWindowMs: 5_000 });
  return { g, advance: (ms: number) => clock.set(clock.now() + ms) };
}

const SIG = 'ab'.repeat(64);

describe('ReplayGuard.firstUse', () => {
  it('refuses the same key and signature again, in either case, while the window lasts', () => {
    const { g, advance } = guard();
    expect(g.firstUse('k1', '1000000', SIG)).toBe(true);
    expect(g.firstUse('k1', '1000000', SIG)).toBe(false);
    expect(g.firstUse('k1', '1000000', SIG.toUpperCase())).toBe(false);
    advance(5_000); // the last moment it could still verify
    expect(g.firstUse('k1', '1000000', SIG)).toBe(false);
    expect(g.remembered).toBe(1);
  });

  it('tells keys and signatures apart', () => {
    const { g } = guard();
    expect(g.firstUse('k1', '1000000', SIG)).toBe(true);
    expect(g.firstUse('k2', '1000000', SIG)).toBe(true);
    expect(g.firstUse('k1', '1000000', 'cd'.repeat(64))).toBe(true);
    expect(g.remembered).toBe(3);
  });

  it('accepts once the request can no longer verify, and forgets expired signatures', () => {
    const { g, advance } = guard();
    expect(g.firstUse('k1', '1000000', SIG)).toBe(true);
    expect(g.firstUse('k2', '1000000', SIG)).toBe(true);
    advance(5_001);
    expect(g.firstUse('k1', '1000000', SIG)).toBe(true); // past the window the server refuses its timestamp anyway
    advance(20_000);
    expect(g.firstUse('k3', '1025001', SIG)).toBe(true); // prunes the other two
    expect(g.remembered).toBe(1);
  });
});
