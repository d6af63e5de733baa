/**
 * The simulator's streaming hub, independent of the wire flavour and of the exchange engine.
 *
 * It owns connections' authentication and subscriptions, serves the four hub methods (seed section 6), sends
 * heartbeats and authentication-expiry notices on the injected {@link Clock}, and delivers what the engine
 * publishes: each payload is encoded once (base64 of raw deflate of JSON) and handed to every recipient's wire
 * flavour as ready-made argument text. Classic (`/signalr`) and ASP.NET Core (`/hub`) connections share one Hub,
 * so both see the same messages in the same order.
 */
import { encodePayload } from '../../bittrex/hub/codec.js';
import { systemClock, type Clock, type TimerHandle } from '../../core/clock.js';
import { channelList, parseChannel, PublishedChannels } from './channels.js';
import { HubFaults } from './faults.js';
import {
  HubMethodError,
  type HubBackend,
  type HubConnectionInfo,
  type HubFlavour,
  type HubSink,
  type SocketResponse,
} from './hub-types.js';
import { HubAuthGuard } from './auth-guard.js';
import { SlowConsumers } from './slow-consumers.js';
import { AUTH_TIMESTAMP_TOLERANCE_MS, verifyHubAuth } from './verify-auth.js';
import type { HubConnectionHandle, HubOptions, PublishOptions } from './hub-options.js';

export type { HubConnectionHandle, HubOptions, PublishOptions } from './hub-options.js';

interface Auth {
  accountId: string;
  expiresAt: number;
  timers: TimerHandle[];
}

interface Held {
  target: string;
  argsJson: string;
  copies: number;
}

interface Session {
  id: string;
  flavour: HubFlavour;
  sink: HubSink;
  auth: Auth | undefined;
  subscriptions: Set<string>;
  /** A push held back by the reorder fault, released after the next one. */
  held: Held | undefined;
  open: boolean;
}

const EMPTY_ARGS = '[]';
const OK: SocketResponse = { Success: true, ErrorCode: null };
const fail = (code: string): SocketResponse => ({ Success: false, ErrorCode: code });

/**
 * One hub serving any number of connections of either flavour.
 *
 * @example
 * const hub = new Hub({ backend, clock });
 * attachHub(httpServer, hub, { classicPath: '/signalr', corePath: '/hub' });
 * hub.publish('orderbook_BTC-USD_25', 'orderBook', { marketSymbol: 'BTC-USD', depth: 25, sequence: 8, bidDeltas: [], askDeltas: [] });
 * hub.publish('balance', 'balance', { accountId, sequence: 3, delta: balance }, { accountId });
 */
export class Hub {
  /** Fault injection applied to published pushes (not to heartbeats, which `stallHeartbeat` governs). */
  readonly faults: HubFaults;
  readonly clock: Clock;
  /** Reports a failure inside one connection's handling (the wire flavours then close that connection only). */
  readonly reportInternalError: (err: unknown, where: string) => void;
  /** Which sockets are too slow to keep (both wire flavours register theirs). */
  readonly slowConsumers: SlowConsumers;
  readonly #backend: HubBackend;
  readonly #authLifetimeMs: number;
  readonly #authWarningMs: number;
  readonly #toleranceMs: number;
  readonly #sessions = new Map<string, Session>();
  /** Canonical channel name → subscribed sessions, so a publish touches only its recipients. */
  readonly #byChannel = new Map<string, Set<Session>>();
  readonly #published = new PublishedChannels();
  readonly #heartbeat: TimerHandle;
  readonly #authGuard: HubAuthGuard;

  constructor(opts: HubOptions) {
    this.#backend = opts.backend;
    this.clock = opts.clock ?? systemClock;
    this.reportInternalError = opts.onInternalError ?? (() => {});
    this.slowConsumers = new SlowConsumers(opts.buffers);
    this.#authLifetimeMs = opts.authLifetimeMs ?? 10 * 60_000;
    this.#authWarningMs = opts.authWarningMs ?? 60_000;
    this.#toleranceMs = opts.timestampToleranceMs ?? AUTH_TIMESTAMP_TOLERANCE_MS;
    this.#authGuard = new HubAuthGuard({ clock: this.clock, toleranceMs: this.#toleranceMs, ...opts.authFailures });
    // Changing the faults releases held-back pushes, so switching reordering off never loses a message.
    this.faults = new HubFaults(() => {
      for (const s of this.#sessions.values()) this.#release(s);
    });
    this.#heartbeat = this.clock.setInterval(() => this.#beat(), opts.heartbeatIntervalMs ?? 5_000);
  }

  /**
   * Deliver one message to every connection subscribed to `channel`: on private channels only to connections
   * authenticated as `opts.accountId`, on `subaccounts_*` channels only to masters managing it.
   * `payload` may be a function, called only when the message has a recipient.
   * Returns the number of connections it was handed to (before fault injection).
   * Throws on a channel name outside the seed's table or a private channel without `accountId`: both are bugs
   * in the publisher, not wire input.
   */
  publish(channel: string, messageName: string, payload: object | (() => object), opts: PublishOptions = {}): number {
    const info = this.#published.info(channel);
    if (!info) throw new Error(`Hub.publish: ${JSON.stringify(channel)} is not a channel of the v3 stream table`);
    const accountId = opts.accountId;
    if (info.scope !== 'public' && accountId === undefined) {
      throw new Error(`Hub.publish: channel ${channel} is private and needs opts.accountId`);
    }
    const subscribed = this.#byChannel.get(info.name);
    if (!subscribed || subscribed.size === 0) return 0;
    const managed = new Map<string, boolean>();
    const recipients = [...subscribed].filter((s) => this.#mayReceive(s, info.scope, accountId, managed));
    if (recipients.length === 0) return 0;
    // A lazy payload is built only when someone will receive it (the engine publishes every event).
    const body = typeof payload === 'function' ? payload() : payload;
    const argsJson = JSON.stringify([encodePayload(body)]);
    for (const s of recipients) this.#deliver(s, messageName, argsJson);
    return recipients.length;
  }

  /**
   * True while at least one connection is subscribed to some channel. A publisher may skip building a message
   * (its channel name included) when this is false: {@link publish} would deliver it to nobody.
   */
  get hasSubscriptions(): boolean {
    return this.#byChannel.size > 0;
  }

  /** Every open connection, in the order they opened. */
  connections(): HubConnectionInfo[] {
    return [...this.#sessions.values()].map((s) => ({
      id: s.id,
      flavour: s.flavour,
      accountId: s.auth?.accountId,
      authExpiresAt: s.auth?.expiresAt,
      subscriptions: [...s.subscriptions],
    }));
  }

  /** Drop one connection's socket (no closing handshake). Returns false when no such connection is open. */
  close(connectionId: string): boolean {
    const s = this.#sessions.get(connectionId);
    if (!s) return false;
    this.#forget(s);
    try {
      s.sink.terminate();
    } catch {
      // The socket is already gone; forgetting the session was the part that mattered.
    }
    return true;
  }

  /** Drop every connection's socket. */
  closeAll(): void {
    for (const id of [...this.#sessions.keys()]) this.close(id);
  }

  /** Expire authentication now, as if its 10 minutes had passed: for one connection, or for all. */
  expireAuth(connectionId?: string): void {
    const targets = connectionId === undefined ? [...this.#sessions.values()] : [this.#sessions.get(connectionId)];
    for (const s of targets) if (s?.auth) this.#expire(s);
  }

  /** Stop timers and drop every connection. The hub cannot be used afterwards. */
  stop(): void {
    this.#heartbeat.cancel();
    this.closeAll();
  }

  /**
   * Register a connection (called by the wire flavours once the socket is ready). A connection with the same id
   * is dropped first: a classic client reconnecting with its old token replaces its old socket.
   */
  open(id: string, flavour: HubFlavour, sink: HubSink): HubConnectionHandle {
    this.close(id);
    const session: Session = {
      id,
      flavour,
      sink,
      auth: undefined,
      subscriptions: new Set(),
      held: undefined,
      open: true,
    };
    this.#sessions.set(id, session);
    return {
      id,
      invoke: (method, args) => {
        if (!session.open) throw new HubMethodError('the connection is closed');
        return this.#invoke(session, method, args);
      },
      closed: () => this.#forget(session),
    };
  }

  #invoke(s: Session, method: string, args: unknown[]): unknown {
    switch (method.toLowerCase()) {
      case 'authenticate':
        if (args.length !== 4) {
          throw new HubMethodError(
            `Authenticate expects 4 arguments (apiKey, timestamp, randomContent, signature), got ${args.length}`,
          );
        }
        return this.#authenticate(s, args);
      case 'isauthenticated':
        if (args.length !== 0) throw new HubMethodError(`IsAuthenticated takes no arguments, got ${args.length}`);
        return s.auth !== undefined;
      case 'subscribe':
        return channelList('Subscribe', args).map((c) => this.#subscribe(s, c));
      case 'unsubscribe':
        return channelList('Unsubscribe', args).map((c) => this.#unsubscribe(s, c));
      default:
        throw new HubMethodError(
          `'${method}' method could not be resolved (hub c3 has Authenticate, IsAuthenticated, Subscribe, Unsubscribe)`,
        );
    }
  }

  #authenticate(s: Session, args: unknown[]): SocketResponse {
    // Repeated failures lock the connection (and the key, for connections that failed already): not even checked.
    if (!this.#authGuard.mayTry(s.id, args[0])) return fail('THROTTLED');
    const verdict = verifyHubAuth(args, (k) => this.#backend.findKey(k), this.clock.now(), this.#toleranceMs);
    // A failed attempt leaves an existing authentication alone: a bad retry must not log a good session out.
    if (!verdict.ok) {
      this.#authGuard.failed(s.id, verdict.errorCode === 'INVALID_APIKEY' ? undefined : (args[0] as string));
      return fail(verdict.errorCode);
    }
    // Captured arguments replayed on another connection: refused like a bad signature.
    if (!this.#authGuard.accept(s.id, args.slice(0, 4))) return fail('INVALID_SIGNATURE');
    if (s.auth && s.auth.accountId !== verdict.accountId) {
      // Private subscriptions were granted to the previous account; the new one must ask for its own.
      this.#dropPrivate(s);
    }
    this.#clearAuth(s);
    const lifetime = this.#authLifetimeMs;
    s.auth = {
      accountId: verdict.accountId,
      expiresAt: this.clock.now() + lifetime,
      timers: [
        this.clock.setTimeout(() => this.#send(s, 'authenticationExpiring', EMPTY_ARGS), lifetime - this.#authWarningMs),
        this.clock.setTimeout(() => this.#expire(s), lifetime),
      ],
    };
    return OK;
  }

  #subscribe(s: Session, raw: unknown): SocketResponse {
    const info = typeof raw === 'string' ? parseChannel(raw) : undefined;
    if (!info) return fail('INVALID_CHANNEL');
    if (info.marketSymbol !== undefined) {
      const b = this.#backend;
      const problem = b.marketError ? b.marketError(info.marketSymbol) : b.marketExists?.(info.marketSymbol) === false ? 'MARKET_DOES_NOT_EXIST' : undefined;
      if (problem) return fail(problem);
    }
    if (info.scope !== 'public' && !s.auth) return fail('UNAUTHORIZED_USER');
    s.subscriptions.add(info.name);
    let set = this.#byChannel.get(info.name);
    if (!set) this.#byChannel.set(info.name, (set = new Set()));
    set.add(s);
    return OK;
  }

  #unsubscribe(s: Session, raw: unknown): SocketResponse {
    const info = typeof raw === 'string' ? parseChannel(raw) : undefined;
    if (!info) return fail('INVALID_CHANNEL');
    this.#removeSubscription(s, info.name);
    return OK;
  }

  #removeSubscription(s: Session, channel: string): void {
    s.subscriptions.delete(channel);
    const set = this.#byChannel.get(channel);
    if (!set) return;
    set.delete(s);
    if (set.size === 0) this.#byChannel.delete(channel);
  }

  /** `managed` caches, for one publish, whether a master manages the publishing account. */
  #mayReceive(
    s: Session,
    scope: 'public' | 'private' | 'subaccount',
    accountId: string | undefined,
    managed: Map<string, boolean>,
  ): boolean {
    if (scope === 'public') return true;
    if (!s.auth || accountId === undefined) return false;
    const master = s.auth.accountId;
    if (scope === 'private') return master === accountId;
    let manages = managed.get(master);
    if (manages === undefined) {
      manages = this.#backend.subaccountsOf(master).includes(accountId);
      managed.set(master, manages);
    }
    return manages;
  }

  #expire(s: Session): void {
    this.#clearAuth(s);
    s.auth = undefined;
    this.#dropPrivate(s);
  }

  #clearAuth(s: Session): void {
    for (const t of s.auth?.timers ?? []) t.cancel();
  }

  #dropPrivate(s: Session): void {
    for (const channel of [...s.subscriptions]) {
      if (parseChannel(channel)?.scope !== 'public') this.#removeSubscription(s, channel);
    }
  }

  #beat(): void {
    if (this.faults.heartbeatStalled) return;
    for (const s of this.#byChannel.get('heartbeat') ?? []) {
      // A push held back for reordering goes out before the heartbeat, so reordering never delays it for long.
      this.#release(s);
      this.#send(s, 'heartbeat', EMPTY_ARGS);
    }
  }

  /** Hand a published push to a connection through the fault injector. */
  #deliver(s: Session, target: string, argsJson: string): void {
    const f = this.faults.decide();
    if (f.drop) return;
    const copies = f.duplicate ? 2 : 1;
    if (s.held) {
      for (let i = 0; i < copies; i++) this.#send(s, target, argsJson);
      this.#release(s);
      return;
    }
    if (f.reorder) {
      s.held = { target, argsJson, copies };
      return;
    }
    for (let i = 0; i < copies; i++) this.#send(s, target, argsJson);
  }

  #release(s: Session): void {
    const held = s.held;
    if (!held) return;
    s.held = undefined;
    for (let i = 0; i < held.copies; i++) this.#send(s, held.target, held.argsJson);
  }

  #send(s: Session, target: string, argsJson: string): void {
    if (!s.open) return;
    try {
      s.sink.push(target, argsJson);
    } catch {
      // One broken socket must not stop delivery to the others; drop it and let its client reconnect.
      this.close(s.id);
    }
  }

  #forget(s: Session): void {
    if (!s.open) return;
    s.open = false;
    s.held = undefined;
    this.#clearAuth(s);
    for (const channel of [...s.subscriptions]) this.#removeSubscription(s, channel);
    if (this.#sessions.get(s.id) === s) this.#sessions.delete(s.id);
    this.#authGuard.forget(s.id);
  }
}
