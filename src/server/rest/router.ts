/**
 * A small exact-match router for the simulator's REST surface: `METHOD /path/{param}/...`. Path segments are
 * matched case-sensitively except where a route says otherwise; `{name}` captures one segment (percent-decoded).
 * Written by hand because the surface is fixed (~75 routes) and the matcher must tell 404 from 405.
 *
 * Every request is routed, so the routes are indexed when added: by segment count and first literal segment (one
 * request looks at the few routes that could match, not all of them), each route with its score and parameter
 * positions worked out once; a parameter object is built only for the route that wins.
 */

/** Captured path parameters. */
export type Params = Record<string, string>;

interface Route<H> {
  method: string;
  segments: string[];
  /** Names of `{param}` segments by position (undefined for literal segments). */
  params: (string | undefined)[];
  /** Literal segments: literal beats parameter (`/orders/open` over `/orders/{orderId}`). */
  score: number;
  /** Position in the order routes were added: ties and the `Allow` list follow it. */
  index: number;
  handler: H;
}

/** Result of {@link Router.match}. */
export type Match<H> =
  | { kind: 'found'; handler: H; params: Params }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

const NOT_FOUND = { kind: 'not-found' } as const;

/** Routes `METHOD path` to handlers of type `H`. */
export class Router<H> {
  /** Routes whose first segment is literal, by `segment count + NUL + first segment`. */
  readonly #byFirst = new Map<string, Route<H>[]>();
  /** Routes whose first segment is a parameter (or that have no segment), by segment count. */
  readonly #byLength = new Map<number, Route<H>[]>();
  #count = 0;

  /** Add a route; `pattern` like `/markets/{marketSymbol}/orderbook`. */
  add(method: string, pattern: string, handler: H): this {
    const segments = split(pattern);
    const params = segments.map((s) => (s.startsWith('{') && s.endsWith('}') ? s.slice(1, -1) : undefined));
    const route: Route<H> = {
      method: method.toUpperCase(),
      segments,
      params,
      score: params.filter((p) => p === undefined).length,
      index: this.#count++,
      handler,
    };
    const first = segments.length > 0 && params[0] === undefined ? segments[0]! : undefined;
    const [map, key] = first === undefined ? [this.#byLength, segments.length] as const : [this.#byFirst, bucketKey(segments.length, first)] as const;
    let list = (map as Map<string | number, Route<H>[]>).get(key);
    if (list === undefined) (map as Map<string | number, Route<H>[]>).set(key, (list = []));
    list.push(route);
    return this;
  }

  /** Find the handler for `method` and `path` (no query string). */
  match(method: string, path: string): Match<H> {
    const segs = split(path);
    const wanted = method.toUpperCase();
    const literalFirst = segs.length > 0 ? this.#byFirst.get(bucketKey(segs.length, segs[0]!)) : undefined;
    const paramFirst = this.#byLength.get(segs.length);
    // Candidates in the order they were added, as a walk over every route would meet them.
    const candidates = paramFirst === undefined ? literalFirst : literalFirst === undefined ? paramFirst : [...literalFirst, ...paramFirst].sort((a, b) => a.index - b.index);
    if (candidates === undefined) return NOT_FOUND;
    let allowed: string[] | undefined;
    let best: Route<H> | undefined;
    for (const r of candidates) {
      if (!segmentsMatch(r, segs)) continue;
      if (r.method !== wanted) {
        (allowed ??= []).push(r.method);
        continue;
      }
      if (!best || r.score > best.score) best = r;
    }
    if (best) return { kind: 'found', handler: best.handler, params: paramsOf(best, segs) };
    return allowed ? { kind: 'method-not-allowed', allowed } : NOT_FOUND;
  }
}

function bucketKey(length: number, first: string): string {
  return `${length}\u0000${first}`;
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

/** True when `segs` fit the route: literals equal, parameters percent-decodable. */
function segmentsMatch<H>(r: Route<H>, segs: string[]): boolean {
  const pattern = r.segments;
  if (pattern.length !== segs.length) return false;
  for (let i = 0; i < pattern.length; i++) {
    if (r.params[i] === undefined) {
      if (pattern[i] !== segs[i]) return false;
    } else if (decodeSegment(segs[i]!) === undefined) {
      return false;
    }
  }
  return true;
}

/** The decoded parameters of a route that {@link segmentsMatch}. */
function paramsOf<H>(r: Route<H>, segs: string[]): Params {
  const params: Params = {};
  for (let i = 0; i < segs.length; i++) {
    const name = r.params[i];
    if (name !== undefined) params[name] = decodeSegment(segs[i]!)!;
  }
  return params;
}

function decodeSegment(s: string): string | undefined {
  if (s.indexOf('%') < 0) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}
