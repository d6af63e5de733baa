/**
 * Classic ASP.NET SignalR 1.5 transport (WebSocket only), the flavour the real v3 hub spoke (WIRE.md, "Hub").
 *
 * Handshake: GET {base}/negotiate → WebSocket {base}/connect (wait for the init frame `S:1`) → GET {base}/start.
 * Frames are JSON text: `{}` keep-alives, `{"I":"1","R":…}` / `{"I":"1","E":"…"}` replies, and persistent
 * responses `{"C":cursor,"M":[{H,M,A},…]}` carrying pushes, possibly several per frame.
 *
 * The transport stays thin on purpose: keep-alive watchdogs, reconnects and payload decoding belong to the hub
 * client, so that one policy governs both wire flavours. A frame the transport cannot understand closes the
 * connection with a WireFormatError instead of being skipped, because a silently lost push would leave a
 * sequenced stream out of sync with nothing to tell the client why.
 */
import { randomInt } from 'node:crypto';
import { request } from 'undici';
import WebSocket from 'ws';
import { Subject } from 'rxjs';
import { NetworkError, WireFormatError } from '../../core/errors.js';
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  HubConnectError,
  HubInvocationError,
  hubHttpUrl,
  type HubTransport,
  type HubTransportOptions,
  type TransportEvent,
} from './transport.js';
import { smallBodyText } from '../rest/response-limits.js';

/** One hub call carried in a persistent response's `M` array. */
export interface ClassicHubMessage {
  /** Hub name as sent (the v3 service sends `C3`). */
  hub: string;
  /** Client method (message) name as sent, e.g. `orderBook`. */
  method: string;
  /** Arguments as sent (v3 payloads are base64 strings; heartbeat has none). */
  args: unknown[];
}

/** A classic server frame, classified. */
export type ClassicServerFrame =
  | { kind: 'keepAlive' }
  | { kind: 'result'; id: string; result: unknown }
  | { kind: 'error'; id: string; error: string }
  | { kind: 'progress'; id: string; data: unknown }
  | {
      kind: 'messages';
      /** Message cursor (`C`); clients pass it back as `messageId` when reconnecting. */
      cursor: string | undefined;
      /** True for the init frame (`S:1`) the server sends first on a new socket. */
      init: boolean;
      /** True when the server asks the client to disconnect (`D:1`). */
      disconnect: boolean;
      messages: ClassicHubMessage[];
    }
  | { kind: 'serverError'; error: string };

const WHERE = 'classic hub frame';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Classify one classic server frame. Throws {@link WireFormatError} when it is not a frame a classic server sends.
 *
 * @example
 * parseClassicServerFrame('{"C":"d-1,5","M":[{"H":"C3","M":"heartbeat","A":[]}]}');
 * // → { kind: 'messages', cursor: 'd-1,5', init: false, disconnect: false,
 * //     messages: [{ hub: 'C3', method: 'heartbeat', args: [] }] }
 */
export function parseClassicServerFrame(text: string): ClassicServerFrame {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch (err) {
    throw new WireFormatError(WHERE, '', `is not JSON (${(err as Error).message})`);
  }
  if (!isRecord(frame)) throw new WireFormatError(WHERE, '', 'is not a JSON object');
  if ('I' in frame) {
    const id = frame.I;
    if (typeof id !== 'string' && typeof id !== 'number') throw new WireFormatError(WHERE, 'I', 'is not a string');
    if ('E' in frame) return { kind: 'error', id: String(id), error: String(frame.E) };
    if ('P' in frame) return { kind: 'progress', id: String(id), data: frame.P };
    return { kind: 'result', id: String(id), result: frame.R };
  }
  if ('M' in frame) {
    if (!Array.isArray(frame.M)) throw new WireFormatError(WHERE, 'M', 'is not an array');
    const messages = frame.M.map((entry: unknown, i): ClassicHubMessage => {
      if (!isRecord(entry)) throw new WireFormatError(WHERE, `M[${i}]`, 'is not an object');
      if (typeof entry.M !== 'string') throw new WireFormatError(WHERE, `M[${i}].M`, 'is not a string');
      if (entry.A !== undefined && !Array.isArray(entry.A)) {
        throw new WireFormatError(WHERE, `M[${i}].A`, 'is not an array');
      }
      return { hub: typeof entry.H === 'string' ? entry.H : '', method: entry.M, args: entry.A ?? [] };
    });
    return {
      kind: 'messages',
      cursor: typeof frame.C === 'string' ? frame.C : undefined,
      init: frame.S === 1,
      disconnect: frame.D === 1 || frame.D === true,
      messages,
    };
  }
  if ('E' in frame) return { kind: 'serverError', error: String(frame.E) };
  // `{}` and cursor-only frames (`C`/`G` without `M`) carry nothing for the client.
  return { kind: 'keepAlive' };
}

/** The query every classic request after negotiate repeats. */
function classicQuery(hubName: string, token?: string): URLSearchParams {
  const q = new URLSearchParams({
    transport: 'webSockets',
    clientProtocol: '1.5',
  });
  if (token !== undefined) q.set('connectionToken', token);
  q.set('connectionData', JSON.stringify([{ name: hubName }]));
  return q;
}

interface Pending {
  method: string;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/**
 * {@link HubTransport} over classic SignalR 1.5. Create it with `createHubTransport('classic', …)`.
 * One instance is one connection: after it closes, make a new one.
 */
export class ClassicHubTransport implements HubTransport {
  readonly #httpBase: string;
  readonly #hubName: string;
  readonly #connectTimeoutMs: number;
  readonly #events = new Subject<TransportEvent>();
  readonly #pending = new Map<string, Pending>();
  #ws: WebSocket | undefined;
  #token: string | undefined;
  #nextId = 1;
  /** The socket died while connect() was still running (after the init frame, during /start). */
  #lostWhileConnecting = false;
  #state: 'new' | 'connecting' | 'open' | 'closed' = 'new';
  #closedPromise: Promise<void> | undefined;

  /** Hot stream of pushes and the final `closed` event; completes after `closed`. */
  readonly events$ = this.#events.asObservable();

  constructor(opts: HubTransportOptions) {
    const url = hubHttpUrl(opts.url);
    this.#httpBase = url.origin + url.pathname.replace(/\/+$/, '');
    this.#hubName = opts.hubName ?? 'c3';
    this.#connectTimeoutMs = opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  }

  /** Negotiate, open the socket, wait for the init frame, then /start. */
  async connect(): Promise<void> {
    if (this.#state !== 'new') throw new HubConnectError(`cannot connect a transport that is ${this.#state}`);
    this.#state = 'connecting';
    const deadline = AbortSignal.timeout(this.#connectTimeoutMs);
    try {
      const negotiated = await this.#getJson(`negotiate?${this.#negotiateQuery()}`, deadline);
      const token = negotiated.ConnectionToken;
      if (typeof token !== 'string' || token === '') {
        throw new HubConnectError('negotiate reply has no ConnectionToken (is this a classic SignalR hub?)');
      }
      if (negotiated.TryWebSockets === false) throw new HubConnectError('server does not offer WebSockets');
      this.#token = token;
      await this.#openSocket(deadline);
      const started = await this.#getJson(`start?${classicQuery(this.#hubName, token)}`, deadline);
      if (started.Response !== 'started') {
        throw new HubConnectError(`start answered ${JSON.stringify(started)} instead of {"Response":"started"}`);
      }
      // The socket may have died while /start was in flight; then the close handler already ran.
      if (this.#state !== 'connecting' || this.#lostWhileConnecting) {
        throw new HubConnectError('socket closed during start');
      }
      this.#state = 'open';
    } catch (err) {
      this.#abandon();
      if (err instanceof HubConnectError) throw err;
      const why = deadline.aborted ? `timed out after ${this.#connectTimeoutMs} ms` : (err as Error).message;
      throw new HubConnectError(`classic hub connect to ${this.#httpBase} failed: ${why}`, { cause: err });
    }
  }

  /** Send `{"H":hub,"M":method,"A":args,"I":n}` and wait for the reply with the same id. */
  invoke(method: string, ...args: unknown[]): Promise<unknown> {
    const ws = this.#ws;
    if (!ws || ws.readyState !== WebSocket.OPEN || this.#state === 'closed') {
      return Promise.reject(new HubInvocationError(method, 'not connected'));
    }
    const id = String(this.#nextId++);
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { method, resolve, reject });
      ws.send(JSON.stringify({ H: this.#hubName, M: method, A: args, I: Number(id) }), (err) => {
        if (!err) return;
        this.#pending.delete(id);
        reject(new HubInvocationError(method, 'could not send the invocation', { cause: err }));
      });
    });
  }

  /** Close the socket (and tell the server with /abort); resolves once closed. Idempotent. */
  close(): Promise<void> {
    if (this.#closedPromise) return this.#closedPromise;
    const ws = this.#ws;
    if (this.#token !== undefined) this.#sendAbort(this.#token);
    if (!ws || ws.readyState === WebSocket.CLOSED) {
      this.#finish(undefined);
      this.#closedPromise = Promise.resolve();
      return this.#closedPromise;
    }
    this.#closedPromise = new Promise<void>((resolve) => {
      // A peer that never answers the close handshake must not hold close() forever.
      const force = setTimeout(() => ws.terminate(), 2_000);
      force.unref();
      ws.once('close', () => {
        clearTimeout(force);
        resolve();
      });
      this.#finish(undefined);
      ws.close(1000);
    });
    return this.#closedPromise;
  }

  #negotiateQuery(): URLSearchParams {
    return new URLSearchParams({
      clientProtocol: '1.5',
      connectionData: JSON.stringify([{ name: this.#hubName }]),
    });
  }

  async #getJson(pathAndQuery: string, signal: AbortSignal): Promise<Record<string, unknown>> {
    const url = `${this.#httpBase}/${pathAndQuery}`;
    const res = await request(url, { method: 'GET', signal });
    // Negotiate and start answer a few hundred bytes: a server sending more (or without end) is refused, not
    // buffered until the connect deadline (an endless answer grew the bot by 3 GB in 6 s, on every reconnect).
    const body = await smallBodyText(res.body, 1024 * 1024, `GET ${url.split('?')[0]}`);
    if (res.statusCode !== 200) {
      throw new HubConnectError(`GET ${url.split('?')[0]} answered ${res.statusCode}: ${body.slice(0, 200)}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new HubConnectError(`GET ${url.split('?')[0]} answered non-JSON: ${body.slice(0, 200)}`);
    }
    if (!isRecord(json)) throw new HubConnectError(`GET ${url.split('?')[0]} answered ${body.slice(0, 200)}`);
    return json;
  }

  /** Open the socket and resolve when the init frame arrives (the JS client waits for it before /start). */
  #openSocket(deadline: AbortSignal): Promise<void> {
    const q = classicQuery(this.#hubName, this.#token);
    q.set('tid', String(randomInt(0, 11)));
    const wsUrl = `${this.#httpBase.replace(/^http/, 'ws')}/connect?${q}`;
    return new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(wsUrl, { perMessageDeflate: false });
      this.#ws = ws;
      let initialised = false;
      const onAbort = (): void => reject(new Error('timed out'));
      deadline.addEventListener('abort', onAbort, { once: true });
      ws.on('unexpected-response', (_req, res) => {
        // The first 200 characters say why; the rest is not read (a server could send without end).
        let body = '';
        const done = () => reject(new HubConnectError(`connect answered ${res.statusCode}: ${body.slice(0, 200)}`));
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
          if (body.length >= 200) {
            res.destroy();
            done();
          }
        });
        res.on('end', done);
      });
      ws.on('error', (err) => {
        if (!initialised) reject(err);
      });
      ws.on('message', (data, isBinary) => {
        const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : String(data);
        const init = this.#onFrame(text);
        if (init && !initialised) {
          initialised = true;
          deadline.removeEventListener('abort', onAbort);
          resolve();
        }
      });
      ws.on('close', (code, reason) => {
        deadline.removeEventListener('abort', onAbort);
        if (!initialised) reject(new HubConnectError(`socket closed before the init frame (code ${code})`));
        this.#onSocketClosed(code, reason.toString('utf8'));
      });
    });
  }

  /** Handle one frame; returns true when it was the init frame. */
  #onFrame(text: string): boolean {
    let frame: ClassicServerFrame;
    try {
      frame = parseClassicServerFrame(text);
    } catch (err) {
      this.#fail(err as Error);
      return false;
    }
    switch (frame.kind) {
      case 'result':
      case 'error': {
        const pending = this.#pending.get(frame.id);
        if (!pending) return false;
        this.#pending.delete(frame.id);
        if (frame.kind === 'result') pending.resolve(frame.result);
        else pending.reject(new HubInvocationError(pending.method, frame.error, { serverError: frame.error }));
        return false;
      }
      case 'messages':
        for (const m of frame.messages) this.#events.next({ type: 'message', method: m.method, args: m.args });
        if (frame.disconnect) this.#fail(new NetworkError('server asked to disconnect', { mayHaveReachedServer: true }));
        return frame.init;
      case 'keepAlive':
        // Reported so a client without a hub-level heartbeat (v1.1's c2) can tell a silent half-open socket.
        this.#events.next({ type: 'keepAlive' });
        return false;
      default:
        return false;
    }
  }

  /** Close because of a failure; the `closed` event carries the reason. */
  #fail(error: Error): void {
    if (this.#state === 'closed') return;
    const ws = this.#ws;
    this.#finish(error);
    ws?.terminate();
  }

  #onSocketClosed(code: number, reason: string): void {
    if (this.#state === 'closed') return;
    // Only a connection that was up reports `closed`; a failed connect reports through its rejection.
    if (this.#state === 'connecting') {
      this.#lostWhileConnecting = true;
      this.#rejectPending(new Error('connection closed'));
      return;
    }
    const detail = reason ? `${code} ${reason}` : String(code);
    this.#finish(new NetworkError(`hub socket closed by the server or network (${detail})`, { mayHaveReachedServer: true }));
  }

  /** Connect failed: drop the socket quietly, with no `closed` event (the rejection is the report). */
  #abandon(): void {
    const ws = this.#ws;
    this.#state = 'closed';
    this.#rejectPending(new Error('connect failed'));
    this.#events.complete();
    ws?.terminate();
  }

  #finish(error: Error | undefined): void {
    if (this.#state === 'closed') return;
    const wasOpen = this.#state === 'open';
    this.#state = 'closed';
    this.#rejectPending(error ?? new Error('transport closed'));
    if (wasOpen || error === undefined) this.#events.next(error ? { type: 'closed', error } : { type: 'closed' });
    this.#events.complete();
  }

  #rejectPending(cause: Error): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) {
      p.reject(new HubInvocationError(p.method, 'connection closed before the reply', { cause }));
    }
  }

  #sendAbort(token: string): void {
    // Courtesy only: the server also notices the socket closing. Never let it fail or delay close().
    request(`${this.#httpBase}/abort?${classicQuery(this.#hubName, token)}`, {
      method: 'POST',
      signal: AbortSignal.timeout(2_000),
    })
      .then((res) => res.body.dump())
      .catch(() => undefined);
  }
}
