/**
 * ASP.NET Core SignalR transport, a thin wrapper over `@microsoft/signalr` (WebSockets only, JSON protocol).
 *
 * The real v3 service spoke classic SignalR, which `@microsoft/signalr` refuses; this flavour talks to rexbot's
 * simulator (its `/hub` path) and to any ASP.NET Core hub that serves the same methods and messages.
 * Automatic reconnect stays off: the hub client owns reconnect and resubscription for both flavours alike.
 */
import { HttpTransportType, HubConnectionBuilder, HubConnectionState, LogLevel } from '@microsoft/signalr';
import type { HubConnection } from '@microsoft/signalr';
import { Subject } from 'rxjs';
import { NetworkError } from '../../core/errors.js';
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  HubConnectError,
  HubInvocationError,
  hubHttpUrl,
  type HubTransport,
  type HubTransportOptions,
  type TransportEvent,
} from './transport.js';

/**
 * Every message name the v3 hub pushes (seed section 6), in the exact case it sends them. `@microsoft/signalr`
 * only delivers pushes whose target has a registered handler, so the list must be complete.
 */
export const HUB_MESSAGE_NAMES = [
  'orderBook',
  'ticker',
  'tickers',
  'trade',
  'candle',
  'marketSummary',
  'marketSummaries',
  'balance',
  'order',
  'execution',
  'conditionalOrder',
  'deposit',
  'heartbeat',
  'authenticationExpiring',
] as const;

/**
 * {@link HubTransport} over the ASP.NET Core SignalR protocol. Create it with `createHubTransport('core', …)`.
 * One instance is one connection: after it closes, make a new one.
 */
export class CoreHubTransport implements HubTransport {
  readonly #url: string;
  readonly #connectTimeoutMs: number;
  readonly #events = new Subject<TransportEvent>();
  readonly #connection: HubConnection;
  #state: 'new' | 'connecting' | 'open' | 'closed' = 'new';
  #closing = false;
  #closedPromise: Promise<void> | undefined;

  /** Hot stream of pushes and the final `closed` event; completes after `closed`. */
  readonly events$ = this.#events.asObservable();

  constructor(opts: HubTransportOptions) {
    const url = hubHttpUrl(opts.url);
    this.#url = url.toString();
    this.#connectTimeoutMs = opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    // hubName has no place on this wire: an ASP.NET Core hub is addressed by its path alone.
    this.#connection = new HubConnectionBuilder()
      .withUrl(this.#url, { transport: HttpTransportType.WebSockets })
      // Failures surface as typed errors and `closed` events; the library's console logging would only duplicate them.
      .configureLogging(LogLevel.None)
      .build();
    for (const name of HUB_MESSAGE_NAMES) {
      this.#connection.on(name, (...args: unknown[]) => {
        this.#events.next({ type: 'message', method: name, args });
      });
    }
    this.#connection.onclose((error) => this.#onClosed(error));
  }

  /** Negotiate, open the WebSocket and complete the JSON protocol handshake. */
  async connect(): Promise<void> {
    if (this.#state !== 'new') throw new HubConnectError(`cannot connect a transport that is ${this.#state}`);
    this.#state = 'connecting';
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${this.#connectTimeoutMs} ms`)), this.#connectTimeoutMs);
    });
    try {
      await Promise.race([this.#connection.start(), timeout]);
      if (this.#state !== 'connecting') throw new Error('closed while connecting');
      this.#state = 'open';
    } catch (err) {
      this.#state = 'closed';
      this.#events.complete();
      await this.#connection.stop().catch(() => undefined);
      throw new HubConnectError(`core hub connect to ${this.#url} failed: ${(err as Error).message}`, { cause: err });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Invoke a hub method and wait for its Completion. */
  async invoke(method: string, ...args: unknown[]): Promise<unknown> {
    if (this.#state !== 'open' || this.#connection.state !== HubConnectionState.Connected) {
      throw new HubInvocationError(method, 'not connected');
    }
    try {
      return await this.#connection.invoke(method, ...args);
    } catch (err) {
      // The library rejects pending calls with the close error when the socket goes; by then its state has
      // already left Connected, which is how a lost reply is told apart from an error the server sent.
      if (this.#closing || this.#connection.state !== HubConnectionState.Connected) {
        throw new HubInvocationError(method, 'connection closed before the reply', { cause: err });
      }
      const message = (err as Error).message;
      throw new HubInvocationError(method, message, { serverError: message, cause: err });
    }
  }

  /** Stop the connection; resolves once closed. Idempotent. */
  close(): Promise<void> {
    if (this.#closedPromise) return this.#closedPromise;
    this.#closing = true;
    if (this.#state !== 'open') {
      this.#finish(undefined);
      this.#closedPromise = this.#connection.stop().catch(() => undefined);
      return this.#closedPromise;
    }
    this.#closedPromise = this.#connection.stop().then(
      () => this.#finish(undefined),
      () => this.#finish(undefined),
    );
    return this.#closedPromise;
  }

  #onClosed(error: Error | undefined): void {
    if (this.#state !== 'open') return;
    if (this.#closing) return this.#finish(undefined);
    const reason = error?.message ?? 'the server closed the connection';
    this.#finish(new NetworkError(`hub connection lost: ${reason}`, { mayHaveReachedServer: true, cause: error }));
  }

  #finish(error: Error | undefined): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#events.next(error ? { type: 'closed', error } : { type: 'closed' });
    this.#events.complete();
  }
}
