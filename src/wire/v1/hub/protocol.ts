/**
 * The v1.1 hub dialect (seed 001, sections 4-6): classic ASP.NET SignalR 1.5 like v3's hub (same negotiate /
 * connect / start handshake and frames, see src/bittrex/hub/classic-frames.ts), but hub `c2`, seven methods, and
 * five callbacks whose payloads are base64 of raw deflate of JSON with minified keys. Client, simulator server and
 * capture reader all speak it through this module.
 *
 * Wire facts from the 2021 captures (shared/data/bittrex-v1-ws-2021/):
 * - `connectionData=[{"name":"c2"}]`; invocations `{"H":"c2","M":"QueryExchangeState","A":["EUR-UNI"],"I":0}`;
 *   pushes name the hub `C2`: `{"C":…,"M":[{"H":"C2","M":"uE","A":["<base64>"]}]}`.
 * - The query methods answer with the compressed payload itself as `R`: `{"R":"tVvbjmu7…","I":"0"}`.
 * - The subscribe methods answer `R: true`; Authenticate answers a boolean too, GetAuthContext a plain string.
 */
import { deflateRawSync } from 'node:zlib';
import { LosslessNumber, stringify } from 'lossless-json';
import { isDecimal } from '../../../core/decimal.js';
import { WireFormatError } from '../../../core/errors.js';
import { inflatePayload } from '../../../bittrex/hub/codec.js';
import { parseV1Json } from '../json.js';
import { decodeV1Message, type V1MessageName, type V1Messages } from './messages.js';
import { minifyKeys } from './minified-keys.js';

/** The hub name clients put in connectionData and invocations. */
export const V1_HUB_NAME = 'c2';
/** The spelling server pushes use for the hub. */
export const V1_PUSH_HUB = 'C2';

/** The hub methods, as the official document names them (servers match them case-insensitively). */
export const V1_METHODS = [
  'GetAuthContext',
  'Authenticate',
  'QueryExchangeState',
  'QuerySummaryState',
  'SubscribeToExchangeDeltas',
  'SubscribeToSummaryDeltas',
  'SubscribeToSummaryLiteDeltas',
] as const;
/** A v1.1 hub method. */
export type V1Method = (typeof V1_METHODS)[number];

/**
 * Inflate and decode one v1.1 payload (base64 of raw deflate, minified keys) of kind `name`.
 * Throws WireFormatError (`hub payload` for the base64/deflate/JSON layers, `v1.1 <name>` for the fields).
 *
 * @example
 * const delta = decodeV1Payload('uE', push.args[0]); // { MarketName, Nonce, Buys, Sells, Fills }
 */
export function decodeV1Payload<K extends V1MessageName>(name: K, base64: unknown): V1Messages[K] {
  return decodeV1Message(name, inflateV1Payload(base64));
}

/**
 * The inflated JSON of one payload with its keys still minified (what capture files and logs show). Numbers stay
 * exact: lossless-json keeps each as its source text, which the message decoders read into Decimals.
 *
 * @example
 * inflateV1Payload(push.args[0]) // { M: 'BTC-ETH', N: LosslessNumber(9), Z: [], S: [], f: [] }
 */
export function inflateV1Payload(base64: unknown): unknown {
  const text = inflatePayload(base64);
  try {
    return parseV1Json(text);
  } catch (err) {
    throw new WireFormatError('hub payload', '', { reason: 'is not JSON after inflate', text: `is not JSON after inflate: ${(err as Error).message}` });
  }
}

/**
 * A v1.1 message as JSON values: decimals become exact JSON numbers (as the 2021 wire sent them, `6.49e-06`
 * included), dates epoch milliseconds, undefined fields are left out. Keys are untouched.
 */
export function toV1Json(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (isDecimal(value)) return new LosslessNumber(value.toString());
  if (value instanceof Date) return value.getTime();
  if (Array.isArray(value)) return value.map(toV1Json);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toV1Json(v);
  return out;
}

/**
 * Encode one message in its expanded form (full field names, Decimal and Date values) as the server sends it:
 * JSON numbers and epoch ms, minified keys, raw deflate, base64.
 *
 * @example
 * encodeV1Payload({ MarketName: 'BTC-ETH', Nonce: 9, Buys: [], Sells: [], Fills: [] }) // 'q1byVfJ1…'
 */
export function encodeV1Payload(message: object): string {
  const text = stringify(minifyKeys(toV1Json(message))) as string;
  return deflateRawSync(Buffer.from(text, 'utf8')).toString('base64');
}
