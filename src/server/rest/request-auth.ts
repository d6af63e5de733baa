/**
 * Verifying a signed v3 request, as the service did: the signature is checked over the raw request target that
 * arrived (never a re-encoded or re-ordered query — real clients sign unencoded query values), the content hash
 * over the raw body bytes, and the timestamp against a window of the server's clock.
 */
import type { IncomingMessage } from 'node:http';
import { contentHash, hexEquals, hmacSha512Hex, signaturePreimage } from '../../bittrex/rest/auth.js';
import type { Clock } from '../../core/clock.js';
import { SimError } from '../../sim/sim-error.js';

/** An API key's permission scope (seed section 5). */
export type Scope = 'view' | 'trade' | 'withdraw';

/** What the server needs to know about keys. The simulator's account registry provides it. */
export interface KeyDirectory {
  /**
   * The key's record, matched however the directory matches keys (case-insensitively for the simulator's), with
   * the key as issued: the identity the call limit and the replay guard count by.
   */
  findKey(apiKey: string): { apiKey: string; accountId: string; secret: string; scopes: readonly Scope[] } | undefined;
  /** The account a request acts for: the key's own, or a sub-account it manages (throws SimError otherwise). */
  resolveActor(apiKey: string, subaccountId?: string): string;
}

/** Who a verified request acts for. */
export interface Caller {
  apiKey: string;
  /** The key's own (master) account. */
  keyAccountId: string;
  /** The account the request acts on: the sub-account when Api-Subaccount-Id was sent, else the key's. */
  accountId: string;
  subaccountId: string | undefined;
  scopes: readonly Scope[];
}

/** Options of {@link verifyRequest}. */
export interface VerifyOptions {
  keys: KeyDirectory;
  clock: Clock;
  /** Accepted clock skew either way; the service allowed a few seconds, rexbot defaults to 5 minutes for CI boxes. */
  timestampWindowMs?: number;
  /** The scope the endpoint needs. */
  scope: Scope;
}

function header(headers: IncomingMessage['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** `/^\d{1,16}$/.test(ts)`, read character by character (every signed request is checked). */
function isTimestampText(ts: string): boolean {
  const n = ts.length;
  if (n < 1 || n > 16) return false;
  for (let i = 0; i < n; i++) {
    const c = ts.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * Verify the Api-* headers of `req` with body `raw`. Returns the caller or throws SimError:
 * 401 APIKEY_INVALID, 401 INVALID_TIMESTAMP, 401 INVALID_SIGNATURE, 403 INSUFFICIENT_PERMISSIONS, and the
 * sub-account ownership errors of the key directory.
 */
export function verifyRequest(req: IncomingMessage, raw: Buffer, opts: VerifyOptions): Caller {
  const headers = req.headers;
  const sentKey = header(headers, 'api-key');
  const key = sentKey ? opts.keys.findKey(sentKey) : undefined;
  if (!sentKey || !key) throw new SimError(401, 'APIKEY_INVALID', 'Api-Key header missing or unknown');

  const ts = header(headers, 'api-timestamp');
  const tsNum = ts !== undefined && isTimestampText(ts) ? Number(ts) : NaN;
  const window = opts.timestampWindowMs ?? 5 * 60_000;
  if (!Number.isFinite(tsNum) || Math.abs(opts.clock.now() - tsNum) > window) {
    throw new SimError(401, 'INVALID_TIMESTAMP', 'Api-Timestamp missing or outside the accepted window');
  }

  const sentHash = header(headers, 'api-content-hash');
  const actualHash = contentHash(raw);
  if (!sentHash || !hexEquals(sentHash, actualHash)) {
    throw new SimError(401, 'INVALID_SIGNATURE', 'Api-Content-Hash does not match the request body');
  }

  const subaccountId = header(headers, 'api-subaccount-id') || undefined;
  const signature = header(headers, 'api-signature');
  if (!signature) throw new SimError(401, 'INVALID_SIGNATURE', 'Api-Signature header missing');
  const host = header(headers, 'host') ?? '';
  const target = req.url ?? '/';
  const method = (req.method ?? 'GET').toUpperCase();
  // The client signed the URI it used; behind a TLS terminator that is https, locally http. Accept either.
  const ok =
    hexEquals(signature, hmacSha512Hex(key.secret, signaturePreimage(ts!, `http://${host}${target}`, method, sentHash, subaccountId))) ||
    hexEquals(signature, hmacSha512Hex(key.secret, signaturePreimage(ts!, `https://${host}${target}`, method, sentHash, subaccountId)));
  if (!ok) throw new SimError(401, 'INVALID_SIGNATURE', 'Api-Signature does not match');

  if (!key.scopes.includes(opts.scope)) {
    throw new SimError(403, 'INSUFFICIENT_PERMISSIONS', `this API key lacks the '${opts.scope}' permission`);
  }
  // The key as issued, not as sent: the caller's identity for the call limit and the replay guard (see findKey).
  const apiKey = key.apiKey;
  const accountId = opts.keys.resolveActor(apiKey, subaccountId);
  return { apiKey, keyAccountId: key.accountId, accountId, subaccountId, scopes: key.scopes };
}
