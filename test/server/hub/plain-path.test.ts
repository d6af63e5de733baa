/**
 * attachHub tells REST requests from hub requests without parsing a URL when the target is plain (plainPath):
 * whenever it answers, its answer must be the pathname WHATWG URL parsing gives, or a request could reach the
 * wrong handler. Checked on hand-picked tricky targets and on random targets over an alphabet rich in the
 * characters URL parsing rewrites.
 */
import { describe, expect, it } from 'vitest';
import { plainPath } from '../../../src/server/hub/attach-hub.js';

const parsed = (target: string): string => new URL(target, 'http://hub.invalid').pathname;

describe('plainPath', () => {
  it('answers plain targets with their URL pathname and leaves the others to URL parsing', () => {
    expect(plainPath('/v3/orders')).toBe('/v3/orders');
    expect(plainPath('/v3/ping?x=1&y=/..')).toBe('/v3/ping');
    expect(plainPath('/')).toBe('/');
    for (const t of ['//signalr/negotiate', '/v3/../signalr', '/v3/./x', '/%73ignalr', '/v3\\..\\signalr', '/a b', '/a#b', '/a\tb', 'signalr', '/sig\nnalr', '/ẞ']) {
      expect(plainPath(t), t).toBeUndefined();
    }
  });

  it('equals the URL pathname on every random target it answers', () => {
    // Mostly characters a plain path may hold, now and then one URL parsing treats specially.
    const plain = ['/', '/', 'a', 'Z', '0', '-', '_', 's', 'r', '?'];
    const special = ['.', '..', '%', '%2e', '%2F', '\\', '#', ' ', '\t', '\n', ':', '@', 'é', '//'];
    // mulberry32: a small seeded generator, so a failure reproduces.
    let seed = 12345;
    const rnd = (n: number): number => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return (((x ^ (x >>> 14)) >>> 0) / 4294967296) * n | 0;
    };
    let answered = 0;
    for (let i = 0; i < 20_000; i++) {
      let t = rnd(8) === 0 ? '' : '/';
      const len = rnd(14);
      for (let k = 0; k < len; k++) t += rnd(8) === 0 ? special[rnd(special.length)] : plain[rnd(plain.length)];
      const p = plainPath(t);
      if (p === undefined) continue;
      answered++;
      expect(p, JSON.stringify(t)).toBe(parsed(t));
    }
    expect(answered).toBeGreaterThan(2000);
  });
});
