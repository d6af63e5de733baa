/**
 * Hub payload codec: every v3 stream message travels as base64 text of RAW deflate (no zlib header, zlib
 * wbits -15) of its JSON (WIRE.md). The client decodes with {@link decodePayload}; the simulator's hub server
 * encodes with {@link encodePayload}.
 *
 * Three interchangeable implementations exist: {@link reusableCodec} (rexbot's own raw inflate, raw-inflate.ts,
 * reusing its buffers), one over `node:zlib` and one over pako (pure JS). The payloads are small (median 122 bytes
 * compressed), so per-call setup decides: `inflateRawSync` builds and closes a zlib stream object per call, pako
 * allocates its output chunk and tables per call. Measured with `npm run bench -- --only hub-decode` over the
 * 1,015 real order-book payloads of the 2021 capture (base64 -> inflate -> JSON.parse), all in the same run, on
 * the project's 2-core machine shared with other test runs (load average 2-3):
 *
 *     reusable ~74,000-83,000 payloads/s   node:zlib ~50,000-66,000   pako ~23,000-28,000
 *
 * The reusable inflater also leaves no garbage per call, which is what the stream-latency p99 is made of. It is
 * the default ({@link payloadCodec}); the other two stay exported, same interface, for comparison.
 */
import { inflateRawSync, deflateRawSync } from 'node:zlib';
import { deflateRaw, inflateRaw } from 'pako';
import { WireFormatError } from '../../core/errors.js';
import { parseVenueJson } from '../../core/venue-json.js';
import { INFLATE_INPUT_PADDING, InflateError, RawInflater } from './raw-inflate.js';

/** Decodes and encodes hub payloads (base64 of raw deflate of JSON). */
export interface PayloadCodec {
  /** Implementation name, for benches and logs. */
  readonly name: string;
  /** base64 -> raw inflate -> JSON (exact numbers, venue-json.ts). Throws {@link WireFormatError} (`where` = `hub payload`) on bad input. */
  decode(base64: string): unknown;
  /** JSON.stringify -> raw deflate -> base64. */
  encode(value: unknown): string;
}

const WHERE = 'hub payload';

// Buffer.from(..., 'base64') silently skips characters outside the alphabet, so garbage would reach inflate
// and fail there with a confusing message; check the alphabet first (standard and URL-safe, optional padding).
const BASE64_RE = /^[A-Za-z0-9+/_-]+={0,2}$/;

function toBytes(base64: unknown): Buffer {
  if (typeof base64 !== 'string') {
    throw new WireFormatError(WHERE, '', { reason: 'is not a base64 string', text: `is not a base64 string: ${typeof base64}` });
  }
  if (base64.length === 0 || !BASE64_RE.test(base64)) {
    throw new WireFormatError(WHERE, '', { reason: 'is not base64 text', text: `is not base64 text (${base64.length} chars)` });
  }
  return Buffer.from(base64, 'base64');
}

/** The payload's JSON, every number in it exact (venue-json.ts: a quantity sent as a bare number keeps its digits). */
function parseJson(text: string): unknown {
  try {
    return parseVenueJson(text);
  } catch (err) {
    throw new WireFormatError(WHERE, '', { reason: 'is not JSON after inflate', text: `is not JSON after inflate: ${(err as Error).message}` });
  }
}

function inflateFailed(err: unknown): never {
  throw new WireFormatError(WHERE, '', { reason: 'is not raw deflate data', text: `is not raw deflate data: ${(err as Error).message ?? String(err)}` });
}

function serialise(value: unknown): string {
  const text = JSON.stringify(value);
  // JSON.stringify(undefined) is undefined: heartbeat-like messages carry no payload, never an encoded one.
  if (text === undefined) throw new TypeError('encodePayload: value has no JSON form');
  return text;
}

const utf8 = new TextDecoder();

/** The pako (pure JS) implementation. */
export const pakoCodec: PayloadCodec = {
  name: 'pako',
  decode(base64) {
    const bytes = toBytes(base64);
    let text: string;
    try {
      // pako's default 64 KiB output chunk is allocated per call and dwarfs these payloads (a few KiB inflated).
      text = utf8.decode(inflateRaw(bytes, { chunkSize: 16_384 }));
    } catch (err) {
      return inflateFailed(err);
    }
    return parseJson(text);
  },
  encode(value) {
    return Buffer.from(deflateRaw(serialise(value))).toString('base64');
  },
};

/** The `node:zlib` implementation. */
export const zlibCodec: PayloadCodec = {
  name: 'node:zlib',
  decode(base64) {
    const bytes = toBytes(base64);
    let text: string;
    try {
      text = inflateRawSync(bytes).toString('utf8');
    } catch (err) {
      return inflateFailed(err);
    }
    return parseJson(text);
  },
  encode(value) {
    return deflateRawSync(Buffer.from(serialise(value), 'utf8')).toString('base64');
  },
};

/**
 * Decode a hub payload to its JSON text with the reusable {@link RawInflater}: base64 into a scratch buffer (no
 * Buffer per call), inflate into the inflater's own output, one string out. Nothing else is allocated per call,
 * which is the point: see raw-inflate.ts for why node:zlib and pako cost what they cost on payloads this small.
 */
class ReusableInflate {
  readonly #inflater = new RawInflater();
  #scratch = Buffer.allocUnsafeSlow(4096);
  /** A Buffer over the inflater's current output, for its native utf8 decoding. */
  #output = Buffer.from(this.#inflater.output.buffer, 0, this.#inflater.output.length);

  text(base64: unknown): string {
    if (typeof base64 !== 'string') {
      throw new WireFormatError(WHERE, '', { reason: 'is not a base64 string', text: `is not a base64 string: ${typeof base64}` });
    }
    if (base64.length === 0 || !BASE64_RE.test(base64)) {
      throw new WireFormatError(WHERE, '', { reason: 'is not base64 text', text: `is not base64 text (${base64.length} chars)` });
    }
    // 3 bytes per 4 characters, rounded up, plus the inflater's look-ahead padding.
    const need = Math.ceil((base64.length * 3) / 4) + INFLATE_INPUT_PADDING;
    if (this.#scratch.length < need) this.#scratch = Buffer.allocUnsafeSlow(Math.max(need, this.#scratch.length * 2));
    const scratch = this.#scratch;
    const length = scratch.write(base64, 0, 'base64');
    let n: number;
    try {
      n = this.#inflater.inflate(scratch, length);
    } catch (err) {
      if (err instanceof InflateError) return inflateFailed(err);
      throw err;
    } finally {
      // A rare huge payload should not pin its scratch buffer for good.
      if (scratch.length > 1 << 20) this.#scratch = Buffer.allocUnsafeSlow(4096);
    }
    const out = this.#inflater.output;
    if (this.#output.buffer !== out.buffer) this.#output = Buffer.from(out.buffer, out.byteOffset, out.length);
    return this.#output.toString('utf8', 0, n);
  }
}

const reusable = new ReusableInflate();

/** rexbot's own raw inflate ({@link RawInflater}), reusing its buffers; encodes with node:zlib. */
export const reusableCodec: PayloadCodec = {
  name: 'reusable-inflate',
  decode(base64) {
    return parseJson(reusable.text(base64));
  },
  encode(value) {
    return zlibCodec.encode(value);
  },
};

/** The default codec: the fastest in the `hub-decode` bench (see the figures at the top of this file). */
export const payloadCodec: PayloadCodec = reusableCodec;
export default payloadCodec;

/**
 * Decode one hub payload with the default codec.
 *
 * @example
 * decodePayload(encodePayload({ sequence: 1 })) // { sequence: 1 }
 */
export function decodePayload(base64: string): unknown {
  return payloadCodec.decode(base64);
}

/**
 * The JSON text of one hub payload (base64 -> raw inflate -> UTF-8), with the reusable inflater; for decoders
 * that read the text themselves (see stream-payload.ts). Throws {@link WireFormatError} (`hub payload`) as
 * {@link decodePayload} does; follow with {@link parsePayloadText} for the JSON value.
 */
export function inflatePayload(base64: unknown): string {
  return reusable.text(base64);
}

/** The JSON value of an inflated payload (exact numbers, venue-json.ts), failing as {@link decodePayload} does (`hub payload: ... not JSON`). */
export function parsePayloadText(text: string): unknown {
  return parseJson(text);
}

/**
 * Encode one hub payload with the default codec (what the simulator's hub server sends).
 *
 * @example
 * const frameArg = encodePayload({ marketSymbol: 'BTC-USD', depth: 25, sequence: 7, bidDeltas: [], askDeltas: [] });
 */
export function encodePayload(value: unknown): string {
  return payloadCodec.encode(value);
}
