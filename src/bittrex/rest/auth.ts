/**
 * Request signing for the v3 REST interface and the hub's Authenticate call (seed section 5, WIRE.md).
 *
 * - `Api-Content-Hash` = lowercase hex SHA-512 of the raw body (of `""` when there is none).
 * - `Api-Signature` = hex HMAC-SHA512(secret, timestamp + full URI + METHOD + content hash + subaccount id or "").
 * - Hub: hex HMAC-SHA512(secret, timestamp + randomContent).
 *
 * The full URI is exactly what goes on the wire, query included, so callers sign the string they send.
 */
import { hash as oneShotHash, randomUUID } from 'node:crypto';
import '../../core/string-prototype-fast.js'; // hexEquals scans with charCodeAt: that module keeps it inlined
import { hmacSha512Hex } from './hmac-sha512.js';

/** API credentials. The secret never leaves this process and is redacted from logs. */
export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

/** The signed headers of one REST request. */
export interface SignedHeaders {
  'Api-Key': string;
  'Api-Timestamp': string;
  'Api-Content-Hash': string;
  'Api-Signature': string;
  'Api-Subaccount-Id'?: string;
}

const EMPTY_SHA512 = oneShotHash('sha512', '', 'hex');

/**
 * Lowercase hex SHA-512 of a request body (`""` when there is none). The one-shot `crypto.hash` (Node >= 20.12)
 * gives the same digest as `createHash(..).update(..).digest('hex')` without building a Hash object: every signed
 * request hashes its body on both sides.
 */
export function contentHash(body: string | Uint8Array | undefined | null): string {
  if (body === undefined || body === null || body.length === 0) return EMPTY_SHA512;
  return oneShotHash('sha512', body, 'hex');
}

/** The string whose HMAC is the signature: timestamp + uri + METHOD + contentHash + subaccountId. */
export function signaturePreimage(
  timestamp: string,
  uri: string,
  method: string,
  hash: string,
  subaccountId?: string,
): string {
  return timestamp + uri + method.toUpperCase() + hash + (subaccountId ?? '');
}

export { hmacSha512Hex } from './hmac-sha512.js';

/** What {@link signRequest} signs: the method, the full URI as sent, the raw body, the timestamp, the sub-account. */
export interface SignInput {
  method: string;
  uri: string;
  /** The body exactly as sent, as text or bytes (the same digest either way). */
  body?: string | Uint8Array | undefined;
  timestamp: number | string;
  subaccountId?: string | undefined;
  /** `contentHash(body)` when the caller has worked it out already (it is not computed twice then). */
  contentHash?: string | undefined;
}

/**
 * Sign one REST request.
 *
 * @example
 * const h = signRequest({ apiKey, apiSecret }, { method: 'GET', uri: 'http://127.0.0.1:8080/v3/balances', timestamp: Date.now() });
 * await fetch(uri, { headers: { ...h } });
 */
export function signRequest(creds: Credentials, req: SignInput): SignedHeaders {
  const headers = {} as SignedHeaders;
  writeSignedHeaders(headers as unknown as Record<string, string>, creds, req);
  return headers;
}

/**
 * Add the signed headers of {@link signRequest} (same names, values and order) to `headers`: the transport writes
 * them straight into the headers it sends rather than copying them over from a second object per request.
 */
export function writeSignedHeaders(headers: Record<string, string>, creds: Credentials, req: SignInput): void {
  const ts = String(req.timestamp);
  const hash = req.contentHash ?? contentHash(req.body);
  const sig = hmacSha512Hex(creds.apiSecret, signaturePreimage(ts, req.uri, req.method, hash, req.subaccountId));
  headers['Api-Key'] = creds.apiKey;
  headers['Api-Timestamp'] = ts;
  headers['Api-Content-Hash'] = hash;
  headers['Api-Signature'] = sig;
  if (req.subaccountId) headers['Api-Subaccount-Id'] = req.subaccountId;
}

/**
 * Compare two hex digests case-insensitively in constant time (servers verifying signatures use this): every
 * character is compared, whatever differs first, with ASCII case folded (only `A`-`Z`, as hex needs; any other
 * character must match exactly). Done on the strings themselves: the Buffers and lower-cased copies a
 * `timingSafeEqual` needs cost more than the comparison, on every signed request.
 */
export function hexEquals(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= foldAscii(a.charCodeAt(i)) ^ foldAscii(b.charCodeAt(i));
  return diff === 0;
}

/**
 * `c` with ASCII upper case folded to lower case: `c >= 65 && c <= 90 ? c | 32 : c`, without a branch. Hex digits
 * are a random mix of letters and numbers, so that branch was mispredicted about every other character and made the
 * comparison of a 128-digit signature twice as slow. `(c - 65) | (90 - c)` is negative exactly when `c` is outside
 * `A`-`Z`, so its inverted sign bit is 1 for upper case letters only, and shifted to bit 5 it is the fold.
 */
function foldAscii(c: number): number {
  return c | ((~((c - 65) | (90 - c)) >>> 31) << 5);
}

/** Arguments of the hub's Authenticate(apiKey, timestamp, randomContent, signature). */
export interface HubAuthArgs {
  apiKey: string;
  timestamp: number;
  randomContent: string;
  signature: string;
}

/** Sign a hub authentication: HMAC-SHA512(secret, timestamp + randomContent), hex. */
export function signHubAuth(creds: Credentials, timestamp: number, randomContent: string = randomUUID()): HubAuthArgs {
  return {
    apiKey: creds.apiKey,
    timestamp,
    randomContent,
    signature: hmacSha512Hex(creds.apiSecret, String(timestamp) + randomContent),
  };
}
