/**
 * Frame generator of the v1.1 hub fuzzer (test/server/hub-v1-fuzz.test.ts): frames for hub `c2` on a properly
 * connected classic socket — invalid JSON, wrong H/M/A/I shapes, unknown methods, and each of the seven methods
 * with garbage arguments (deep nesting, huge numbers, long strings, unknown markets, wrong counts). Each says
 * what the server must answer.
 */
import { chance, hex, int, pick, type Rand, uuid } from './fuzz-rand.js';
import { WIRE_JSON_MAX_DEPTH } from '../../../src/core/wire-json.js';

/** What a fuzzed c2 frame must get back. */
export type V1FrameExpect =
  | { kind: 'error-no-id' }
  /** A reply to `id`: an error, or a result of the given kind. */
  | { kind: 'reply'; id: string; result?: 'boolean' | 'false' | 'string' | 'payload' }
  | { kind: 'close' };

/** One fuzzed frame. */
export interface V1Frame {
  message: string | Buffer;
  expect: V1FrameExpect;
  what: string;
}

const METHODS = ['GetAuthContext', 'Authenticate', 'QueryExchangeState', 'QuerySummaryState', 'SubscribeToExchangeDeltas', 'SubscribeToSummaryDeltas', 'SubscribeToSummaryLiteDeltas'];
const NOT_JSON = ['not json', '{', '{"H":"c2",', '}{', "{'H':'c2'}", 'NaN', '{"I":1,}', '\u0000', ''];

/** Nesting depth of a JSON value (a scalar is 0, `[]` is 1). */
function depthOf(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  let max = 0;
  for (const x of Array.isArray(v) ? v : Object.values(v)) max = Math.max(max, depthOf(x));
  return max + 1;
}

function deep(depth: number): unknown {
  let v: unknown = 'USD-BTC';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { M: v };
  return v;
}

/** A garbage argument: deep nesting, huge numbers, long strings, unknown markets, wrong types. */
function garbage(r: Rand): unknown {
  return pick(r, [
    null, 0, -1, 1e308, -1e308, 1.5, Number.MAX_SAFE_INTEGER + 2, true, [], {}, '', 'x', 'NaN', '9'.repeat(400),
    'USD-NOPE', 'NOPE', 'usd-btc ', 'USD-BTC\u0000', 'BTC-USD', '-', 'USD--BTC', '__proto__', 'constructor', 'x'.repeat(20_000),
    deep(int(r, 5, 2_000)), [['USD-BTC']], { market: 'USD-BTC' }, hex(r, 128), uuid(r),
  ]);
}

function args(r: Rand, n: number): unknown[] {
  return Array.from({ length: n }, () => garbage(r));
}

/** A fuzzed frame for the c2 hub. `n` numbers it; `apiKey` is a real key (never with a valid signature). */
export function v1Frame(r: Rand, n: number, apiKey: string): V1Frame {
  const id = pick(r, [
    { raw: n as unknown, valid: true }, { raw: `f${n}`, valid: true }, { raw: '', valid: true }, { raw: -n, valid: true },
    { raw: null, valid: false }, { raw: {}, valid: false }, { raw: [n], valid: false }, { raw: undefined, valid: false },
  ]);
  const sid = String(id.raw);
  const call = (M: unknown, A: unknown, result: 'boolean' | 'false' | 'string' | 'payload' | undefined, what: string): V1Frame => {
    const frame: Record<string, unknown> = { H: chance(r, 0.2) ? 'C2' : 'c2', M, A };
    if (id.raw !== undefined) frame.I = id.raw;
    const text = JSON.stringify(frame);
    if (Buffer.byteLength(text) > 64 * 1024) return { message: text, expect: { kind: 'close' }, what: `${what} (oversized)` };
    // Nested deeper than the wire parser allows: the frame is refused whole, before its I can be read.
    if (depthOf(frame) > WIRE_JSON_MAX_DEPTH) return { message: text, expect: { kind: 'error-no-id' }, what: `${what} (too deep)` };
    return {
      message: chance(r, 0.1) ? Buffer.from(text) : text,
      expect: id.valid ? { kind: 'reply', id: sid, ...(result ? { result } : {}) } : { kind: 'error-no-id' },
      what: `${what} I=${JSON.stringify(id.raw)}`,
    };
  };
  switch (int(r, 0, 9)) {
    case 0:
      return { message: pick(r, NOT_JSON), expect: { kind: 'error-no-id' }, what: 'not JSON' };
    case 1:
      return withHub(call('QueryExchangeState', ['USD-BTC'], undefined, 'bad H'), pick(r, [null, 3, 'c3', 'C2x', '', ['c2']]));
    case 2:
      return call(pick(r, [null, 5, '', ['QueryExchangeState'], 'Nope', 'Subscribe', '__proto__', 'toString', 'x'.repeat(2_000)]), [], undefined, 'bad M');
    case 3:
      return call(pick(r, METHODS), pick(r, ['x', 5, { 0: 'USD-BTC' }, true]), undefined, 'A not an array');
    case 4: {
      const market = garbage(r);
      return call('QueryExchangeState', [market], undefined, `QueryExchangeState(${JSON.stringify(market)?.slice(0, 40)})`);
    }
    case 5: {
      const market = garbage(r);
      const result = typeof market === 'string' && market.length > 0 && market.length <= 256 ? 'boolean' : undefined;
      return call(pick(r, ['SubscribeToExchangeDeltas', 'subscribetoexchangedeltas']), [market], result, `SubscribeToExchangeDeltas(${JSON.stringify(market)?.slice(0, 40)})`);
    }
    case 6: {
      const a = chance(r, 0.7) ? [pick(r, [apiKey, 'nope', garbage(r)]), pick(r, [hex(r, 128), hex(r, 128).toUpperCase(), garbage(r)])] : args(r, int(r, 0, 4));
      // Never the signature of this connection's challenge: a reply is an error (bad shape) or false.
      return call('Authenticate', a, a.length === 2 && typeof a[0] === 'string' && a[0] !== '' && a[0].length <= 256 ? 'false' : undefined, `Authenticate ${JSON.stringify(a).slice(0, 60)}`);
    }
    case 7: {
      const a = args(r, int(r, 0, 3));
      const ok = a.length === 1 && typeof a[0] === 'string' && a[0] !== '' && a[0].length <= 256;
      return call('GetAuthContext', a, ok ? 'string' : undefined, `GetAuthContext ${JSON.stringify(a).slice(0, 60)}`);
    }
    case 8: {
      const m = pick(r, ['QuerySummaryState', 'SubscribeToSummaryDeltas', 'SubscribeToSummaryLiteDeltas']);
      const a = args(r, int(r, 1, 3));
      return call(m, a, undefined, `${m} with ${a.length} garbage arguments`);
    }
    default:
      if (chance(r, 0.5)) return { message: JSON.stringify({ H: 'c2', M: 'QueryExchangeState', A: ['x'.repeat(70_000)], I: n }), expect: { kind: 'close' }, what: 'oversized frame' };
      return call('QueryExchangeState', ['USD-BTC'], 'payload', 'a proper query');
  }
}

function withHub(f: V1Frame, hub: unknown): V1Frame {
  const text = typeof f.message === 'string' ? f.message : f.message.toString();
  let frame: Record<string, unknown>;
  try {
    frame = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return f;
  }
  frame.H = hub;
  const expect: V1FrameExpect = f.expect.kind === 'reply' ? { kind: 'reply', id: f.expect.id } : f.expect;
  return { message: JSON.stringify(frame), expect, what: `${f.what} H=${JSON.stringify(hub)}` };
}
