/**
 * ReplayGuard remembers (timestamp, first 52 bits of the signature) instead of the signature text. Compared here
 * with the general rule it replaces — refuse a (key, signature) already seen while its timestamp still verifies —
 * on random streams of requests and replays, including signatures that share their first 52 bits.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { ReplayGuard, signatureId } from '../../src/server/rest/replay-guard.js';

/** The general rule, by the full lower-case signature (what firstUse did before). */
class Reference {
  readonly seen = new Map<string, number>();
  constructor(readonly window: number) {}
  firstUse(now: number, key: string, ts: string, sig: string): boolean {
    const id = `${key} ${sig.toLowerCase()}`;
    const until = this.seen.get(id);
    if (until !== undefined && until >= now) return false;
    this.seen.set(id, Number(ts) + this.window);
    return true;
  }
}

/** A deterministic generator, so a failure can be replayed from its seed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe('ReplayGuard compact memory vs the full-signature rule', () => {
  it('answers the same on random requests, replays, shared 52-bit prefixes and clock steps', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const r = rng(seed);
      const window = 5_000;
      const clock = new VirtualClock(1_000_000);
      const g = new ReplayGuard({ clock, timestampWindowMs: window });
      const ref = new Reference(window);
      const sent: Array<[string, string, string]> = [];
      const prefixes = ['0123456789abc', 'fedcba9876543', 'ABCDEF0123456'];
      const usedTs = new Map<string, Set<string>>(); // key|prefix -> timestamps (one request per ms per prefix)
      for (let step = 0; step < 400; step++) {
        const x = r();
        if (x < 0.1) {
          clock.set(clock.now() + Math.floor(r() * 3_000));
          continue;
        }
        let req: [string, string, string];
        if (x < 0.35 && sent.length > 0) {
          const [k, t, s] = sent[Math.floor(r() * sent.length)]!;
          req = [k, t, r() < 0.5 ? s.toUpperCase() : s]; // a replay, in either case
        } else {
          const key = `k${Math.floor(r() * 3)}`;
          const ts = String(clock.now() - Math.floor(r() * 4_000));
          // A signature fixes its timestamp (it is the HMAC of a preimage that holds it): derive it from both.
          let sig = createHash('sha512').update(`${key}|${ts}|${step}`).digest('hex');
          if (r() < 0.5) {
            const p = prefixes[Math.floor(r() * prefixes.length)]!;
            const slot = `${key}|${p.toLowerCase()}`;
            const used = usedTs.get(slot) ?? new Set<string>();
            usedTs.set(slot, used);
            // The documented edge (same key, same ms, same 52 bits) is left to its own test below.
            if (!used.has(ts)) {
              used.add(ts);
              sig = p + sig.slice(13);
            }
          }
          req = [key, ts, sig];
          sent.push(req);
        }
        const [k, t, s] = req;
        expect(g.firstUse(k, t, s), `seed ${seed} step ${step}`).toBe(ref.firstUse(clock.now(), k, t, s));
      }
    }
  });

  it('reads the id from 13 hex digits in either case, and keeps non-hex signatures as text', () => {
    expect(signatureId('0123456789abcdef')).toBe(0x0123456789abc);
    expect(signatureId('FFFFFFFFFFFFF0')).toBe(2 ** 52 - 1);
    expect(signatureId('fffffffffffff')).toBe(signatureId('FFFFFFFFFFFFF'));
    expect(signatureId('0123456789abZ')).toBe('0123456789abz');
    expect(signatureId('\u0010123456789abc')).toBe('\u0010123456789abc'); // a control character is no digit
    expect(signatureId('abc')).toBe('abc');
  });

  it('reads every UTF-16 code unit at the first, a middle and the last digit as the digit-by-digit rule does', () => {
    // The rule signatureId had before it read digits without a branch: value per digit, else the lower-case text.
    const reference = (sig: string): number | string => {
      if (sig.length < 13) return sig.toLowerCase();
      let v = 0;
      for (let i = 0; i < 13; i++) {
        const c = sig.charCodeAt(i);
        const l = c | 32;
        if (c >= 48 && c <= 57) v = v * 16 + c - 48;
        else if (l >= 97 && l <= 102) v = v * 16 + l - 87;
        else return sig.toLowerCase();
      }
      return v;
    };
    for (let c = 0; c < 0x10000; c++) {
      for (const at of [0, 6, 12]) {
        const sig = `aBcDeF0123456789${'f'.repeat(10)}`.slice(0, at) + String.fromCharCode(c) + 'F0e1d2c3b4a59687'.slice(at);
        if (signatureId(sig) !== reference(sig)) expect.fail(`code unit ${c} at ${at}`);
      }
    }
  });

  it('documents its edge: same key, same millisecond and same first 52 bits is taken for a replay', () => {
    const clock = new VirtualClock(1_000_000);
    const g = new ReplayGuard({ clock, timestampWindowMs: 5_000 });
    expect(g.firstUse('k', '1000000', `0123456789abc${'1'.repeat(115)}`)).toBe(true);
    expect(g.firstUse('k', '1000000', `0123456789abc${'2'.repeat(115)}`)).toBe(false);
    expect(g.firstUse('k', '1000001', `0123456789abc${'2'.repeat(115)}`)).toBe(true);
    expect(g.remembered).toBe(2);
  });
});
