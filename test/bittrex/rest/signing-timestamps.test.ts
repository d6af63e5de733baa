/**
 * Api-Timestamp rules: never back in time, never one timestamp for two identical requests (the server would take
 * the second for a replay), and no drift ahead of the clock when many different requests share a millisecond.
 */
import { describe, expect, it } from 'vitest';
import { SigningTimestamps } from '../../../src/bittrex/rest/signing-timestamps.js';

describe('SigningTimestamps', () => {
  it("follows the clock in whole ms and never goes back", () => {
    const ts = new SigningTimestamps();
    expect(ts.next(1000.7, 'a')).toBe(1000);
    expect(ts.next(1005.2, 'a')).toBe(1005);
    expect(ts.next(990, 'b')).toBe(1005); // the clock went back: the timestamp does not
  });

  it('gives an identical request a later timestamp, and each request once per timestamp', () => {
    const ts = new SigningTimestamps();
    expect(ts.next(1000, 'GET /v3/balances')).toBe(1000);
    expect(ts.next(1000, 'GET /v3/orders/open')).toBe(1000);
    expect(ts.next(1000, 'GET /v3/balances')).toBe(1001);
    expect(ts.next(1000, 'GET /v3/orders/open')).toBe(1001);
    expect(ts.next(1000, 'GET /v3/orders/open')).toBe(1002);
    // The clock catches up: its own time again.
    expect(ts.next(1010, 'GET /v3/balances')).toBe(1010);
  });

  it('does not run ahead of a clock that stands still for 100k different requests', () => {
    const ts = new SigningTimestamps();
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) {
      const request = `POST /v3/orders {"clientOrderId":"${i}"}`;
      const t = ts.next(5000, request);
      expect(t).toBe(5000);
      seen.add(`${t} ${request}`);
    }
    expect(seen.size).toBe(100_000);
  });

  it('never repeats (timestamp, request) on random requests and clock steps', () => {
    const ts = new SigningTimestamps();
    const seen = new Set<string>();
    let now = 0;
    let last = 0;
    let x = 7;
    for (let i = 0; i < 50_000; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      if (x % 7 === 0) now += (x >>> 8) % 3;
      const request = `GET /v3/r${(x >>> 4) % 5}`;
      const t = ts.next(now, request);
      expect(t).toBeGreaterThanOrEqual(last);
      expect(seen.has(`${t} ${request}`)).toBe(false);
      seen.add(`${t} ${request}`);
      last = t;
    }
  });
});
