/**
 * The indexed router answers exactly what a walk over every route answers: the same handler and parameters, the same
 * 405 with the same Allow list in the same order, the same 404. The reference below is the router before it was
 * indexed; both are asked the same random requests over route tables with literal and parameter segments.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/prng.js';
import { type Match, type Params, Router } from '../../src/server/rest/router.js';

/** The walk over every route (the router as it was): the behaviour the index must keep. */
class ReferenceRouter<H> {
  readonly #routes: { method: string; segments: string[]; handler: H }[] = [];
  add(method: string, pattern: string, handler: H): this {
    this.#routes.push({ method: method.toUpperCase(), segments: pattern.split('/').filter((s) => s.length > 0), handler });
    return this;
  }
  match(method: string, path: string): Match<H> {
    const segs = path.split('/').filter((s) => s.length > 0);
    const allowed: string[] = [];
    let best: { handler: H; params: Params; score: number } | undefined;
    for (const r of this.#routes) {
      if (r.segments.length !== segs.length) continue;
      const params: Params = {};
      let ok = true;
      for (let i = 0; ok && i < segs.length; i++) {
        const p = r.segments[i]!;
        if (p.startsWith('{') && p.endsWith('}')) {
          try {
            params[p.slice(1, -1)] = decodeURIComponent(segs[i]!);
          } catch {
            ok = false;
          }
        } else if (p !== segs[i]) ok = false;
      }
      if (!ok) continue;
      if (r.method !== method.toUpperCase()) {
        allowed.push(r.method);
        continue;
      }
      const score = r.segments.filter((s) => !s.startsWith('{')).length;
      if (!best || score > best.score) best = { handler: r.handler, params, score };
    }
    if (best) return { kind: 'found', handler: best.handler, params: best.params };
    return allowed.length ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
  }
}

const WORDS = ['orders', 'open', 'markets', 'ping', 'BTC-USD', 'x', 'a%20b', '%E0%A4%A', ''];
const METHODS = ['GET', 'POST', 'DELETE', 'HEAD', 'get'];

describe('Router', () => {
  it('answers like a walk over every route, on random tables and requests', () => {
    const rand = mulberry32(9);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
    for (let table = 0; table < 200; table++) {
      const fast = new Router<number>();
      const ref = new ReferenceRouter<number>();
      const nRoutes = 1 + Math.floor(rand() * 12);
      for (let r = 0; r < nRoutes; r++) {
        const len = Math.floor(rand() * 4);
        const segs = Array.from({ length: len }, (_, i) => (rand() < 0.35 ? `{p${i}}` : pick(WORDS.slice(0, 6))));
        const method = pick(METHODS);
        fast.add(method, `/${segs.join('/')}`, r);
        ref.add(method, `/${segs.join('/')}`, r);
      }
      for (let q = 0; q < 50; q++) {
        const len = Math.floor(rand() * 4);
        const path = (rand() < 0.1 ? '//' : '/') + Array.from({ length: len }, () => pick(WORDS)).join('/');
        const method = pick(METHODS);
        expect(fast.match(method, path), `${method} ${path}`).toEqual(ref.match(method, path));
      }
    }
  });

  it('prefers literal segments and lists the methods a path allows in the order they were added', () => {
    const r = new Router<string>()
      .add('GET', '/orders/{orderId}', 'one')
      .add('GET', '/orders/open', 'open')
      .add('DELETE', '/orders/{orderId}', 'cancel')
      .add('HEAD', '/orders/open', 'head');
    expect(r.match('GET', '/orders/open')).toEqual({ kind: 'found', handler: 'open', params: {} });
    expect(r.match('GET', '/orders/a%2Fb')).toEqual({ kind: 'found', handler: 'one', params: { orderId: 'a/b' } });
    expect(r.match('POST', '/orders/open')).toEqual({ kind: 'method-not-allowed', allowed: ['GET', 'GET', 'DELETE', 'HEAD'] });
    expect(r.match('GET', '/orders/%E0%A4%A')).toEqual({ kind: 'not-found' });
    expect(r.match('GET', '/nothing')).toEqual({ kind: 'not-found' });
  });
});
