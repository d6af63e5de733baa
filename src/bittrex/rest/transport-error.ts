/**
 * Maps an undici failure to the typed error callers act on: {@link TimeoutError} or {@link NetworkError}, saying
 * whether the request may have reached the server. Shared by the v3 and v1.1 transports (moved out of http.ts,
 * which re-exports it, to keep that file small).
 */
import { NetworkError, type RequestRef, TimeoutError } from '../../core/errors.js';
import { BODY_DEADLINE_CODE, MAX_RESPONSE_BYTES } from './response-limits.js';

/** Errors that prove the request never left this process, so it certainly did not reach the server. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_DESTROYED',
  'UND_ERR_CLOSED',
  'UND_ERR_INVALID_ARG',
]);

/**
 * Map an undici failure to {@link TimeoutError} (headers/body timeout) or {@link NetworkError}, saying whether the
 * request may have reached the server. Shared by the v3 and v1.1 transports.
 */
export function transportError(err: unknown, ref: RequestRef, timeoutMs: number): NetworkError | TimeoutError {
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const what = `${ref.method} ${ref.path}`;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new TimeoutError(`${what}: no response within ${timeoutMs} ms`, {
      timeoutMs: timeoutMs,
      request: ref,
      cause: err,
    });
  }
  if (code === BODY_DEADLINE_CODE) {
    return new TimeoutError(`${what}: the response body did not arrive whole within ${3 * timeoutMs} ms`, { timeoutMs: 3 * timeoutMs, request: ref, cause: err });
  }
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
    return new NetworkError(`${what}: the response body is over ${MAX_RESPONSE_BYTES} bytes; not read further`, { mayHaveReachedServer: true, request: ref, cause: err });
  }
  // Happy-eyeballs connects fail with an AggregateError whose parts carry the codes.
  const parts = Array.isArray(e?.errors) ? (e.errors as { code?: unknown }[]) : [];
  const notSent =
    (code !== undefined && NOT_SENT_CODES.has(code)) ||
    (parts.length > 0 && parts.every((p) => typeof p?.code === 'string' && NOT_SENT_CODES.has(p.code)));
  const msg = typeof e?.message === 'string' && e.message ? e.message : String(err);
  return new NetworkError(`${what}: ${code ? `${code} ` : ''}${msg}`, {
    mayHaveReachedServer: !notSent,
    request: ref,
    cause: err,
  });
}
