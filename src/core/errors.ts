/**
 * Typed errors with stable codes. Exchange errors keep the HTTP status and the service's `code`; transport
 * failures say whether the request may have reached the server, which decides whether an order must be treated
 * as ambiguous (look it up by clientOrderId) rather than simply failed.
 */
import type { ErrorCode } from '../model/error-codes.js';

/** Base class of every error rexbot throws on purpose. `code` is stable and safe to branch on. */
export class RexbotError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** Which request an error belongs to, e.g. `POST /v3/orders`. */
export interface RequestRef {
  method: string;
  path: string;
}

/**
 * The exchange answered with an error status. `code` is the service's error code (`INSUFFICIENT_FUNDS`, ...),
 * or `HTTP_<status>` when the body carried none.
 */
export class ApiError extends RexbotError {
  override readonly code: ErrorCode | `HTTP_${number}` | (string & {});
  readonly status: number;
  readonly detail: string | undefined;
  readonly data: Record<string, unknown> | undefined;
  readonly request: RequestRef | undefined;
  /** `Retry-After` in milliseconds when the server sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(init: {
    status: number;
    code: string;
    detail?: string | undefined;
    data?: Record<string, unknown> | undefined;
    request?: RequestRef | undefined;
    retryAfterMs?: number | undefined;
  }) {
    const where = init.request ? ` (${init.request.method} ${init.request.path})` : '';
    super(init.code, `${init.status} ${init.code}${init.detail ? `: ${init.detail}` : ''}${where}`);
    this.code = init.code;
    this.status = init.status;
    this.detail = init.detail;
    this.data = init.data;
    this.request = init.request;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * The request failed below HTTP (connection refused, reset, TLS, DNS). `mayHaveReachedServer` is false only when
 * the failure certainly happened before any byte of the request was sent (e.g. connection refused).
 */
export class NetworkError extends RexbotError {
  readonly mayHaveReachedServer: boolean;
  readonly request: RequestRef | undefined;
  constructor(message: string, init: { mayHaveReachedServer: boolean; request?: RequestRef; cause?: unknown }) {
    super('NETWORK_ERROR', message, { cause: init.cause });
    this.mayHaveReachedServer = init.mayHaveReachedServer;
    this.request = init.request;
  }
}

/** No response within the timeout. The request may have been processed: treat placements as ambiguous. */
export class TimeoutError extends RexbotError {
  readonly mayHaveReachedServer = true;
  readonly request: RequestRef | undefined;
  readonly timeoutMs: number;
  constructor(message: string, init: { timeoutMs: number; request?: RequestRef; cause?: unknown }) {
    super('TIMEOUT', message, { cause: init.cause });
    this.timeoutMs = init.timeoutMs;
    this.request = init.request;
  }
}

/**
 * What is wrong with a wire value, told apart from the value: `reason` quotes nothing received, `text` is what the
 * message says, value and all. Giving one (rather than a plain text) also says the error's `path` names fields and
 * indexes only, never a key or value received, so {@link WireFormatError.messageWithoutValue} can tell both.
 */
export interface WireProblem {
  /** What is wrong in rexbot's words, quoting nothing received: `is not a decimal`. */
  reason: string;
  /** The problem as the message tells it, quoting the value (`is not a decimal: "abc"`); `reason` when absent. */
  text?: string | undefined;
}

/**
 * A wire value did not match the model: a missing required field, wrong type, NaN, unknown enum value.
 * `path` names the field (`[3].quantity`), `where` the endpoint or stream it came from.
 */
export class WireFormatError extends RexbotError {
  readonly path: string;
  readonly where: string;
  /**
   * The problem quoting nothing received (`is not a decimal`), when the thrower gave it apart from the value (a
   * {@link WireProblem}); undefined when it gave one text, which may quote the value (and a path built from keys
   * received).
   */
  readonly reason: string | undefined;

  constructor(where: string, path: string, problem: string | WireProblem) {
    const text = typeof problem === 'string' ? problem : (problem.text ?? problem.reason);
    super('WIRE_FORMAT', `${where}: ${path || '<root>'} ${text}`);
    this.where = where;
    this.path = path;
    this.reason = typeof problem === 'string' ? undefined : problem.reason;
    // Keep the plain message (no code prefix) so it reads as one sentence.
  }

  /**
   * The error told without anything received, for whoever may not see the data (a queued backtest job's author):
   * `<resource>: <path> <reason>`, or `<resource>: cannot be read` when the reason was not given apart. `resource`
   * names what was decoded in the caller's words, because `where` may quote what was received (a recorded URL).
   *
   * @example
   * new WireFormatError('GET /v3/markets/BTC-USD/orderbook', 'bid[3].quantity', { reason: 'is negative', text: 'is negative: -1' })
   *   .messageWithoutValue('orderBook snapshot')
   * // orderBook snapshot: bid[3].quantity is negative
   */
  messageWithoutValue(resource: string): string {
    return this.reason === undefined ? `${resource}: cannot be read` : `${resource}: ${this.path || '<root>'} ${this.reason}`;
  }
}

/**
 * A request failed before any of it left this process (its body could not be encoded, it could not be signed).
 * Unlike a {@link NetworkError} or {@link TimeoutError} it can never have reached the server: not ambiguous.
 */
export class RequestNotSentError extends RexbotError {
  readonly mayHaveReachedServer = false;
  readonly request: RequestRef;
  constructor(request: RequestRef, cause: unknown) {
    super('NOT_SENT', `${request.method} ${request.path}: not sent: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.request = request;
  }
}

/** A request was refused before it was sent because it breaks a rule the service states (pageSize, depth, ...). */
export class ValidationError extends RexbotError {
  readonly field: string;
  constructor(field: string, message: string) {
    super('VALIDATION', `${field}: ${message}`);
    this.field = field;
  }
}
