/**
 * What a failed request means for an order, and when to try again. Written out as data, like undici's retry
 * defaults, so it can be tuned from config and read in one place.
 *
 * - A timeout, a network failure that may have reached the server, a 5xx, or anything unexpected: the order may
 *   exist. Retry with the SAME client id — the exchange answers CLIENTORDERID_ALREADY_EXISTS if the first attempt
 *   landed, so a retry can never double an order.
 * - A network failure that certainly did not reach the server: not sent; retry likewise.
 * - THROTTLED / 429: the shared throttler refused before sending (or the exchange did): not sent; retry later.
 * - *_ALREADY_EXISTS: an earlier attempt landed; adopt that order.
 * - Any other 4xx: refused; nothing was placed.
 * - Refused before it left (the client's own validation, an encoding or signing failure): nothing was sent and
 *   the same request would fail the same way, so it is refused too — never ambiguous, never retried, never LOST.
 */
import { ApiError, NetworkError, RequestNotSentError, TimeoutError, ValidationError } from '../core/errors.js';

/** The meaning of a failed request. */
export type FailureKind = 'ambiguous' | 'notSent' | 'throttled' | 'exists' | 'refused';

/** A classified failure. */
export interface Failure {
  kind: FailureKind;
  code: string;
  message: string;
  /** The id of the existing item for `exists` (from the error's data), when the exchange named it. */
  existingId?: string | undefined;
  /** The server's Retry-After, for `throttled`. */
  retryAfterMs?: number | undefined;
}

const EXISTS_CODES = new Set(['CLIENTORDERID_ALREADY_EXISTS', 'CLIENTCONDITIONALORDERID_ALREADY_EXISTS']);
const EXISTING_ID_FIELDS = ['existingOrderId', 'existingConditionalOrderId', 'orderId', 'id'];

/**
 * Classify an error thrown by a gateway call that creates something.
 *
 * @example
 * classifyFailure(new ApiError({ status: 409, code: 'CLIENTORDERID_ALREADY_EXISTS', data: { existingOrderId: 'o1' } }))
 * // { kind: 'exists', code: 'CLIENTORDERID_ALREADY_EXISTS', existingId: 'o1', ... }
 */
export function classifyFailure(e: unknown): Failure {
  const message = e instanceof Error ? e.message : String(e);
  // Classified by where it happened: only a failure after the request may have left is ambiguous.
  if (e instanceof ValidationError || e instanceof RequestNotSentError) return { kind: 'refused', code: e.code, message };
  if (e instanceof TimeoutError) return { kind: 'ambiguous', code: e.code, message };
  if (e instanceof NetworkError) return { kind: e.mayHaveReachedServer ? 'ambiguous' : 'notSent', code: e.code, message };
  if (e instanceof ApiError) {
    if (EXISTS_CODES.has(e.code)) return { kind: 'exists', code: e.code, message, existingId: existingIdOf(e.data) };
    if (e.code === 'THROTTLED' || e.status === 429) return { kind: 'throttled', code: 'THROTTLED', message, retryAfterMs: e.retryAfterMs };
    if (e.status >= 500) return { kind: 'ambiguous', code: e.code, message };
    return { kind: 'refused', code: e.code, message };
  }
  // A bug or an unknown failure below the gateway: the request may have left, so treat it as ambiguous.
  return { kind: 'ambiguous', code: 'UNEXPECTED_ERROR', message };
}

function existingIdOf(data: Record<string, unknown> | undefined): string | undefined {
  if (!data) return undefined;
  for (const f of EXISTING_ID_FIELDS) {
    const v = data[f];
    if (typeof v === 'string' && v.length > 0) return v;
  }
  return undefined;
}

/** Retry and lookup settings of the order manager. */
export interface RetryPolicy {
  /** Attempts of one request on ambiguous / not-sent failures (first attempt included). */
  maxAttempts: number;
  /** Attempts on THROTTLED (the throttler paused until the next minute; these are cheap waits). */
  maxThrottledAttempts: number;
  /** First backoff, doubled per attempt, in ms of the clock. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Wait after THROTTLED when the answer carried no Retry-After. */
  throttledDelayMs: number;
  /** Lookups of an AMBIGUOUS order before it is declared lost (Hummingbot: "not found" a few times). */
  lookupAttempts: number;
  /** Wait between lookups. */
  lookupDelayMs: number;
  /** After an order closed with fills not yet seen on the stream, wait this long before fetching executions. */
  fillGraceMs: number;
}

/** The defaults. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 4,
  maxThrottledAttempts: 10,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  throttledDelayMs: 5_000,
  lookupAttempts: 3,
  lookupDelayMs: 2_000,
  fillGraceMs: 2_000,
});

/** Backoff before attempt `attempt` (2 = the first retry). */
export function backoffMs(policy: RetryPolicy, attempt: number, failure: Failure): number {
  if (failure.kind === 'throttled') return Math.max(failure.retryAfterMs ?? 0, policy.throttledDelayMs);
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 2));
}

/** Run `fn` with retries per `policy`; returns its value or the last failure (never throws). */
export async function withRetries<T>(
  policy: RetryPolicy,
  sleep: (ms: number) => Promise<void>,
  fn: (attempt: number) => Promise<T>,
  onRetry?: (failure: Failure, attempt: number) => void,
): Promise<{ ok: true; value: T; everAmbiguous: boolean } | { ok: false; failure: Failure; everAmbiguous: boolean }> {
  let everAmbiguous = false;
  let throttled = 0;
  let other = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return { ok: true, value: await fn(attempt), everAmbiguous };
    } catch (e) {
      const failure = classifyFailure(e);
      if (failure.kind === 'ambiguous') everAmbiguous = true;
      if (failure.kind === 'exists' || failure.kind === 'refused') return { ok: false, failure, everAmbiguous };
      if (failure.kind === 'throttled') throttled++;
      else other++;
      if (throttled >= policy.maxThrottledAttempts || other >= policy.maxAttempts) return { ok: false, failure, everAmbiguous };
      onRetry?.(failure, attempt);
      await sleep(backoffMs(policy, attempt + 1, failure));
    }
  }
}
