import type { SlowConsumers } from './slow-consumers.js';
import type { Clock } from '../../core/clock.js';
import type { HubConnectionHandle } from './hub-options.js';

/**
 * The hub server's ports: what it needs from the exchange (a {@link HubBackend}) and what it needs from a wire
 * flavour (a {@link HubSink} per connection). The hub itself knows neither the engine nor the sockets.
 */

/** What the hub asks of the exchange engine. */
export interface HubBackend {
  /** Look up an API key: its secret and the account it acts for (master), or undefined. */
  findKey(apiKey: string): { secret: string; accountId: string } | undefined;
  /** Sub-account ids managed by a master account (for subaccounts_* streams). */
  subaccountsOf(accountId: string): string[];
  /**
   * Optional: whether a market exists. When given, subscribing to a per-market channel of an unknown market
   * answers `MARKET_DOES_NOT_EXIST` instead of succeeding and never delivering anything.
   */
  marketExists?(marketSymbol: string): boolean;
  /**
   * Optional, preferred over {@link HubBackend.marketExists}: why a per-market channel's market cannot be
   * subscribed to, as REST would answer for it (`MARKET_DOES_NOT_EXIST`, `MARKET_NAME_REVERSED` for a symbol in
   * quote-base order), or undefined when it is listed.
   */
  marketError?(marketSymbol: string): string | undefined;
}

/**
 * A hub the classic endpoint can serve connections of: v3's {@link Hub} (`c3`) and the v1.1 hub (`c2`).
 * The endpoint moves frames; the service answers invocations and pushes through the sink.
 */
export interface ClassicHubService {
  /** Clock of the endpoint's keep-alives. */
  readonly clock: Clock;
  /** Caps on slow consumers' send buffers; the endpoint takes the v3 hub's for every connection it serves. */
  readonly slowConsumers?: SlowConsumers;
  /** Where a failure inside one connection is reported (that connection is closed, the process goes on). */
  readonly reportInternalError?: (err: unknown, where: string) => void;
  open(id: string, flavour: HubFlavour, sink: HubSink): HubConnectionHandle;
}

/** The two wire flavours a connection can speak. */
export type HubFlavour = 'classic' | 'core';

/** One connection as a wire flavour drives it. */
export interface HubSink {
  /**
   * Deliver one push. `argsJson` is the JSON text of the arguments array (`["<base64>"]`, or `[]` for heartbeat),
   * serialised once by the hub for every recipient, so a flavour only splices it into its frame.
   */
  push(target: string, argsJson: string): void;
  /** Drop the socket at once, without a closing handshake (fault injection, shutdown). */
  terminate(): void;
}

/** What {@link Hub.connections} reports about one connection. */
export interface HubConnectionInfo {
  id: string;
  flavour: HubFlavour;
  /** The account the connection authenticated as, while the authentication lasts. */
  accountId: string | undefined;
  /** When the authentication expires (clock epoch ms). */
  authExpiresAt: number | undefined;
  /** Canonical channel names, in subscription order. */
  subscriptions: string[];
}

/** A SocketResponse (seed section 2): `ErrorCode` is null on success. */
export interface SocketResponse {
  Success: boolean;
  ErrorCode: string | null;
}

/**
 * A hub method call that cannot be served (unknown method, wrong arguments). Its message goes back to the client
 * as the invocation's error (`E` in classic frames, `error` in a Core Completion); the connection stays open.
 */
export class HubMethodError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HubMethodError';
  }
}
