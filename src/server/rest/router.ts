/**
 * A small exact-match router for the simulator's REST surface: `METHOD /path/{param}/...`. Path segments are
 * matched case-sensitively except where a route says otherwise; `{name}` captures one segment (percent-decoded).
 * Written by hand because the surface is fixed (~75 routes) and the matcher must tell 404 from 405.
 */

/** Captured path parameters. */
export type Params = Record<string, string>;

interface Route<H> {
  method: string;
  segments: string[];
  handler: H;
}

/** Result of {@link Router.match}. */
export type Match<H> =
  | { kind: 'found'; handler: H; params: Params }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

/** Routes `METHOD path` to handlers of type `H`. */
export class Router<H> {
  readonly #routes: Route<H>[] = [];

  /** Add a route; `pattern` like `/markets/{marketSymbol}/orderbook`. */
  add(method: string, pattern: string, handler: H): this {
    this.#routes.push({ method: method.toUpperCase(), segments: split(pattern), handler });
    return this;
  }

  /** Find the handler for `method` and `path` (no query string). */
  match(method: string, path: string): Match<H> {
    const segs = split(path);
    const allowed: string[] = [];
    // Literal segments beat parameters: `/orders/open` must not be captured by `/orders/{orderId}`.
    let best: { route: Route<H>; params: Params; score: number } | undefined;
    for (const r of this.#routes) {
      const params = matchSegments(r.segments, segs);
      if (!params) continue;
      if (r.method !== method.toUpperCase()) {
        allowed.push(r.method);
        continue;
      }
      const score = r.segments.filter((s) => !s.startsWith('{')).length;
      if (!best || score > best.score) best = { route: r, params, score };
    }
    if (best) return { kind: 'found', handler: best.route.handler, params: best.params };
    return allowed.length ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
  }
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

function matchSegments(pattern: string[], segs: string[]): Params | undefined {
  if (pattern.length !== segs.length) return undefined;
  const params: Params = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const s = segs[i]!;
    if (p.startsWith('{') && p.endsWith('}')) {
      let v: string;
      try {
        v = decodeURIComponent(s);
      } catch {
        return undefined;
      }
      params[p.slice(1, -1)] = v;
    } else if (p !== s) {
      return undefined;
    }
  }
  return params;
}
