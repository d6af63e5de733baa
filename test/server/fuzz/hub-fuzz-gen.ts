/**
 * Frame generators of the hub fuzzer (test/server/hub-fuzz.test.ts), one per wire flavour. Each frame says what
 * the server must answer: an error without a call id, a reply to its id (any, a SocketResponse list, a failed
 * authentication), nothing (Core non-blocking or ignored records), or closing that connection.
 */
import { chance, hex, int, pick, type Rand, uuid } from './fuzz-rand.js';

/** What one fuzzed frame must get back. */
export type FrameExpect =
  | { kind: 'error-no-id' }
  | { kind: 'reply'; id: string; result?: 'subscribe' | 'auth'; channels?: number }
  | { kind: 'silent' }
  | { kind: 'close'; closeRecord: boolean };

/** One fuzzed frame: what to send (one or more WebSocket messages) and what it must get. */
export interface Frame {
  messages: Array<string | Buffer>;
  expect: FrameExpect;
  what: string;
}

const RS = '\x1e';
/** Both flavours refuse WebSocket messages over 64 KiB by closing the connection (1009). */
const MAX_MESSAGE_BYTES = 64 * 1024;

/** A frame with a message over the limit closes its connection, whatever it says. */
function oversizeCloses(f: Frame): Frame {
  const big = f.messages.some((m) => Buffer.byteLength(m) > MAX_MESSAGE_BYTES);
  return big ? { ...f, expect: { kind: 'close', closeRecord: false } } : f;
}
const GARBAGE_CHANNELS: unknown[] = [
  '', 'nonsense', 'orderbook_BTC-USD_10', 'orderbook_BTC-USD', 'ticker_NOPE-USD', 'trade_', 'candle_BTC-USD_MINUTE_2',
  'balance', 'subaccounts_order', 'order', '__proto__', 'constructor', 'heartbeat ', 'HEARTBEAT', 'x'.repeat(5_000),
  'orderbook_BTC-USD_25\u0000', 'ticker_BTC-USD;drop', 42, null, true, {}, [], ['heartbeat'], { name: 'heartbeat' }, 1e308,
];
const WEIRD_ARGS: unknown[] = [null, 0, -1, 1.5, 1e308, '', 'x', true, [], {}, [[]], 'NaN', '9'.repeat(40), '-1623635618775'];
const NOT_JSON = ['not json', '{', '{"H":"c3",', '}{', "{'H':'c3'}", 'NaN', '{"I":1,}', '\u0000', ''];
/** 6,000 nested arrays: JSON.parse takes them, but any recursive walk (String(), JSON.stringify) overflows the stack. */
export const DEEP = `${'['.repeat(6_000)}${']'.repeat(6_000)}`;
/** Numbers a double cannot hold, as raw JSON text (JSON.stringify cannot write them). */
export const HUGE_NUMBERS = ['1e400', '-1e400', '9'.repeat(400), '1.0000000000000001', '0.' + '0'.repeat(400) + '1'];
/** A long string that still fits in one message. */
const LONG = 'x'.repeat(60_000);

function garbageChannels(r: Rand): unknown[] {
  const n = pick(r, [0, 1, 3, 8, 2_000]);
  return Array.from({ length: n }, () => pick(r, GARBAGE_CHANNELS));
}

/** Authenticate's four arguments, each possibly garbage (never a valid signature). */
function garbageAuth(r: Rand, apiKey: string, now: number): unknown[] {
  const key = pick(r, [apiKey, apiKey.toUpperCase(), 'nope', '', 7, null, hex(r, 32)]);
  const ts = pick(r, [now, String(now), now - 3_600_000, now + 3_600_000, '1e12', 1.5, -now, null, 'abc', Number.MAX_SAFE_INTEGER + 2]);
  const random = pick(r, [uuid(r), '', 5, null, 'x'.repeat(3_000)]);
  const sig = pick(r, [hex(r, 128), hex(r, 128).toUpperCase(), 'zz', '', 12, null, hex(r, 3)]);
  return [key, ts, random, sig];
}

/** Weird ids of the right type are answered; of the wrong type, they cannot be. */
function classicId(r: Rand, n: number): { raw: unknown; valid: boolean } {
  return pick(r, [
    { raw: n, valid: true }, { raw: `f${n}`, valid: true }, { raw: n + 0.5, valid: true }, { raw: '', valid: true },
    { raw: 'x'.repeat(300), valid: true }, { raw: -n, valid: true },
    { raw: null, valid: false }, { raw: true, valid: false }, { raw: {}, valid: false }, { raw: [n], valid: false }, { raw: undefined, valid: false },
  ]);
}

/** A classic SignalR frame (after a proper connect): invalid JSON, wrong shapes, unknown hubs and methods, garbage calls. */
export function classicFrame(r: Rand, n: number, apiKey: string, now: number): Frame {
  return oversizeCloses(buildClassic(r, n, apiKey, now));
}

function buildClassic(r: Rand, n: number, apiKey: string, now: number): Frame {
  const id = classicId(r, n);
  const withId = (frame: Record<string, unknown>, exp: FrameExpect, what: string): Frame => {
    const f = { ...frame, ...(id.raw === undefined ? {} : { I: id.raw }) };
    return { messages: [chance(r, 0.1) ? Buffer.from(JSON.stringify(f)) : JSON.stringify(f)], expect: id.valid ? exp : { kind: 'error-no-id' }, what: `${what} I=${JSON.stringify(id.raw)}` };
  };
  const sid = String(id.raw);
  switch (int(r, 0, 10)) {
    case 0:
      return { messages: [pick(r, NOT_JSON)], expect: { kind: 'error-no-id' }, what: 'not JSON' };
    case 10:
      return hostileClassic(r, n);
    case 1:
      return { messages: [Buffer.from([0xff, 0xfe, 0x7b, 0x80, 0xc3])], expect: { kind: 'error-no-id' }, what: 'non-UTF-8 bytes' };
    case 2:
      return { messages: [pick(r, ['1', '"c3"', 'null', '[]', '[{"H":"c3"}]', 'true'])], expect: { kind: 'error-no-id' }, what: 'JSON, not an object' };
    case 3:
      return withId({ H: pick(r, [null, 3, 'c2', 'C3x', '', ['c3'], { name: 'c3' }]), M: 'Subscribe', A: [['heartbeat']] }, { kind: 'reply', id: sid }, 'bad H');
    case 4:
      return withId({ H: 'c3', M: pick(r, [null, 5, '', ['Subscribe'], 'Nope', '__proto__', 'constructor', 'toString', 'x'.repeat(2_000)]), A: [] }, { kind: 'reply', id: sid }, 'bad M');
    case 5:
      return withId({ H: 'c3', M: pick(r, ['Subscribe', 'Unsubscribe', 'IsAuthenticated']), A: pick(r, ['x', 5, { 0: 'heartbeat' }, true]) }, { kind: 'reply', id: sid }, 'bad A');
    case 6: {
      const channels = garbageChannels(r);
      const m = pick(r, ['Subscribe', 'subscribe', 'UNSUBSCRIBE']);
      return withId({ H: pick(r, ['c3', 'C3']), M: m, A: [channels] }, { kind: 'reply', id: sid, result: 'subscribe', channels: channels.length }, `${m} ${channels.length} garbage channels`);
    }
    case 7: {
      const four = chance(r, 0.8);
      const args = four ? garbageAuth(r, apiKey, now) : Array.from({ length: pick(r, [0, 1, 3, 5]) }, () => pick(r, WEIRD_ARGS));
      return withId({ H: 'c3', M: 'Authenticate', A: args }, four ? { kind: 'reply', id: sid, result: 'auth' } : { kind: 'reply', id: sid }, `Authenticate ${JSON.stringify(args).slice(0, 80)}`);
    }
    case 8:
      return withId({ H: 'c3', M: pick(r, ['Subscribe', 'Authenticate', 'IsAuthenticated']), A: Array.from({ length: int(r, 1, 6) }, () => pick(r, WEIRD_ARGS)) }, { kind: 'reply', id: sid }, 'wrong argument count or types');
    default:
      if (chance(r, 0.5)) {
        return { messages: [JSON.stringify({ H: 'c3', M: 'Subscribe', A: [['x'.repeat(70_000)]], I: n })], expect: { kind: 'close', closeRecord: false }, what: 'oversized frame' };
      }
      return withId({ H: 'c3', M: 'Subscribe', A: [['heartbeat']], extra: 'y'.repeat(int(r, 1, 30_000)) }, { kind: 'reply', id: sid }, 'large frame within the limit');
  }
}

/**
 * Deep nesting, huge numbers and long strings in a classic frame's fields: a frame nested past the parser's bound
 * is refused as a whole (no call id can be read from it), as is an id that is a number no double holds; huge
 * numbers and long strings elsewhere are answered.
 */
function hostileClassic(r: Rand, n: number): Frame {
  const field = pick(r, ['H', 'M', 'A', 'I'] as const);
  const base: Record<string, string> = { H: '"c3"', M: '"Subscribe"', A: '[["heartbeat"]]', I: String(n) };
  const kind = pick(r, ['deep', 'huge', 'long'] as const);
  base[field] = kind === 'deep' ? DEEP : kind === 'huge' ? pick(r, HUGE_NUMBERS) : JSON.stringify(LONG);
  const text = `{${Object.entries(base).map(([k, v]) => `"${k}":${v}`).join(',')}}`;
  const what = `${kind} ${field}`;
  // Too deep, or an id no double holds (kept as its text, so not a number): no call id to answer under.
  if (kind === 'deep' || (field === 'I' && kind === 'huge')) return { messages: [text], expect: { kind: 'error-no-id' }, what };
  if (field === 'I') return { messages: [text], expect: { kind: 'reply', id: LONG }, what };
  return { messages: [text], expect: { kind: 'reply', id: String(n) }, what };
}

/** An ASP.NET Core record sequence (after the handshake). */
export function coreFrame(r: Rand, n: number, apiKey: string, now: number): Frame {
  return oversizeCloses(buildCore(r, n, apiKey, now));
}

function buildCore(r: Rand, n: number, apiKey: string, now: number): Frame {
  const id = `f${n}`;
  const rec = (o: unknown): string => JSON.stringify(o) + RS;
  switch (int(r, 0, 12)) {
    case 0:
      return { messages: [pick(r, NOT_JSON.filter(Boolean)) + RS], expect: { kind: 'close', closeRecord: true }, what: 'record not JSON' };
    case 12:
      return hostileCore(r, n);
    case 1:
      return { messages: [pick(r, ['1', '"x"', 'null', '[]', '[{"type":1}]']) + RS], expect: { kind: 'close', closeRecord: true }, what: 'record not an object' };
    case 2: {
      const type = pick(r, [undefined, '1', 1.5, null, true, [1], { t: 1 }]);
      return { messages: [rec({ type, invocationId: id, target: 'IsAuthenticated', arguments: [] })], expect: { kind: 'close', closeRecord: true }, what: `type ${JSON.stringify(type)}` };
    }
    case 3: {
      const bad = pick(r, [7, true, {}, ['a'], 1.5]);
      return { messages: [rec({ type: 1, invocationId: bad, target: 'IsAuthenticated', arguments: [] })], expect: { kind: 'close', closeRecord: true }, what: `invocationId ${JSON.stringify(bad)}` };
    }
    case 4: {
      const target = pick(r, [undefined, null, 5, '', ['Subscribe'], 'Nope', '__proto__', 'x'.repeat(1_000)]);
      const blocking = chance(r, 0.8);
      return { messages: [rec({ type: 1, ...(blocking ? { invocationId: id } : {}), target, arguments: [] })], expect: blocking ? { kind: 'reply', id } : { kind: 'silent' }, what: `target ${JSON.stringify(target)?.slice(0, 40)}${blocking ? '' : ' non-blocking'}` };
    }
    case 5:
      return { messages: [rec({ type: 1, invocationId: id, target: 'Subscribe', arguments: pick(r, ['x', 5, { a: 1 }, true]) })], expect: { kind: 'reply', id }, what: 'arguments not an array' };
    case 6: {
      const channels = garbageChannels(r);
      return { messages: [rec({ type: 1, invocationId: id, target: pick(r, ['Subscribe', 'unsubscribe']), arguments: [channels] })], expect: { kind: 'reply', id, result: 'subscribe', channels: channels.length }, what: `Subscribe ${channels.length} garbage channels` };
    }
    case 7: {
      const four = chance(r, 0.8);
      const args = four ? garbageAuth(r, apiKey, now) : Array.from({ length: pick(r, [0, 2, 5]) }, () => pick(r, WEIRD_ARGS));
      return { messages: [rec({ type: 1, invocationId: id, target: 'Authenticate', arguments: args })], expect: four ? { kind: 'reply', id, result: 'auth' } : { kind: 'reply', id }, what: `Authenticate ${JSON.stringify(args).slice(0, 80)}` };
    }
    case 8: {
      const type = pick(r, [2, 3, 5, 6, 8, 9, 99, 0, -1]);
      return { messages: [rec({ type, invocationId: id, item: 1, result: 2 })], expect: { kind: 'silent' }, what: `ignored type ${type}` };
    }
    case 9:
      // A record split over messages, its separator last: served once whole.
      return { messages: [JSON.stringify({ type: 1, invocationId: id, target: 'IsAuthenticated', arguments: [] }), RS], expect: { kind: 'reply', id }, what: 'separator in a later message' };
    case 10:
      // No separator at all: it runs into the next record (the barrier), which is then not JSON.
      return { messages: [pick(r, ['abc', '{"type":1', JSON.stringify({ type: 6 })])], expect: { kind: 'close', closeRecord: true }, what: 'missing record separator' };
    default:
      if (chance(r, 0.4)) return { messages: [rec({ type: 1, target: 'x'.repeat(70_000) })], expect: { kind: 'close', closeRecord: false }, what: 'oversized message' };
      if (chance(r, 0.5)) {
        return { messages: Array.from({ length: 3 }, () => 'z'.repeat(30_000)), expect: { kind: 'close', closeRecord: true }, what: 'unterminated record over the limit' };
      }
      return { messages: [rec({ type: 7 })], expect: { kind: 'close', closeRecord: false }, what: 'client Close' };
  }
}

/**
 * Deep nesting, huge numbers and long strings in a Core record's type, invocationId, target and arguments. A
 * record nested past the parser's bound, or whose type or invocationId is not an integer / a string, closes the
 * connection with a Close record saying why; a long or huge target or argument is answered.
 */
function hostileCore(r: Rand, n: number): Frame {
  const id = `f${n}`;
  const field = pick(r, ['type', 'invocationId', 'target', 'arguments'] as const);
  const base: Record<string, string> = { type: '1', invocationId: JSON.stringify(id), target: '"IsAuthenticated"', arguments: '[]' };
  const kind = pick(r, ['deep', 'huge', 'long'] as const);
  base[field] = kind === 'deep' ? DEEP : kind === 'huge' ? pick(r, HUGE_NUMBERS) : JSON.stringify(LONG);
  const text = `{${Object.entries(base).map(([k, v]) => `"${k}":${v}`).join(',')}}${RS}`;
  const what = `${kind} ${field}`;
  if (kind === 'deep' || field === 'type' || (field === 'invocationId' && kind === 'huge')) return { messages: [text], expect: { kind: 'close', closeRecord: true }, what };
  if (field === 'invocationId') return { messages: [text], expect: { kind: 'reply', id: LONG }, what };
  return { messages: [text], expect: { kind: 'reply', id }, what };
}
