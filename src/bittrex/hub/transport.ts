/**
 * The hub transport port: one thin interface over the two wire flavours of the v3 streaming hub.
 *
 * The real service spoke classic ASP.NET SignalR 1.5 (hub `c3`); `@microsoft/signalr` speaks the newer ASP.NET
 * Core protocol and refuses a classic server, so rexbot has one transport per flavour (WIRE.md, "Hub").
 * A transport only moves frames: it knows nothing of authentication renewal, heartbeats, reconnects or payload
 * decoding — the hub client built on top owns all of that, so both flavours behave the same above this line.
 *
 * Life cycle: one transport is one connection. `events$` emits `{type:'closed'}` exactly once — on `close()`
 * (no error) or when an established connection is lost (with the reason) — and then completes. A `connect()`
 * that fails reports through its rejection only (no `closed` event); make a new transport to try again.
 */
import type { Observable } from 'rxjs';
import { RexbotError } from '../../core/errors.js';
import { ClassicHubTransport } from './classic-transport.js';
import { CoreHubTransport } from './core-transport.js';

/**
 * What a transport reports: a server push (args still encoded, as sent), a frame that only says the connection is
 * alive (classic `{}` keep-alives; the core flavour's pings stay inside `@microsoft/signalr`), or the end of the
 * connection.
 */
export type TransportEvent =
  | { type: 'message'; method: string; args: unknown[] }
  | { type: 'keepAlive' }
  | { type: 'closed'; error?: Error };

/**
 * A connection to the hub in one wire flavour.
 *
 * @example
 * const t = createHubTransport('classic', { url: 'http://127.0.0.1:8080/signalr' });
 * t.events$.subscribe((e) => e.type === 'message' && console.log(e.method, e.args));
 * await t.connect();
 * await t.invoke('Subscribe', ['heartbeat', 'orderbook_BTC-USD_25']);
 */
export interface HubTransport {
  /** Open the connection (negotiate, connect, start/handshake). Rejects with a typed error on failure. */
  connect(): Promise<void>;
  /** Invoke a hub method; resolves with its result, rejects with HubInvocationError on an error reply or when the connection closes first. */
  invoke(method: string, ...args: unknown[]): Promise<unknown>;
  /** Server pushes (method name exactly as sent; args still encoded), keep-alives and the closing of the connection. Hot observable. */
  readonly events$: Observable<TransportEvent>;
  /** Close; idempotent; emits {type:'closed'}. */
  close(): Promise<void>;
}

/** Where and how to connect. */
export interface HubTransportOptions {
  /** Hub base URL. Classic: `http://host:port/signalr`; core: `http://host:port/hub`. `ws(s)://` is accepted too. */
  url: string;
  /** Hub name; the v3 service uses `c3`. */
  hubName?: string;
  /** Give up connecting (negotiate + socket + start/handshake) after this long; default 15 000 ms. */
  connectTimeoutMs?: number;
}

/** Default for {@link HubTransportOptions.connectTimeoutMs}. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;

/**
 * The hub URL as the HTTP URL both flavours start from: negotiate is plain HTTP, and each flavour derives its
 * socket URL itself, so a `ws(s)://` URL (accepted for convenience) becomes `http(s)://`.
 *
 * @example
 * hubHttpUrl('ws://127.0.0.1:8080/signalr').href // 'http://127.0.0.1:8080/signalr'
 */
export function hubHttpUrl(url: string): URL {
  const http = new URL(url);
  if (http.protocol === 'ws:') http.protocol = 'http:';
  if (http.protocol === 'wss:') http.protocol = 'https:';
  return http;
}

/**
 * Opening the connection failed: negotiate refused or unreachable, socket upgrade refused, start or handshake
 * failed, or the connect timeout passed. Nothing was subscribed, so a retry is always safe.
 */
export class HubConnectError extends RexbotError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HUB_CONNECT', message, options);
  }
}

/**
 * A hub method did not produce a result: the server answered with an error (`serverError` holds its message), or
 * the connection closed before the reply (`serverError` undefined). In the second case the call may or may not
 * have reached the server.
 */
export class HubInvocationError extends RexbotError {
  readonly method: string;
  readonly serverError: string | undefined;
  constructor(method: string, message: string, init?: { serverError?: string; cause?: unknown }) {
    super('HUB_INVOCATION', `${method}: ${message}`, { cause: init?.cause });
    this.method = method;
    this.serverError = init?.serverError;
  }
}

/**
 * Make a transport of the given flavour. Nothing happens on the wire until {@link HubTransport.connect}.
 *
 * @example
 * const core = createHubTransport('core', { url: 'http://127.0.0.1:8080/hub' });
 */
export function createHubTransport(kind: 'classic' | 'core', opts: HubTransportOptions): HubTransport {
  switch (kind) {
    case 'classic':
      return new ClassicHubTransport(opts);
    case 'core':
      return new CoreHubTransport(opts);
    default:
      throw new RexbotError('VALIDATION', `unknown hub transport kind ${String(kind)} (expected classic or core)`);
  }
}
