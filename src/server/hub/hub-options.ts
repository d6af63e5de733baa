/** The hub's settings and the shapes its callers hold (hub.ts): options, publish options, a connection handle. */
import type { Clock } from '../../core/clock.js';
import type { HubAuthGuardOptions } from './auth-guard.js';
import type { HubBackend, HubMethodError } from './hub-types.js';
import type { SlowConsumerLimits } from './slow-consumers.js';

/** Hub settings; the defaults are the service's (seed section 8). */
export interface HubOptions {
  backend: HubBackend;
  /** Time source for heartbeats and authentication expiry. Default: the system clock. */
  clock?: Clock;
  /** Heartbeat period; default 5 000 ms. */
  heartbeatIntervalMs?: number;
  /** How long an authentication lasts; default 10 minutes. */
  authLifetimeMs?: number;
  /** How long before expiry `authenticationExpiring` is sent; default 1 minute. */
  authWarningMs?: number;
  /** Accepted distance of Authenticate's timestamp from the clock; default 5 minutes. */
  timestampToleranceMs?: number;
  /** Locks after repeated Authenticate failures (see auth-guard.ts); defaults 5 free failures, 1 s doubling to 60 s. */
  authFailures?: Pick<HubAuthGuardOptions, 'freeFailures' | 'baseLockMs' | 'maxLockMs'>;
  /** Unsent bytes slow consumers may hold, per connection and in total (slow-consumers.ts). */
  buffers?: SlowConsumerLimits;
  /** Where a failure inside one connection's handling (a bug) is reported; that connection is closed. */
  onInternalError?: (err: unknown, where: string) => void;
}

/** Options of `Hub.publish`. */
export interface PublishOptions {
  /** The account the message belongs to; required on private and sub-account channels. */
  accountId?: string;
}

/** What a wire flavour holds for one open connection. */
export interface HubConnectionHandle {
  readonly id: string;
  /** Serve one hub method call. Returns its result; throws {@link HubMethodError} for a call that cannot be served. */
  invoke(method: string, args: unknown[]): unknown;
  /** The socket is gone; forget the connection. Idempotent. */
  closed(): void;
}
