/**
 * rexbot's v1.1 hub client: one classic SignalR connection to hub `c2` (seed 001, sections 4-6), its seven
 * methods, and its five callbacks decoded (base64 + raw deflate, minified keys expanded, exact decimals).
 *
 * One client is one connection, because v1.1 nonces belong to a connection: state built from one connection's
 * messages means nothing on another. Reconnecting and resynchronizing is {@link V1BookSync}'s business, which
 * makes a fresh client each time, as the seed's procedure says ("drop the connection and clear state").
 *
 * c2 has no heartbeat stream, but a classic SignalR server sends a `{}` keep-alive at least every KeepAliveTimeout/3
 * (WIRE.md). So any frame counts as a sign of life, and a connection silent for {@link V1HubClientOptions.silenceTimeoutMs}
 * is closed, its `closed` event saying why: a half-open TCP connection otherwise stays "up" for good, and a bot
 * trades on a book that no longer moves (found by an attack pass). The owner reconnects as after any loss.
 */
import { Subject, type Observable } from 'rxjs';
import { hmacSha512Hex } from '../../rest/auth.js';
import { systemClock, type Clock } from '../../../core/clock.js';
import { RexbotError } from '../../../core/errors.js';
import { HeartbeatWatchdog } from '../../hub/heartbeat-watchdog.js';
import { createHubTransport, HubInvocationError, type HubTransport } from '../../hub/transport.js';
import { V1_CALLBACKS, type V1Callback, type V1Messages, type V1ExchangeState, type V1SummaryState } from '../../../wire/v1/hub/messages.js';
import { decodeV1Payload, V1_HUB_NAME } from '../../../wire/v1/hub/protocol.js';

/** A decoded callback. */
export type V1HubMessage = { [K in V1Callback]: { name: K; data: V1Messages[K] } }[V1Callback];

/** What the client reports: callbacks, undecodable pushes (the connection stays up), and its end. */
export type V1HubEvent =
  | { type: 'message'; message: V1HubMessage }
  | { type: 'bad-message'; method: string; error: Error }
  | { type: 'closed'; error?: Error };

/** API key and secret for GetAuthContext / Authenticate. */
export interface V1HubCredentials {
  apiKey: string;
  apiSecret: string;
}

/** Where and how to connect. */
export interface V1HubClientOptions {
  /** Classic SignalR base URL, e.g. `http://127.0.0.1:8080/signalr` (the original: `https://socket.bittrex.com/signalr`). */
  url: string;
  credentials?: V1HubCredentials;
  connectTimeoutMs?: number;
  /**
   * How long a call may go unanswered; then it fails and the connection is dropped (its owner reconnects), as
   * the v3 hub client does. Default 15 000 ms. Without it a server that never answered held a v1.1 bot's start
   * forever, saying nothing (found by an attack pass).
   */
  invokeTimeoutMs?: number;
  /**
   * A connection that delivers nothing, not even a keep-alive, for this long is closed (its owner reconnects);
   * default 20 000 ms, the KeepAliveTimeout classic servers announce (three keep-alive intervals), after which the
   * classic SignalR client gives a connection up too.
   */
  silenceTimeoutMs?: number;
  /** Time source of the call and silence timers; default the system clock. */
  clock?: Clock;
  /** Test seam: the transport to use instead of a classic one to `url`. */
  transport?: HubTransport;
}

/** Authenticate answered false: wrong key or secret, or the challenge was not this connection's. */
export class V1HubAuthError extends RexbotError {
  constructor(message: string) {
    super('HUB_AUTH', message);
  }
}

/** Default of {@link V1HubClientOptions.silenceTimeoutMs}. */
export const DEFAULT_V1_SILENCE_TIMEOUT_MS = 20_000;

const CALLBACKS = new Map<string, V1Callback>(V1_CALLBACKS.map((c) => [c.toLowerCase(), c]));

/**
 * A connection to the v1.1 hub.
 *
 * @example
 * const c = new V1HubClient({ url: 'http://127.0.0.1:8080/signalr', credentials });
 * c.events$.subscribe((e) => e.type === 'message' && e.message.name === 'uE' && console.log(e.message.data.Nonce));
 * await c.connect();
 * await c.subscribeToExchangeDeltas('USD-BTC');
 * const state = await c.queryExchangeState('USD-BTC'); // { MarketName, Nonce, Buys, Sells, Fills }
 */
export class V1HubClient {
  readonly #transport: HubTransport;
  readonly #credentials: V1HubCredentials | undefined;
  readonly #invokeTimeoutMs: number;
  readonly #clock: Clock;
  readonly #watchdog: HeartbeatWatchdog;
  /** Why this client closed the connection itself (the transport's `closed` then carries no error). */
  #closedBecause: Error | undefined;
  readonly #events = new Subject<V1HubEvent>();
  /** Callbacks and the end of the connection. Hot; completes after `closed`. */
  readonly events$: Observable<V1HubEvent> = this.#events.asObservable();

  constructor(opts: V1HubClientOptions) {
    this.#credentials = opts.credentials;
    this.#invokeTimeoutMs = opts.invokeTimeoutMs ?? 15_000;
    this.#clock = opts.clock ?? systemClock;
    const silenceMs = opts.silenceTimeoutMs ?? DEFAULT_V1_SILENCE_TIMEOUT_MS;
    if (!(silenceMs > 0 && Number.isFinite(silenceMs))) {
      throw new RangeError(`V1HubClient: silenceTimeoutMs must be a finite number of ms > 0, got ${silenceMs}`);
    }
    this.#watchdog = new HeartbeatWatchdog(this.#clock, silenceMs, (silent) =>
      this.#drop(new RexbotError('HUB_SILENT', `no frame from the v1.1 hub for ${silent} ms (not even a keep-alive); the connection is dropped`)),
    );    this.#transport =
      opts.transport ??
      createHubTransport('classic', {
        url: opts.url,
        hubName: V1_HUB_NAME,
        ...(opts.connectTimeoutMs !== undefined ? { connectTimeoutMs: opts.connectTimeoutMs } : {}),
      });
    this.#transport.events$.subscribe((e) => {
      if (e.type === 'closed') {
        this.#watchdog.stop();
        const error = e.error ?? this.#closedBecause;
        this.#events.next(error ? { type: 'closed', error } : { type: 'closed' });
        this.#events.complete();
        return;
      }
      this.#watchdog.touch();
      if (e.type === 'keepAlive') return;
      const name = CALLBACKS.get(e.method.toLowerCase());
      if (name === undefined) return; // Another hub's or a future callback: nothing registered for it.
      try {
        const data = decodeV1Payload(name, e.args[0]);
        this.#events.next({ type: 'message', message: { name, data } as V1HubMessage });
      } catch (error) {
        this.#events.next({ type: 'bad-message', method: e.method, error: error as Error });
      }
    });
  }

  /** Close the connection because of `error`, which its `closed` event then carries. */
  #drop(error: Error): void {
    this.#closedBecause ??= error;
    this.#watchdog.stop();
    void this.#transport.close();
  }

  /** A call that fails, and drops the connection, when not answered within the invoke timeout. */
  #invoke(method: string, ...args: unknown[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = this.#clock.setTimeout(() => {
        const error = new HubInvocationError(method, `no answer within ${this.#invokeTimeoutMs} ms; the connection is dropped`);
        reject(error);
        this.#drop(error);
      }, this.#invokeTimeoutMs);
      this.#transport.invoke(method, ...args).then(
        (v) => {
          timer.cancel();
          resolve(v);
        },
        (err: unknown) => {
          timer.cancel();
          reject(err);
        },
      );
    });
  }

  /** Negotiate, connect and start; with credentials, authenticate too. */
  async connect(): Promise<void> {
    await this.#transport.connect();
    // From the open socket on: a server that goes quiet during authentication is as dead as one that does later.
    this.#watchdog.start();
    if (this.#credentials) await this.authenticate();
  }

  /**
   * GetAuthContext(apiKey) → challenge; Authenticate(apiKey, hex HMAC-SHA512(secret, challenge)). After it, uO and
   * uB arrive for the key's account. Rejects with {@link V1HubAuthError} when the server answers false.
   */
  async authenticate(credentials: V1HubCredentials | undefined = this.#credentials): Promise<void> {
    if (!credentials) throw new V1HubAuthError('authenticate: no credentials given');
    const challenge = await this.#invoke('GetAuthContext', credentials.apiKey);
    if (typeof challenge !== 'string' || challenge === '') {
      throw new V1HubAuthError(`GetAuthContext answered ${JSON.stringify(challenge)?.slice(0, 80)} instead of a challenge`);
    }
    const ok = await this.#invoke('Authenticate', credentials.apiKey, hmacSha512Hex(credentials.apiSecret, challenge));
    if (ok !== true) throw new V1HubAuthError('Authenticate answered false: check the API key and secret');
  }

  /** The whole book of `market` (v1.1 name, `USD-BTC`) and its recent fills, at the returned Nonce. */
  async queryExchangeState(market: string): Promise<V1ExchangeState> {
    return decodeV1Payload('QueryExchangeState', await this.#invoke('QueryExchangeState', market));
  }

  /** Every market's summary. */
  async querySummaryState(): Promise<V1SummaryState> {
    return decodeV1Payload('QuerySummaryState', await this.#invoke('QuerySummaryState'));
  }

  /** Ask for uE of `market`; resolves with the server's answer (false: no such market). */
  async subscribeToExchangeDeltas(market: string): Promise<boolean> {
    return (await this.#invoke('SubscribeToExchangeDeltas', market)) === true;
  }

  /** Ask for uS. */
  async subscribeToSummaryDeltas(): Promise<boolean> {
    return (await this.#invoke('SubscribeToSummaryDeltas')) === true;
  }

  /** Ask for uL. */
  async subscribeToSummaryLiteDeltas(): Promise<boolean> {
    return (await this.#invoke('SubscribeToSummaryLiteDeltas')) === true;
  }

  /** Close the connection; idempotent. */
  close(): Promise<void> {
    this.#watchdog.stop();
    return this.#transport.close();
  }
}
