/**
 * Server side of the hub's Authenticate(apiKey, timestamp, randomContent, signature) (seed section 5).
 *
 * The signature is hex HMAC-SHA512(secret, timestamp + randomContent) over the timestamp exactly as it arrived:
 * a client that sent the string "1623635618775" signed that string, and one that sent a JSON number signed its
 * decimal form, so the preimage is rebuilt from the wire value, never from a re-formatted number.
 */
import { hexEquals, hmacSha512Hex } from '../../bittrex/rest/auth.js';

/** How far a hub authentication timestamp may be from the server's clock. */
export const AUTH_TIMESTAMP_TOLERANCE_MS = 5 * 60_000;

/** The outcome of one Authenticate call. */
export type HubAuthVerdict =
  | { ok: true; accountId: string; apiKey: string }
  | { ok: false; errorCode: 'INVALID_APIKEY' | 'INVALID_TIMESTAMP' | 'INVALID_SIGNATURE' };

const HEX_RE = /^[0-9a-fA-F]+$/;
const DIGITS_RE = /^-?\d+$/;

/**
 * Check Authenticate's arguments against the key store.
 *
 * @param args the four wire arguments, unvalidated
 * @param findKey the backend's key lookup
 * @param nowMs the server clock's time
 * @example
 * verifyHubAuth(['key', 1623635618775, 'uuid', 'AB12…'], (k) => keys.get(k), clock.now());
 */
export function verifyHubAuth(
  args: readonly unknown[],
  findKey: (apiKey: string) => { secret: string; accountId: string } | undefined,
  nowMs: number,
  toleranceMs: number = AUTH_TIMESTAMP_TOLERANCE_MS,
): HubAuthVerdict {
  const [apiKey, timestamp, randomContent, signature] = args;
  const key = typeof apiKey === 'string' && apiKey !== '' ? findKey(apiKey) : undefined;
  if (key === undefined || typeof apiKey !== 'string') return { ok: false, errorCode: 'INVALID_APIKEY' };

  let tsText: string;
  if (typeof timestamp === 'number' && Number.isSafeInteger(timestamp)) tsText = String(timestamp);
  else if (typeof timestamp === 'string' && DIGITS_RE.test(timestamp)) tsText = timestamp;
  else return { ok: false, errorCode: 'INVALID_TIMESTAMP' };
  if (Math.abs(Number(tsText) - nowMs) > toleranceMs) return { ok: false, errorCode: 'INVALID_TIMESTAMP' };

  if (typeof randomContent !== 'string' || typeof signature !== 'string' || !HEX_RE.test(signature)) {
    return { ok: false, errorCode: 'INVALID_SIGNATURE' };
  }
  if (!hexEquals(signature, hmacSha512Hex(key.secret, tsText + randomContent))) {
    return { ok: false, errorCode: 'INVALID_SIGNATURE' };
  }
  return { ok: true, accountId: key.accountId, apiKey };
}
