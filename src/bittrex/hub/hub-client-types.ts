/** Public types of the hub client: options, status, lifecycle events, messages and the client interface. */
import type { Observable } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import type { Credentials } from '../rest/auth.js';
import type { HubVenueTime } from './hub-auth.js';
import type { StreamMessageData, StreamMessageName } from './messages.js';
import type { ReconnectOptions, RandomSource } from './reconnect-policy.js';
import type { SubscriptionResult } from './hub-subscriptions.js';
import type { HubTransport } from './transport.js';

/** The part of a pino logger the client uses, so any pino (or compatible) logger can be passed. */
export interface HubLogger {
  debug(obj: Record<string, unknown>, msg: string): void;
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
}

/** Options of {@link createHubClient}. */
export interface HubClientOptions {
  /** Makes a fresh transport for every connection attempt (a closed transport is never reused). */
  transport: () => HubTransport;
  /** When given, every connection authenticates before subscribing, and private streams become available. */
  credentials?: Credentials | undefined;
  /** Time source for every timer of the client; default the system clock. */
  clock?: Clock | undefined;
  /** Reconnect after this many heartbeat intervals (5 s each) without any message; default 3. */
  watchdogMultiple?: number | undefined;
  /** Backoff between reconnect attempts, and how long a connection must stay up to reset it; defaults in DEFAULT_RECONNECT. */
  reconnect?: Partial<ReconnectOptions> | undefined;
  /** Random source for backoff jitter; default Math.random. */
  random?: RandomSource | undefined;
  /** A hub call (Authenticate, Subscribe, ...) unanswered for this long drops the connection; default 15 000 ms. */
  invokeTimeoutMs?: number | undefined;
  /** Opening a connection taking longer than this counts as a failed attempt; default 20 000 ms. */
  connectTimeoutMs?: number | undefined;
  /** Renew authentication this long after the last success even without `authenticationExpiring`; default 9 min. */
  authRenewAfterMs?: number | undefined;
  /** Makes the `randomContent` uuid of Authenticate; default crypto.randomUUID. */
  randomContent?: (() => string) | undefined;
  /** Where connection events are logged; default silent. */
  logger?: HubLogger | undefined;
  /**
   * Sign Authenticate with the venue's time (shared with the REST client of the same gateway) rather than `clock`'s,
   * measuring it on an INVALID_TIMESTAMP refusal. Default: `clock`'s time, refusals reported as they come.
   */
  venueTime?: HubVenueTime | undefined;
}

/**
 * Where the client stands. `connected` means the transport is open; `authenticated` that Authenticate succeeded
 * on it (only with credentials). Subscriptions are (re)made right after.
 */
export type HubStatus =
  | { state: 'stopped' }
  | { state: 'connecting' }
  | { state: 'connected'; epoch: number }
  | { state: 'authenticated'; epoch: number }
  | { state: 'reconnecting'; attempt: number; reason: string };

/**
 * What a synchronizer needs to know about the connection. After `reconnected` every stream may have missed
 * messages, and after `resubscribed` the listed private streams did: resync them from a snapshot (seed rule 4).
 */
export type HubLifecycleEvent =
  | { type: 'connected'; epoch: number; at: number }
  | { type: 'reconnected'; epoch: number; attempts: number; reason: string; at: number }
  | { type: 'authenticated'; epoch: number; renewal: boolean; at: number }
  | { type: 'resubscribed'; epoch: number; channels: string[]; reason: 'auth-lapsed'; at: number };

/**
 * One decoded stream message. `channel` is the subscription it came from when the payload tells (see
 * `channelOf`); `epoch` the connection it arrived on, so a consumer can drop state on a change even without
 * watching `lifecycle$`. Narrow on `name` to get the typed `message`.
 */
export type HubMessage<N extends StreamMessageName = StreamMessageName> = {
  [K in N]: {
    name: K;
    channel: string | undefined;
    message: StreamMessageData<K>;
    /** Clock time of arrival, epoch ms. */
    receivedAt: number;
    epoch: number;
  };
}[N];

/** Counters for metrics. */
export interface HubClientStats {
  /** The current connection's epoch (0 before the first connection). */
  connectionEpoch: number;
  /** Successful reconnections since creation. */
  reconnects: number;
  /** Successful Authenticate calls (first authentications and renewals). */
  authentications: number;
  /** Messages emitted on messages$. */
  messages: number;
  /** Messages dropped because they could not be decoded. */
  decodeErrors: number;
}

/**
 * A self-healing connection to the v3 hub: authenticates and renews, keeps subscriptions across reconnects,
 * watches heartbeats, and decodes every message.
 */
export interface HubClient {
  /**
   * Connect, authenticate (with credentials) and subscribe the remembered channels. Rejects, leaving the client
   * stopped, when this first connection fails; after that, the client reconnects by itself until {@link stop}.
   * Calling it while running returns the same promise.
   */
  start(): Promise<void>;
  /** Close the connection and cancel every timer and pending reconnect. The client may be started again. */
  stop(): Promise<void>;
  /**
   * Subscribe channels and remember them for every later connection. Resolves with one result per channel once
   * they are subscribed on a connection (waiting for one if none is up). A refused channel is forgotten and its
   * HubSubscriptionError is also emitted on {@link errors$}.
   */
  subscribe(channels: readonly string[]): Promise<SubscriptionResult[]>;
  /** Forget channels and unsubscribe them on the current connection, if any. `heartbeat` stays on the wire. */
  unsubscribe(channels: readonly string[]): Promise<SubscriptionResult[]>;
  /** The channels remembered for resubscription (without the internal heartbeat unless asked for). */
  readonly channels: readonly string[];
  /** Every decoded message. Hot: subscribe before start() to see the first ones. */
  readonly messages$: Observable<HubMessage>;
  /** Messages of one stream, e.g. `client.stream('orderBook')`. */
  stream<N extends StreamMessageName>(name: N): Observable<HubMessage<N>>;
  /** Typed errors: HubAuthError, HubSubscriptionError, HubMessageDecodeError, HubConnectionLostError, ... */
  readonly errors$: Observable<Error>;
  /** Current status, replayed to new subscribers. */
  readonly status$: Observable<HubStatus>;
  /** Connection lifecycle for synchronizers. */
  readonly lifecycle$: Observable<HubLifecycleEvent>;
  /** The `reconnected` events of {@link lifecycle$}. */
  readonly reconnects$: Observable<Extract<HubLifecycleEvent, { type: 'reconnected' }>>;
  /** Increments on every new connection; a change means every stream must resync. */
  readonly connectionEpoch: number;
  /** Counters for metrics. */
  readonly stats: Readonly<HubClientStats>;
}
