/**
 * The v3 hub client: one long-lived, self-healing stream connection over a {@link HubTransport}.
 *
 * Per connection: connect → Authenticate (with credentials) → Subscribe(heartbeat + remembered channels).
 * Authentication is renewed on `authenticationExpiring` and, in case that message is lost, 9 minutes after the
 * last success; when it had lapsed anyway, the private streams the server cancelled are subscribed again
 * (hub-auth-renewal.ts).
 * Silence for `watchdogMultiple` heartbeat intervals, a closed transport, an unanswered call or a failed renewal
 * drop the connection, and a fresh transport is tried with capped exponential backoff. All timers run on the
 * injected Clock.
 */
import { BehaviorSubject, Subject, filter, type Observable } from 'rxjs';
import { type Clock, systemClock } from '../../core/clock.js';
import { RexbotError } from '../../core/errors.js';
import { HEARTBEAT_INTERVAL_MS, HeartbeatWatchdog } from './heartbeat-watchdog.js';
import { HubAuthRenewal } from './hub-auth-renewal.js';
import type {
  HubClient, HubClientOptions, HubClientStats, HubLifecycleEvent, HubLogger, HubMessage, HubStatus,
} from './hub-client-types.js';
import { HubClientStoppedError, HubConnectionLostError, HubMessageDecodeError } from './hub-errors.js';
import {
  channelOf, HEARTBEAT_CHANNEL, normalizeChannels, readSubscriptionReply, SubscribeWaiters, type SubscriptionResult,
} from './hub-subscriptions.js';
import { decodeStreamMessage, streamMessageName, type StreamMessage, type StreamMessageName } from './messages.js';
import { HubConnection } from './hub-connection.js';
import { BackoffSleep, reconnectLoop } from './reconnect-loop.js';
import { ReconnectPolicy } from './reconnect-policy.js';
import { decodeStreamPayload } from './stream-payload.js';
import type { TransportEvent } from './transport.js';

export type * from './hub-client-types.js';
export type { SubscriptionResult } from './hub-subscriptions.js';

const DEFAULT_INVOKE_TIMEOUT_MS = 15_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 20_000;
const SILENT: HubLogger = { debug() {}, info() {}, warn() {} };

/**
 * Create a hub client. Nothing happens on the wire until {@link HubClient.start}.
 *
 * @example
 * const client = createHubClient({
 *   transport: () => createHubTransport('classic', { url: 'http://127.0.0.1:8080/signalr' }),
 *   credentials: { apiKey, apiSecret },
 * });
 * client.stream('orderBook').subscribe(({ message }) => book.apply(message));
 * client.reconnects$.subscribe(() => book.resync());
 * await client.start();
 * const results = await client.subscribe(['orderbook_BTC-USD_25', 'order']);
 * for (const r of results) if (!r.success) console.error(r.error.errorCode); // e.g. UNAUTHORIZED_USER
 */
export function createHubClient(opts: HubClientOptions): HubClient {
  return new HubClientImpl(opts);
}

class HubClientImpl implements HubClient {
  readonly #opts: HubClientOptions;
  readonly #clock: Clock;
  readonly #log: HubLogger;
  readonly #policy: ReconnectPolicy;
  readonly #watchdogMs: number;
  readonly #messages = new Subject<HubMessage>();
  readonly #errors = new Subject<Error>();
  readonly #status = new BehaviorSubject<HubStatus>({ state: 'stopped' });
  readonly #lifecycle = new Subject<HubLifecycleEvent>();
  /** Channels to (re)subscribe on every connection, in the order first asked for. */
  readonly #wanted = new Set<string>();
  readonly #waiters = new SubscribeWaiters();
  #conn: HubConnection | undefined;
  #running = false;
  /** Bumped by start() and stop() so async work of an earlier run recognises it is obsolete. */
  #run = 0;
  #startPromise: Promise<void> | undefined;
  #reconnecting = false;
  readonly #backoff: BackoffSleep;
  readonly #auth: HubAuthRenewal;
  readonly #stats: HubClientStats = { connectionEpoch: 0, reconnects: 0, authentications: 0, messages: 0, decodeErrors: 0 };

  readonly messages$: Observable<HubMessage> = this.#messages.asObservable();
  readonly errors$: Observable<Error> = this.#errors.asObservable();
  readonly status$: Observable<HubStatus> = this.#status.asObservable();
  readonly lifecycle$: Observable<HubLifecycleEvent> = this.#lifecycle.asObservable();
  readonly reconnects$ = this.lifecycle$.pipe(
    filter((e): e is Extract<HubLifecycleEvent, { type: 'reconnected' }> => e.type === 'reconnected'),
  );

  constructor(opts: HubClientOptions) {
    this.#opts = opts;
    this.#clock = opts.clock ?? systemClock;
    this.#log = opts.logger ?? SILENT;
    this.#policy = new ReconnectPolicy(opts.reconnect, opts.random);
    this.#backoff = new BackoffSleep(this.#clock);
    const multiple = opts.watchdogMultiple ?? 3;
    if (!(multiple > 0)) throw new RangeError('watchdogMultiple must be > 0');
    this.#watchdogMs = multiple * HEARTBEAT_INTERVAL_MS;
    this.#auth = new HubAuthRenewal(opts, this.#clock, this.#log, {
      invoke: (conn, method, ...args) => this.#invoke(conn, method, ...args),
      subscribeOn: (conn, channels) => this.#subscribeOn(conn, channels),
      settle: (results) => this.#settle(results),
      wanted: () => this.#wanted,
      authenticated: (event) => {
        this.#stats.authentications++;
        this.#lifecycle.next(event);
      },
      resubscribed: (event) => this.#lifecycle.next(event),
      publish: (message) => this.#messages.next(message),
      error: (e) => this.#errors.next(e),
      drop: (conn, reason, cause) => this.#drop(conn, reason, cause),
    });
  }

  get connectionEpoch(): number {
    return this.#stats.connectionEpoch;
  }

  get stats(): Readonly<HubClientStats> {
    return { ...this.#stats };
  }

  get channels(): readonly string[] {
    return [...this.#wanted];
  }

  stream<N extends StreamMessageName>(name: N): Observable<HubMessage<N>> {
    // The mapped HubMessage type narrows per name, but TypeScript cannot relate it to a generic N.
    return this.messages$.pipe(filter((m) => m.name === name)) as Observable<HubMessage<N>>;
  }

  start(): Promise<void> {
    if (this.#running && this.#startPromise) return this.#startPromise;
    this.#running = true;
    this.#policy.reset(); // a fresh start owes nothing to the outages of an earlier run
    const run = ++this.#run;
    this.#setStatus({ state: 'connecting' });
    this.#startPromise = (async () => {
      try {
        await this.#establish(run, { type: 'connected' });
      } catch (e) {
        if (run !== this.#run) throw new HubClientStoppedError('start');
        // A first connection that fails is a configuration problem as often as an outage: report it to the
        // caller instead of retrying forever in the background.
        await this.stop();
        throw e;
      }
      if (run !== this.#run) throw new HubClientStoppedError('start');
    })();
    return this.#startPromise;
  }

  async stop(): Promise<void> {
    this.#run++;
    this.#running = false;
    this.#startPromise = undefined;
    this.#reconnecting = false;
    this.#backoff.interrupt();
    this.#waiters.rejectAll(new HubClientStoppedError('subscribe'));
    const conn = this.#conn;
    if (conn) await this.#drop(conn, 'stopped');
    if (this.#status.value.state !== 'stopped') this.#setStatus({ state: 'stopped' });
  }

  async subscribe(channels: readonly string[]): Promise<SubscriptionResult[]> {
    const list = normalizeChannels(channels);
    for (const c of list) this.#wanted.add(c);
    const conn = this.#conn;
    if (conn?.ready && list.length > 0) {
      try {
        const results = await this.#subscribeOn(conn, list);
        return this.#settle(results);
      } catch (e) {
        // The connection died under the call: the next one subscribes every wanted channel, answer from that.
        if (!conn.isLost) throw e;
      }
    }
    if (list.length === 0) return [];
    return this.#waiters.wait(list);
  }

  async unsubscribe(channels: readonly string[]): Promise<SubscriptionResult[]> {
    const list = normalizeChannels(channels);
    for (const c of list) this.#wanted.delete(c);
    // The watchdog lives on heartbeat, so it never leaves the wire; the caller only stops asking for it.
    const onWire = list.filter((c) => c !== HEARTBEAT_CHANNEL);
    const conn = this.#conn;
    const byChannel = new Map<string, SubscriptionResult>();
    if (conn?.ready && onWire.length > 0) {
      try {
        const reply = await this.#invoke(conn, 'Unsubscribe', onWire);
        for (const r of readSubscriptionReply('Unsubscribe', onWire, reply)) {
          byChannel.set(r.channel, r);
          if (!r.success) this.#errors.next(r.error);
        }
      } catch (e) {
        // Without a connection nothing is subscribed, and the next connection will not ask for these.
        if (!conn.isLost) throw e;
      }
    }
    return list.map((channel) => byChannel.get(channel) ?? { channel, success: true });
  }

  // ---- connection lifecycle ------------------------------------------------------------------------------

  /** Open one connection up to ready, or throw (the connection then already dropped). */
  async #establish(
    run: number,
    done: { type: 'connected' } | { type: 'reconnected'; attempts: number; reason: string },
  ): Promise<void> {
    const conn: HubConnection = new HubConnection(this.#opts.transport(), this.#clock, (what, e) =>
      // A server that stops answering is as good as gone; a fresh connection is the only cure.
      void this.#drop(conn, `${what}-timeout`, e),
    );
    this.#conn = conn;
    conn.listen((ev) => this.#onEvent(conn, ev));
    try {
      await conn.guard(conn.transport.connect(), this.#opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, 'connect');
      conn.epoch = ++this.#stats.connectionEpoch;
      conn.watchdog = new HeartbeatWatchdog(this.#clock, this.#watchdogMs, (silent) =>
        void this.#drop(conn, 'watchdog', new RexbotError('HUB_SILENT', `no hub message for ${silent} ms`)),
      );
      conn.watchdog.start();
      this.#setStatus({ state: 'connected', epoch: conn.epoch });
      if (this.#opts.credentials) {
        await this.#auth.authenticate(conn, false);
        this.#setStatus({ state: 'authenticated', epoch: conn.epoch });
      }
      const channels = [HEARTBEAT_CHANNEL, ...[...this.#wanted].filter((c) => c !== HEARTBEAT_CHANNEL)];
      const results = await this.#subscribeOn(conn, channels);
      this.#settle(results);
      await this.#serveWaiters(conn, results);
      if (conn.isLost) throw new HubConnectionLostError('closed', conn.epoch);
    } catch (e) {
      await this.#drop(conn, 'connect-failed', e);
      throw e;
    }
    if (run !== this.#run) {
      await this.#drop(conn, 'stopped');
      return;
    }
    // From here on a loss of this connection starts a new reconnect loop, so the loop that made it must end now.
    conn.ready = true;
    this.#reconnecting = false;
    const at = this.#clock.now();
    this.#policy.connected(at); // the backoff starts over only if this one stays up (ReconnectPolicy.lost)
    if (done.type === 'reconnected') {
      this.#stats.reconnects++;
      this.#lifecycle.next({ type: 'reconnected', epoch: conn.epoch, attempts: done.attempts, reason: done.reason, at });
    } else {
      this.#lifecycle.next({ type: 'connected', epoch: conn.epoch, at });
    }
    const why = done.type === 'reconnected' ? { reason: done.reason } : {};
    this.#log.info({ epoch: conn.epoch, ...why, channels: this.#wanted.size }, `hub ${done.type}`);
  }

  /** Give a connection up: stop its timers, close its transport, and (if it was ready) start reconnecting. */
  async #drop(conn: HubConnection, reason: string, cause?: unknown): Promise<void> {
    const error = new HubConnectionLostError(reason, conn.epoch, cause);
    if (!conn.markLost(error)) return;
    if (this.#conn === conn) this.#conn = undefined;
    if (conn.ready && this.#running) {
      this.#log.warn({ epoch: conn.epoch, reason, ...(cause instanceof Error ? { error: cause.message } : {}) }, 'hub connection lost');
      this.#errors.next(error);
      this.#policy.lost(this.#clock.now());
      this.#reconnect(reason);
    }
    await conn.close();
  }

  /** Reconnect in the background (see reconnect-loop.ts) until a connection is ready or the client stops. */
  #reconnect(reason: string): void {
    if (this.#reconnecting || !this.#running) return;
    this.#reconnecting = true;
    const run = this.#run;
    void reconnectLoop(reason, {
      current: () => run === this.#run,
      delayMs: () => this.#policy.nextDelayMs(),
      sleep: (ms) => this.#backoff.sleep(ms),
      status: (attempt, why) => this.#setStatus({ state: 'reconnecting', attempt, reason: why }),
      connect: (attempts) => this.#establish(run, { type: 'reconnected', attempts, reason }),
      failed: (err) => {
        this.#errors.next(err);
        return err instanceof RexbotError ? err.code : 'connect-failed';
      },
      log: this.#log,
    });
  }

  // ---- per-connection traffic ----------------------------------------------------------------------------

  #onEvent(conn: HubConnection, ev: TransportEvent): void {
    if (conn.isLost) return;
    if (ev.type === 'closed') {
      void this.#drop(conn, 'closed', ev.error);
      return;
    }
    if (ev.type === 'keepAlive') return; // proves the socket, not the hub: the watchdog waits for hub messages
    conn.watchdog?.touch();
    const name = streamMessageName(ev.method);
    if (name === 'authenticationExpiring') {
      void this.#auth.renew(conn, 'expiring');
      return;
    }
    let message: StreamMessage;
    try {
      message = name === 'heartbeat' || ev.args.length === 0
        ? decodeStreamMessage(ev.method, undefined)
        : decodeStreamPayload(ev.method, ev.args[0]);
    } catch (e) {
      this.#stats.decodeErrors++;
      this.#errors.next(new HubMessageDecodeError(ev.method, e));
      return;
    }
    this.#stats.messages++;
    const out = {
      name: message.name,
      channel: channelOf(message, this.#wanted),
      message: message.data,
      receivedAt: this.#clock.now(),
      epoch: conn.epoch,
    } as HubMessage;
    // Held while its channel is subscribed again after a lapse (HubConnection.holdChannels says why).
    if (!conn.held(out.channel, out)) this.#messages.next(out);
  }

  /** Call a hub method on `conn`; ends early when the connection is lost, and drops it when unanswered. */
  #invoke(conn: HubConnection, method: string, ...args: unknown[]): Promise<unknown> {
    return conn.invoke(this.#opts.invokeTimeoutMs ?? DEFAULT_INVOKE_TIMEOUT_MS, method, ...args);
  }

  async #subscribeOn(conn: HubConnection, channels: string[]): Promise<SubscriptionResult[]> {
    const reply = await this.#invoke(conn, 'Subscribe', channels);
    return readSubscriptionReply('Subscribe', channels, reply);
  }

  /** Forget refused channels (retrying them on every reconnect would only repeat the refusal) and report them. */
  #settle(results: SubscriptionResult[]): SubscriptionResult[] {
    for (const r of results) {
      if (r.success) continue;
      if (r.channel !== HEARTBEAT_CHANNEL) this.#wanted.delete(r.channel);
      this.#log.warn({ channel: r.channel, errorCode: r.error.errorCode }, 'hub subscription refused');
      this.#errors.next(r.error);
    }
    return results;
  }

  /** Answer subscribe() calls that waited for a connection, subscribing what they added after it began. */
  async #serveWaiters(conn: HubConnection, results: SubscriptionResult[]): Promise<void> {
    const byChannel = new Map(results.map((r) => [r.channel, r]));
    // Loop because more subscribe() calls may queue while the follow-up Subscribe is in flight.
    let late: string[];
    while ((late = this.#waiters.unanswered(byChannel, this.#wanted)).length > 0) {
      for (const r of this.#settle(await this.#subscribeOn(conn, late))) byChannel.set(r.channel, r);
    }
    this.#waiters.resolveAll(byChannel);
  }

  #setStatus(status: HubStatus): void {
    this.#status.next(status);
  }
}
