/**
 * Classic ASP.NET SignalR (protocol 1.5) text frames, as the v3 hub `c3` sent them (WIRE.md, "Hub").
 *
 * The dispatch order mirrors the reference jQuery client, which is what the real server was built against:
 * an empty object is a keep-alive; an object with an `M` array is a persistent-connection response (init when
 * `S` is 1, otherwise pushed hub messages); anything else is a hub response (`P` progress, `I` with `R`/`E`).
 * Hub and method names are compared case-insensitively, because clients and servers were not consistent
 * (`C3`/`c3`, `subscribe`/`Subscribe`).
 */
import { WireFormatError } from '../../core/errors.js';

/** One hub method call pushed by the server: `{"H":"C3","M":"orderBook","A":["<payload>"]}`. */
export interface HubPush {
  hub: string;
  /** Method (message) name exactly as sent; compare with {@link sameName}. */
  method: string;
  /** Arguments as sent (stream payloads are still base64 + raw deflate here). */
  args: unknown[];
}

/** A received classic frame. */
export type ClassicFrame =
  /** `{}`: the server is alive. */
  | { kind: 'keep-alive' }
  /** `{"C":"..","S":1,"M":[]}`: the first frame of a connection. */
  | { kind: 'init'; cursor: string | undefined }
  /**
   * `{"C":"..","M":[...]}`: hub messages (possibly none, e.g. a groups-token update). `disconnect` (`D`) asks the
   * client to stop; `reconnect` (`T`) asks it to reconnect; `groupsToken` (`G`) must be echoed on reconnect.
   */
  | {
      kind: 'push';
      cursor: string | undefined;
      messages: HubPush[];
      groupsToken?: string;
      disconnect?: true;
      reconnect?: true;
    }
  /** `{"R":..,"I":"1"}`: the result of invocation `id` (`result` undefined for void methods). */
  | { kind: 'result'; id: string; result: unknown }
  /** `{"I":"1","E":"msg"}`: invocation `id` failed. */
  | { kind: 'error'; id: string; error: string; isHubException?: boolean; errorData?: unknown }
  /** `{"P":{"I":"1","D":..}}`: progress of invocation `id`. */
  | { kind: 'progress'; id: string; data: unknown }
  /** A JSON object this parser has no variant for; kept whole so callers can log it. */
  | { kind: 'other'; raw: Record<string, unknown> };

/** A client invocation: `{"H":"c3","M":"Subscribe","A":[[...]],"I":1}`. */
export interface ClassicInvocation {
  hub: string;
  method: string;
  args: unknown[];
  /** Call id; the reply carries it back as a string. */
  id: string;
}

const WHERE = 'hub frame';

/** True when two hub or method names are equal ignoring case (`orderbook` matches `orderBook`). */
export function sameName(a: string, b: string): boolean {
  return a === b || a.toLowerCase() === b.toLowerCase();
}

function parseObject(text: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new WireFormatError(where, '', { reason: 'is not JSON', text: `is not JSON: ${(err as Error).message}` });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new WireFormatError(where, '', { reason: 'is not a JSON object' });
  }
  return value as Record<string, unknown>;
}

function optionalString(frame: Record<string, unknown>, key: string): string | undefined {
  const v = frame[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new WireFormatError(WHERE, key, { reason: 'is not a string', text: `is not a string: ${JSON.stringify(v)}` });
  return v;
}

/** Call ids arrive as numbers or strings; replies always carry strings, so normalise to string. */
function callId(v: unknown, path: string, where: string): string {
  if (typeof v === 'string' && v.length > 0) return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  throw new WireFormatError(where, path, { reason: 'is not a call id', text: `is not a call id: ${JSON.stringify(v)}` });
}

function parsePush(entry: unknown, i: number): HubPush {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw new WireFormatError(WHERE, `M[${i}]`, { reason: 'is not an object' });
  }
  const e = entry as Record<string, unknown>;
  if (typeof e.H !== 'string') throw new WireFormatError(WHERE, `M[${i}].H`, { reason: 'is not a string' });
  if (typeof e.M !== 'string' || e.M.length === 0) {
    throw new WireFormatError(WHERE, `M[${i}].M`, { reason: 'is not a method name' });
  }
  // heartbeat and authenticationExpiring carry an empty A; tolerate a missing one the same way.
  const args = e.A === undefined || e.A === null ? [] : e.A;
  if (!Array.isArray(args)) throw new WireFormatError(WHERE, `M[${i}].A`, { reason: 'is not an array' });
  return { hub: e.H, method: e.M, args };
}

/**
 * Parse one received text frame.
 *
 * @example
 * parseClassicFrame('{}')                                   // { kind: 'keep-alive' }
 * parseClassicFrame('{"R":[{"Success":true}],"I":"1"}')     // { kind: 'result', id: '1', result: [...] }
 * parseClassicFrame('{"C":"x","M":[{"H":"C3","M":"heartbeat","A":[]}]}').kind // 'push'
 */
export function parseClassicFrame(text: string): ClassicFrame {
  const frame = parseObject(text, WHERE);
  let empty = true;
  for (const _ in frame) {
    empty = false;
    break;
  }
  if (empty) return { kind: 'keep-alive' };

  if (Array.isArray(frame.M)) {
    const cursor = optionalString(frame, 'C');
    if (frame.S === 1) return { kind: 'init', cursor };
    const messages = frame.M.map(parsePush);
    const out: ClassicFrame = { kind: 'push', cursor, messages };
    const groupsToken = optionalString(frame, 'G');
    if (groupsToken !== undefined) out.groupsToken = groupsToken;
    if (frame.D === 1 || frame.D === true) out.disconnect = true;
    if (frame.T === 1 || frame.T === true) out.reconnect = true;
    return out;
  }
  if (frame.M !== undefined && frame.M !== null) throw new WireFormatError(WHERE, 'M', { reason: 'is not an array' });

  if (frame.P !== undefined && frame.P !== null) {
    const p = frame.P;
    if (typeof p !== 'object' || Array.isArray(p)) throw new WireFormatError(WHERE, 'P', { reason: 'is not an object' });
    const progress = p as Record<string, unknown>;
    return { kind: 'progress', id: callId(progress.I, 'P.I', WHERE), data: progress.D };
  }
  if (frame.I !== undefined) {
    const id = callId(frame.I, 'I', WHERE);
    if (frame.E !== undefined && frame.E !== null) {
      const error = typeof frame.E === 'string' ? frame.E : JSON.stringify(frame.E);
      const out: ClassicFrame = { kind: 'error', id, error };
      if (frame.H === true) out.isHubException = true;
      if (frame.D !== undefined) out.errorData = frame.D;
      return out;
    }
    return { kind: 'result', id, result: frame.R };
  }
  return { kind: 'other', raw: frame };
}

/**
 * Build a client invocation frame. `id` is sent as a number when given one, as clients of the real service did.
 *
 * @example
 * buildInvocationFrame('Subscribe', [['heartbeat', 'trade_BTC-USD']], 1)
 * // '{"H":"c3","M":"Subscribe","A":[["heartbeat","trade_BTC-USD"]],"I":1}'
 */
export function buildInvocationFrame(method: string, args: unknown[], id: number | string, hub = 'c3'): string {
  return JSON.stringify({ H: hub, M: method, A: args, I: id });
}

/**
 * Parse a client invocation frame (the simulator's server side). Throws {@link WireFormatError}
 * (`where` = `hub invocation`) naming the bad field.
 *
 * @example
 * parseInvocationFrame('{"H":"c3","M":"subscribe","A":[["heartbeat"]],"I":7}')
 * // { hub: 'c3', method: 'subscribe', args: [['heartbeat']], id: '7' }
 */
export function parseInvocationFrame(text: string): ClassicInvocation {
  const where = 'hub invocation';
  const f = parseObject(text, where);
  if (typeof f.H !== 'string') throw new WireFormatError(where, 'H', 'is not a string');
  if (typeof f.M !== 'string' || f.M.length === 0) throw new WireFormatError(where, 'M', 'is not a method name');
  const args = f.A === undefined || f.A === null ? [] : f.A;
  if (!Array.isArray(args)) throw new WireFormatError(where, 'A', 'is not an array');
  return { hub: f.H, method: f.M, args, id: callId(f.I, 'I', where) };
}

/** The keep-alive frame. */
export const KEEP_ALIVE_FRAME = '{}';

/** Build the init frame a server sends first on a new connection. */
export function buildInitFrame(cursor: string): string {
  return JSON.stringify({ C: cursor, S: 1, M: [] });
}

/**
 * Build a push frame carrying hub messages (server side). Stream payloads must already be encoded.
 *
 * @example
 * buildPushFrame('d-1,0|a,1', [{ hub: 'C3', method: 'heartbeat', args: [] }])
 */
export function buildPushFrame(cursor: string, messages: readonly HubPush[]): string {
  return JSON.stringify({ C: cursor, M: messages.map((m) => ({ H: m.hub, M: m.method, A: m.args })) });
}

/** Build the reply to invocation `id`. The id always goes back as a string, as the classic server did. */
export function buildResultFrame(id: string | number, result: unknown): string {
  return JSON.stringify({ R: result, I: String(id) });
}

/** Build the failure reply to invocation `id`. */
export function buildErrorFrame(id: string | number, message: string): string {
  return JSON.stringify({ I: String(id), E: message });
}
