/**
 * v1.1 request signing (seed section 5; official document "Request Signing"): the message is the full request
 * URL including its query string, which carries `apikey` and `nonce`; the signature is the hex HMAC-SHA512 of it
 * keyed by the API secret, sent in the `apisign` header.
 *
 * The official vector: message `https://api.bittrex.com/api/v1.1/path/call?param=value&apikey=0123456789&nonce=1542020339856`,
 * secret `ABCDEFGHIJ` → `FC70DD64…2CE631` (upper case there; servers compare case-insensitively).
 */
import { hmacSha512Hex } from '../../rest/auth.js';

/**
 * Sign a v1.1 URL.
 *
 * @example
 * const apisign = signV1Url(apiSecret, 'https://api.bittrex.com/api/v1.1/account/getbalances?apikey=K&nonce=1');
 */
export function signV1Url(apiSecret: string, url: string): string {
  return hmacSha512Hex(apiSecret, url);
}
