/**
 * Typed errors of the hub client. The hub reports its own failures as SocketResponse `{ Success: false,
 * ErrorCode }` (seed section 7, "Stream errors"), so these keep the service's ErrorCode (`INVALID_APIKEY`,
 * `UNAUTHORIZED_USER`, ...) in `errorCode`, while `code` stays a stable rexbot code to branch on by kind.
 */
import { RexbotError } from '../../core/errors.js';
import type { ErrorCode } from '../../model/error-codes.js';

/**
 * A hub ErrorCode. Hub codes differ from the REST table (`INVALID_APIKEY`, `UNAUTHORIZED_USER` are hub-only), and
 * the service may send codes nobody listed, so any string is admitted.
 */
export type HubErrorCode = ErrorCode | 'INVALID_APIKEY' | 'UNAUTHORIZED_USER' | (string & {});

/**
 * Authenticate answered `Success: false`, or its answer was not a SocketResponse (`errorCode` then says
 * `WIRE_FORMAT`).
 *
 * @example
 * client.errors$.subscribe((e) => {
 *   if (e instanceof HubAuthError && e.errorCode === 'INVALID_APIKEY') alertOperator(e.message);
 * });
 */
export class HubAuthError extends RexbotError {
  /** The service's ErrorCode, e.g. `INVALID_APIKEY`, `INVALID_SIGNATURE`. */
  readonly errorCode: HubErrorCode;
  /** True when this was a renewal on a live connection rather than the first authentication of a connection. */
  readonly renewal: boolean;
  /** `detail`: what else is known, e.g. by how much this machine's clock is off after an INVALID_TIMESTAMP. */
  constructor(errorCode: HubErrorCode, init: { renewal: boolean; detail?: string | undefined; cause?: unknown }) {
    super('HUB_AUTH', `hub authentication ${init.renewal ? 'renewal ' : ''}failed: ${errorCode}${init.detail ? `: ${init.detail}` : ''}`, {
      cause: init.cause,
    });
    this.errorCode = errorCode;
    this.renewal = init.renewal;
  }
}

/**
 * The hub refused one channel of a Subscribe or Unsubscribe call, e.g. `UNAUTHORIZED_USER` for a private stream
 * on an unauthenticated connection. Other channels of the same call are unaffected.
 */
export class HubSubscriptionError extends RexbotError {
  /** The subscription name as sent, e.g. `order` or `orderbook_BTC-USD_25`. */
  readonly channel: string;
  /** The service's ErrorCode for this channel (`UNKNOWN` when the reply carried none). */
  readonly errorCode: HubErrorCode;
  /** Which call refused it. */
  readonly operation: 'Subscribe' | 'Unsubscribe';
  constructor(channel: string, errorCode: HubErrorCode, operation: 'Subscribe' | 'Unsubscribe') {
    super('HUB_SUBSCRIPTION', `${operation} ${channel} refused: ${errorCode}`);
    this.channel = channel;
    this.errorCode = errorCode;
    this.operation = operation;
  }
}

/**
 * A server push could not be decoded (bad base64/deflate/JSON, or a payload that does not match the stream's
 * schema). The message is dropped; the stream goes on. `cause` holds the underlying error, usually a
 * WireFormatError naming the field.
 */
export class HubMessageDecodeError extends RexbotError {
  /** The message (handler) name as sent, e.g. `orderBook`. */
  readonly messageName: string;
  constructor(messageName: string, cause: unknown) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super('HUB_DECODE', `cannot decode hub message ${messageName}: ${why}`, { cause });
    this.messageName = messageName;
  }
}

/**
 * The connection was given up: the transport closed, no heartbeat arrived in time, a call went unanswered, or a
 * renewal failed. The client reconnects by itself; this is reported on `errors$` so it can be counted and logged.
 */
export class HubConnectionLostError extends RexbotError {
  /** Why the connection was dropped (`closed`, `watchdog`, `invoke-timeout`, `auth-renewal-failed`, ...). */
  readonly reason: string;
  /** Which connection (see HubClient.connectionEpoch). */
  readonly epoch: number;
  constructor(reason: string, epoch: number, cause?: unknown) {
    const why = cause instanceof Error ? `: ${cause.message}` : '';
    super('HUB_CONNECTION_LOST', `hub connection ${epoch} lost (${reason})${why}`, { cause });
    this.reason = reason;
    this.epoch = epoch;
  }
}

/** The call needs a running client: the client was stopped (or never started) while the call waited. */
export class HubClientStoppedError extends RexbotError {
  constructor(what: string) {
    super('HUB_STOPPED', `${what}: hub client stopped`);
  }
}
