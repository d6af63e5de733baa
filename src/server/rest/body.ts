/**
 * Reading and checking request bodies. The simulator is strict where the service was: a body that is not JSON,
 * has the wrong types, names fields the resource does not have, or carries absurd numbers is refused with a 400
 * and a code, never a 500 and never a state change.
 */
import type { IncomingMessage } from 'node:http';
import { type Decimal, dgt, parseDecimal } from '../../core/decimal.js';
import { WireFormatError } from '../../core/errors.js';
import { parseWireJson } from '../../core/wire-json.js';
import type { ErrorCode } from '../../model/error-codes.js';
import type { Decoder } from '../../model/decode.js';
import { SimError } from '../../sim/sim-error.js';

/** Largest body accepted (the service's bodies are a few hundred bytes; batches of 100 orders ~ 30 KB). */
export const MAX_BODY_BYTES = 256 * 1024;

/** Read the whole body, refusing more than {@link MAX_BODY_BYTES} with 413 PAYLOAD_TOO_LARGE. */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw new SimError(413, 'PAYLOAD_TOO_LARGE', `body of ${declared} bytes exceeds ${limit}`);
  }
  // Collected with plain listeners rather than `for await`: the async iterator (its promises, end-of-stream
  // tracking and per-chunk results) cost more than anything else here on every request the simulator serves. The
  // listeners are module functions sharing one record per request, not closures made per request (under tsx,
  // every named closure also costs a keepNames call).
  // A stream already finished sends no more events: answer now, as iterating it would have.
  if (req.readableEnded) return Buffer.alloc(0);
  if (req.destroyed) throw new SimError(400, 'BAD_REQUEST', 'request body incomplete: premature close');
  // One microtask later the parser has handed over the body bytes the socket's last read delivered (microtasks run
  // when its body callback returns): for a request that came in one read, the usual case for the service's small
  // bodies, that is the whole declared length, taken from the stream's buffer at once, with no listeners to add and
  // remove, no 'data' and 'end' events and no tick until 'end' (see takeWhole). Anything else (chunked, still
  // arriving) is read as it arrives.
  if (Number.isFinite(declared)) {
    await undefined;
    const whole = takeWhole(req, declared);
    if (whole !== undefined) return whole;
  }
  if (req.readableEnded) return Buffer.alloc(0);
  if (req.destroyed) throw new SimError(400, 'BAD_REQUEST', 'request body incomplete: premature close');
  return new Promise<Buffer>((resolve, reject) => {
    reading.set(req, { chunks: [], size: 0, limit, resolve, reject });
    req.on('data', onBodyData);
    req.on('end', onBodyEnd);
    req.on('error', onBodyError);
    req.on('close', onBodyClose);
  });
}

/**
 * The whole body of `req` when all of its declared Content-Length has arrived and sits unread in the stream's
 * buffer, else undefined (the caller then reads it with listeners). Those bytes are exactly what the listeners
 * would have collected (the parser hands a body's bytes over as they are, and never more than the declared length),
 * and read() answers them in one piece: a single chunk as it is, several joined, none as null.
 */
function takeWhole(req: IncomingMessage, declared: number): Buffer | undefined {
  if (req.readableLength !== declared || req.readableFlowing !== null || req.destroyed) return undefined;
  const body = (req.read() as Buffer | null) ?? EMPTY;
  // The parser reports the message complete right after its body: flowing, the stream then reads that end and
  // emits 'end' (and closes) as it does after the listeners' last chunk. A stream already ended did so in read().
  if (!req.readableEnded) req.resume();
  return body;
}

const EMPTY = Buffer.alloc(0);

/** A body being read by {@link readBody}. */
interface Reading {
  chunks: Buffer[];
  size: number;
  limit: number;
  resolve(body: Buffer): void;
  reject(err: SimError): void;
}

const reading = new WeakMap<IncomingMessage, Reading>();

/** Stop listening to `req` and settle its read with `err`, or with the body when `err` is undefined. */
function settle(req: IncomingMessage, err: SimError | undefined): void {
  const r = reading.get(req);
  if (!r) return;
  reading.delete(req);
  req.off('data', onBodyData);
  req.off('end', onBodyEnd);
  req.off('error', onBodyError);
  req.off('close', onBodyClose);
  if (err) r.reject(err);
  else r.resolve(r.chunks.length === 1 ? r.chunks[0]! : Buffer.concat(r.chunks, r.size));
}

function onBodyData(this: IncomingMessage, b: Buffer): void {
  const r = reading.get(this);
  if (!r) return;
  r.size += b.length;
  if (r.size > r.limit) {
    // As the iterator did when left early: stop reading and drop the request (and with it the connection).
    settle(this, new SimError(413, 'PAYLOAD_TOO_LARGE', `body exceeds ${r.limit} bytes`));
    this.resume();
    this.destroy();
    return;
  }
  r.chunks.push(b);
}

function onBodyEnd(this: IncomingMessage): void {
  settle(this, undefined);
}

/** The client went away mid-body ('aborted', ECONNRESET): a broken request, not a server failure to report. */
function onBodyError(this: IncomingMessage, err: Error): void {
  settle(this, new SimError(400, 'BAD_REQUEST', `request body incomplete: ${err.message}`));
}

function onBodyClose(this: IncomingMessage): void {
  if (!this.readableEnded) settle(this, new SimError(400, 'BAD_REQUEST', 'request body incomplete: premature close'));
}

/**
 * Parse a JSON body with the wire parser (core/wire-json.ts): nesting is bounded, duplicate keys are refused, and
 * numbers a double cannot hold keep their text, so `1.0000000000000001` is judged like the string. Anything it
 * refuses is 400 BAD_REQUEST naming the problem and its position. Empty body -> undefined.
 */
export function parseJsonBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return parseWireJson(raw.toString('utf8'));
  } catch (err) {
    throw new SimError(400, 'BAD_REQUEST', `request body is not valid JSON: ${(err as Error).message}`);
  }
}

/** Largest magnitude accepted for any amount; beyond it a number is "absurd" (1e400, 1e30). */
const MAX_MAGNITUDE = parseDecimal('1e15')!;

/** Decimal sanity shared by every body field: finite, not negative, not absurd, at most `maxDp` decimals. */
export function checkAmount(value: Decimal, field: string, code: ErrorCode, opts: { maxDp?: number; allowZero?: boolean } = {}): void {
  if (value.isNegative()) throw new SimError(400, code, `${field} must not be negative`);
  if (!opts.allowZero && value.isZero()) throw new SimError(400, code, `${field} must be greater than zero`);
  // Not negative here, so its magnitude is itself (no abs() and no comparison copy on every amount of a body).
  if (dgt(value, MAX_MAGNITUDE)) throw new SimError(400, code, `${field} is out of range`);
  const maxDp = opts.maxDp ?? 8;
  if (value.decimalPlaces() > maxDp) throw new SimError(400, code, `${field} has more than ${maxDp} decimal places`);
}

/**
 * Decode a request body strictly: unknown fields are refused (a typo like `quantiy` must not silently place an
 * order of the wrong shape), then the model decoder checks types. Errors become 400 with `code`.
 */
export function decodeBody<T>(value: unknown, decoder: Decoder<T>, allowed: readonly string[], code: ErrorCode, where: string): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SimError(400, code, `${where}: body must be a JSON object`);
  }
  for (const k of Object.keys(value)) {
    if (!allowed.includes(k)) throw new SimError(400, code, `${where}: unknown field '${k}'`);
  }
  try {
    return decoder(value, '', where);
  } catch (err) {
    if (err instanceof WireFormatError) throw new SimError(400, code, err.message);
    throw err;
  }
}
