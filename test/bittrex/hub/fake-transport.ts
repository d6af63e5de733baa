/**
 * An in-memory hub for hub-client tests: a {@link FakeHub} plays the server (Authenticate with real signature
 * checks, Subscribe with UNAUTHORIZED_USER for private streams, IsAuthenticated, pushes, closes, auth expiry) and
 * hands out one {@link FakeTransport} per connection attempt through {@link FakeHub.factory}.
 * Tests script behaviour by queueing connect outcomes and overriding method handlers; nothing sleeps.
 */
import { Subject } from 'rxjs';
import { hexEquals, hmacSha512Hex, type Credentials } from '../../../src/bittrex/rest/auth.js';
import { encodePayload } from '../../../src/bittrex/hub/codec.js';
import { isPrivateChannel } from '../../../src/bittrex/hub/hub-subscriptions.js';
import {
  HubConnectError,
  HubInvocationError,
  type HubTransport,
  type TransportEvent,
} from '../../../src/bittrex/hub/transport.js';

/** One recorded hub call. */
export interface Invocation {
  /** Index of the transport (connection) in {@link FakeHub.transports}. */
  connection: number;
  method: string;
  args: unknown[];
  /** Clock time of the call, when the hub was given a clock. */
  at: number | undefined;
}

/** What the next connect() does: succeed, fail with a HubConnectError, or never settle. */
export type ConnectOutcome = 'ok' | 'fail' | 'hang';

/** A method handler: return the result, throw a string for an error reply, or return `HANG` to never answer. */
export type Handler = (args: unknown[], transport: FakeTransport) => unknown;

/** Handler result meaning "never answer". */
export const HANG = Symbol('hang');

/** The scripted server. */
export class FakeHub {
  readonly transports: FakeTransport[] = [];
  readonly invocations: Invocation[] = [];
  /** Outcomes of the next connect() calls, in order; when empty, connects succeed. */
  readonly connectOutcomes: ConnectOutcome[] = [];
  /** Overrides of the default server behaviour, by method name. */
  readonly handlers = new Map<string, Handler>();
  readonly #credentials: Credentials | undefined;
  readonly #now: (() => number) | undefined;

  constructor(opts: { credentials?: Credentials; now?: () => number } = {}) {
    this.#credentials = opts.credentials;
    this.#now = opts.now;
  }

  /** The transport factory to hand to createHubClient. */
  readonly factory = (): FakeTransport => {
    const t = new FakeTransport(this, this.transports.length);
    this.transports.push(t);
    return t;
  };

  /** The most recent transport. */
  get current(): FakeTransport {
    const t = this.transports.at(-1);
    if (!t) throw new Error('no transport made yet');
    return t;
  }

  /** Calls of `method` (optionally on one connection only). */
  calls(method: string, connection?: number): Invocation[] {
    return this.invocations.filter((i) => i.method === method && (connection === undefined || i.connection === connection));
  }

  /** Push `payload` as message `name` on every open connection subscribed to `channel`, like the server does. */
  publish(channel: string, name: string, payload: unknown): number {
    let n = 0;
    for (const t of this.transports) {
      if (t.open && t.subscriptions.has(channel)) {
        t.push(name, [encodePayload(payload)]);
        n++;
      }
    }
    return n;
  }

  /** Send a heartbeat on every open connection subscribed to it. */
  heartbeat(): void {
    for (const t of this.transports) if (t.open && t.subscriptions.has('heartbeat')) t.push('heartbeat', []);
  }

  /** @internal */
  nextConnect(): ConnectOutcome {
    return this.connectOutcomes.shift() ?? 'ok';
  }

  /** @internal */
  record(connection: number, method: string, args: unknown[]): void {
    this.invocations.push({ connection, method, args, at: this.#now?.() });
  }

  /** @internal the default server behaviour of the seed's hub methods. */
  serve(t: FakeTransport, method: string, args: unknown[]): unknown {
    const override = this.handlers.get(method);
    if (override) return override(args, t);
    switch (method) {
      case 'Authenticate': {
        const [apiKey, timestamp, randomContent, signature] = args as [string, number, string, string];
        if (!this.#credentials || apiKey !== this.#credentials.apiKey) return { Success: false, ErrorCode: 'INVALID_APIKEY' };
        const expected = hmacSha512Hex(this.#credentials.apiSecret, String(timestamp) + randomContent);
        if (!hexEquals(expected, signature)) return { Success: false, ErrorCode: 'INVALID_SIGNATURE' };
        t.authenticated = true;
        return { Success: true, ErrorCode: null };
      }
      case 'IsAuthenticated':
        return t.authenticated;
      case 'Subscribe':
        return (args[0] as string[]).map((c) => {
          if (isPrivateChannel(c) && !t.authenticated) return { Success: false, ErrorCode: 'UNAUTHORIZED_USER' };
          t.subscriptions.add(c);
          return { Success: true, ErrorCode: null };
        });
      case 'Unsubscribe':
        return (args[0] as string[]).map((c) => {
          t.subscriptions.delete(c);
          return { Success: true, ErrorCode: null };
        });
      default:
        throw `unknown method ${method}`;
    }
  }
}

/** One fake connection. */
export class FakeTransport implements HubTransport {
  readonly events$ = new Subject<TransportEvent>();
  readonly subscriptions = new Set<string>();
  authenticated = false;
  connected = false;
  closed = false;
  readonly #hub: FakeHub;
  readonly #index: number;
  readonly #pending = new Set<() => void>();

  constructor(hub: FakeHub, index: number) {
    this.#hub = hub;
    this.#index = index;
  }

  /** Connected and not closed. */
  get open(): boolean {
    return this.connected && !this.closed;
  }

  connect(): Promise<void> {
    const outcome = this.#hub.nextConnect();
    if (outcome === 'fail') return Promise.reject(new HubConnectError('connection refused (scripted)'));
    if (outcome === 'hang') {
      return new Promise((_, reject) => this.#pending.add(() => reject(new HubConnectError('closed while connecting'))));
    }
    this.connected = true;
    return Promise.resolve();
  }

  invoke(method: string, ...args: unknown[]): Promise<unknown> {
    this.#hub.record(this.#index, method, args);
    if (this.closed) return Promise.reject(new HubInvocationError(method, 'connection closed'));
    let result: unknown;
    try {
      result = this.#hub.serve(this, method, args);
    } catch (e) {
      const msg = String(e);
      return Promise.reject(new HubInvocationError(method, msg, { serverError: msg }));
    }
    if (result === HANG) {
      return new Promise((_, reject) => this.#pending.add(() => reject(new HubInvocationError(method, 'connection closed'))));
    }
    return Promise.resolve(result);
  }

  close(): Promise<void> {
    this.#end(undefined);
    return Promise.resolve();
  }

  /** The server drops the connection. */
  serverClose(error?: Error): void {
    this.#end(error ?? new Error('server closed the connection'));
  }

  /** Deliver a raw push (args as they would arrive: base64 payloads). */
  push(method: string, args: unknown[]): void {
    if (!this.closed) this.events$.next({ type: 'message', method, args });
  }

  /** Authentication ends as on the real hub: private subscriptions are cancelled. */
  expireAuth(): void {
    this.authenticated = false;
    for (const c of [...this.subscriptions]) if (isPrivateChannel(c)) this.subscriptions.delete(c);
  }

  #end(error: Error | undefined): void {
    if (this.closed) return;
    this.closed = true;
    for (const reject of this.#pending) reject();
    this.#pending.clear();
    this.events$.next(error ? { type: 'closed', error } : { type: 'closed' });
    this.events$.complete();
  }
}
