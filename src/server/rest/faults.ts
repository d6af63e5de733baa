/**
 * Faults the simulator's REST server can be told to inject (through the control API), so clients' retry,
 * idempotency and reconciliation paths are exercised against real sockets:
 * - `delayMs`: answer every matching request late;
 * - `dropRate`: close the connection without an answer before the request is processed;
 * - `errorRate`: answer 503 SERVICE_UNAVAILABLE (or `errorStatus`, with the code that status carries: see
 *   {@link faultCode}) before processing;
 * - `throttleStorm`: answer the next N requests 429 THROTTLED;
 * - `loseResponses`: process the next N matching requests (e.g. an order IS placed) and then close the
 *   connection without answering — the "accepted but response lost" case.
 * Random choices come from a seeded generator so a test run is reproducible.
 */
import { mulberry32 } from '../../core/prng.js';
import type { ErrorCode } from '../../model/error-codes.js';

/** Fault settings; every field optional. `path` limits faults to requests whose path starts with it. */
export interface RestFaultSettings {
  delayMs?: number;
  dropRate?: number;
  errorRate?: number;
  errorStatus?: number;
  throttleStorm?: number;
  loseResponses?: number;
  path?: string;
  method?: string;
  seed?: number;
}

/** What to do with one request. */
export type FaultAction =
  | { kind: 'none'; delayMs: number; loseResponse: boolean }
  | { kind: 'drop'; delayMs: number }
  | { kind: 'error'; status: number; delayMs: number }
  | { kind: 'throttle'; delayMs: number };

/**
 * The error code an injected `status` answers with, so a status and its code never disagree (seed section 7):
 * 501 NOT_IMPLEMENTED, 503/502/504 SERVICE_UNAVAILABLE, 500 INTERNAL_ERROR, 429 THROTTLED, 401 UNAUTHORIZED,
 * 403 FORBIDDEN, 404 NOT_FOUND, any other 4xx BAD_REQUEST.
 *
 * @example
 * faultCode(501) // 'NOT_IMPLEMENTED'
 */
export function faultCode(status: number): ErrorCode {
  const byStatus: Record<number, ErrorCode> = { 500: 'INTERNAL_ERROR', 501: 'NOT_IMPLEMENTED', 429: 'THROTTLED', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' };
  return byStatus[status] ?? (status >= 500 ? 'SERVICE_UNAVAILABLE' : 'BAD_REQUEST');
}

/** Seeded dice for fault decisions (see src/core/prng.ts). */
export const seededRandom = mulberry32;

/** The REST server's fault state. */
export class RestFaults {
  #s: RestFaultSettings = {};
  #rand: () => number = seededRandom(1);

  /** Replace the settings (an empty object clears every fault). */
  set(settings: RestFaultSettings): void {
    this.#s = { ...settings };
    this.#rand = seededRandom(settings.seed ?? 1);
  }

  /** The current settings, with counters as they stand. */
  get(): RestFaultSettings {
    return { ...this.#s };
  }

  /** Decide the fate of one request. Control API requests are never faulted. */
  decide(method: string, path: string): FaultAction {
    const s = this.#s;
    const applies = (!s.path || path.startsWith(s.path)) && (!s.method || s.method.toUpperCase() === method.toUpperCase());
    const delayMs = applies ? (s.delayMs ?? 0) : 0;
    if (!applies) return { kind: 'none', delayMs: 0, loseResponse: false };
    if (s.throttleStorm && s.throttleStorm > 0) {
      s.throttleStorm--;
      return { kind: 'throttle', delayMs };
    }
    if (s.dropRate && this.#rand() < s.dropRate) return { kind: 'drop', delayMs };
    if (s.errorRate && this.#rand() < s.errorRate) return { kind: 'error', status: s.errorStatus ?? 503, delayMs };
    let loseResponse = false;
    if (s.loseResponses && s.loseResponses > 0) {
      s.loseResponses--;
      loseResponse = true;
    }
    return { kind: 'none', delayMs, loseResponse };
  }
}
