/**
 * Hub payload codec: every v3 stream message travels as base64 text of RAW deflate (no zlib header, zlib
 * wbits -15) of its JSON (WIRE.md). The client decodes with {@link decodePayload}; the simulator's hub server
 * encodes with {@link encodePayload}.
 *
 * Two interchangeable implementations exist, one over `node:zlib` and one over pako (pure JS). Measured with
 * `npm run bench -- --only hub-decode` over the 1,015 real order-book payloads of the 2021 capture
 * (test/fixtures/v3-capture), both in the same run, on the project's 2-core machine:
 *
 *     node:zlib  ~30,000 payloads/s   pako ~16,000-23,000   (ratio 1.3-1.9, machine otherwise quiet)
 *     node:zlib  ~14,000-15,000       pako ~4,000-5,000     (ratio 2.8-4.0, cores shared with other test runs)
 *
 * The payloads are small (median 122 bytes compressed), so per-call setup decides: pako allocates and fills
 * its output chunks in JS, zlib does the work natively. node:zlib was faster in every run, so it is the
 * default ({@link payloadCodec}); {@link pakoCodec} stays exported, same interface, for comparison.
 */
import { inflateRawSync, deflateRawSync } from 'node:zlib';
import { deflateRaw, inflateRaw } from 'pako';
import { WireFormatError } from '../../core/errors.js';

/** Decodes and encodes hub payloads (base64 of raw deflate of JSON). */
export interface PayloadCodec {
  /** Implementation name, for benches and logs. */
  readonly name: string;
  /** base64 -> raw inflate -> JSON.parse. Throws {@link WireFormatError} (`where` = `hub payload`) on bad input. */
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
    throw new WireFormatError(WHERE, '', `is not a base64 string: ${typeof base64}`);
  }
  if (base64.length === 0 || !BASE64_RE.test(base64)) {
    throw new WireFormatError(WHERE, '', `is not base64 text (${base64.length} chars)`);
  }
  return Buffer.from(base64, 'base64');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new WireFormatError(WHERE, '', `is not JSON after inflate: ${(err as Error).message}`);
  }
}

function inflateFailed(err: unknown): never {
  throw new WireFormatError(WHERE, '', `is not raw deflate data: ${(err as Error).message ?? String(err)}`);
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

/** The default codec: the faster one in the `hub-decode` bench (see the figures at the top of this file). */
export const payloadCodec: PayloadCodec = zlibCodec;
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
 * Encode one hub payload with the default codec (what the simulator's hub server sends).
 *
 * @example
 * const frameArg = encodePayload({ marketSymbol: 'BTC-USD', depth: 25, sequence: 7, bidDeltas: [], askDeltas: [] });
 */
export function encodePayload(value: unknown): string {
  return payloadCodec.encode(value);
}
