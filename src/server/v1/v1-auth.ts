/**
 * Verifying a signed v1.1 request as the service did (seed section 5): `apikey` and `nonce` in the query,
 * `apisign` = hex HMAC-SHA512 of the full URL, checked over the raw request target that arrived (never a
 * re-encoded query) with either scheme, case-insensitively. The key is the same one v3 uses.
 */
import type { IncomingMessage } from 'node:http';
import { hexEquals, hmacSha512Hex } from '../../bittrex/rest/auth.js';
import type { KeyDirectory, Scope } from '../rest/request-auth.js';
import { param } from './v1-params.js';
import { V1Failure } from './v1-failure.js';

/** Who a verified v1.1 request acts for. v1.1 has no sub-accounts: always the key's own account. */
export interface V1Caller {
  apiKey: string;
  accountId: string;
}

/**
 * Verify `req` (query `q`) for `scope`; throws {@link V1Failure}: NONCE_NOT_PROVIDED, APIKEY_NOT_PROVIDED,
 * APISIGN_NOT_PROVIDED, APIKEY_INVALID, INVALID_SIGNATURE, INVALID_PERMISSION.
 */
export function verifyV1Request(req: IncomingMessage, q: URLSearchParams, keys: KeyDirectory, scope: Scope): V1Caller {
  if (param(q, 'nonce') === undefined) throw new V1Failure('NONCE_NOT_PROVIDED');
  const sentKey = param(q, 'apikey');
  if (sentKey === undefined) throw new V1Failure('APIKEY_NOT_PROVIDED');
  const h = req.headers.apisign;
  const sign = Array.isArray(h) ? h[0] : h;
  if (!sign) throw new V1Failure('APISIGN_NOT_PROVIDED');
  const key = sentKey.length <= 128 ? keys.findKey(sentKey) : undefined;
  if (!key) throw new V1Failure('APIKEY_INVALID');
  const hostHeader = req.headers.host ?? '';
  const target = req.url ?? '/';
  const ok = ['http', 'https'].some((scheme) => hexEquals(sign, hmacSha512Hex(key.secret, `${scheme}://${hostHeader}${target}`)));
  if (!ok) throw new V1Failure('INVALID_SIGNATURE');
  if (!key.scopes.includes(scope)) throw new V1Failure('INVALID_PERMISSION');
  // The key as issued, not as sent: the call budget counts by it (see KeyDirectory.findKey).
  return { apiKey: key.apiKey, accountId: keys.resolveActor(key.apiKey) };
}
