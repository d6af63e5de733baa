/**
 * Classic ASP.NET SignalR 1.5 wire flavour of the hubs (v3's `c3`, and v1.1's `c2` when attached; WebSocket
 * transport only; the hub a connection speaks to is the one its connectionData names), as WIRE.md describes
 * and as the real service behaved: negotiate / connect (or reconnect) / start / ping / abort under one base path,
 * JSON text frames, `{}` keep-alives, replies `{"R":…,"I":"id"}` or `{"I":"id","E":"…"}`, pushes
 * `{"C":cursor,"M":[{"H":"C3","M":name,"A":[…]}]}`.
 *
 * Invocations are served as soon as the socket is open: some clients invoke before /start, and the real server
 * accepted that. A frame that is not a valid invocation gets an error reply and the connection stays open.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { TimerHandle } from '../../core/clock.js';
import { ConnectionTokens } from './connection-tokens.js';
import { parseWireJson, previewJson } from '../../core/wire-json.js';
import { guardConnection, messageText, refuseUpgrade, replyJson, replyText } from './http-replies.js';
import { HubMethodError, type ClassicHubService } from './hub-types.js';
import { DEFAULT_MAX_BUFFERED_PER_CONNECTION, SlowConsumers } from './slow-consumers.js';
import type { HubConnectionHandle } from './hub.js';

/** Seconds, as announced in the negotiate reply. */
export const CLASSIC_KEEP_ALIVE_TIMEOUT_S = 20;
/** A keep-alive goes out at least every KeepAliveTimeout/3 (the classic client warns at 2/3 and drops at 3/3). */
export const CLASSIC_KEEP_ALIVE_INTERVAL_MS = Math.floor((CLASSIC_KEEP_ALIVE_TIMEOUT_S * 1000) / 3);
/** Largest client frame accepted; invocations are a few hundred bytes. */
export const CLASSIC_MAX_FRAME_BYTES = 64 * 1024;
/** A client that lets this much pile up unsent is too slow to follow the streams (the default cap, slow-consumers.ts). */
export const MAX_BUFFERED_BYTES = DEFAULT_MAX_BUFFERED_PER_CONNECTION;

/** The hub a connection gets when its connectionData names none. */
const DEFAULT_HUB = 'c3';
const ONLY_WEBSOCKETS = 'This hub serves the webSockets transport only: open a WebSocket to {base}/connect.';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A hub the endpoint serves: the service behind it and the spelling its pushes name it with (`C3`, `C2`). */
export interface ClassicHubEntry {
  service: ClassicHubService;
  pushName: string;
}

/**
 * The hub a connectionData value names (lower case), or a problem message. One hub per connection: the real
 * service ran c2 and c3 on different hosts, so no client ever asked for both on one socket.
 */
function hubOf(raw: string | null, hubs: ReadonlyMap<string, ClassicHubEntry>): { hub: string } | { problem: string } {
  if (raw === null || raw === '') return { hub: DEFAULT_HUB };
  let listed: unknown;
  try {
    listed = parseWireJson(raw);
  } catch {
    return { problem: `connectionData is not JSON: ${raw.slice(0, 100)}` };
  }
  if (!Array.isArray(listed)) return { problem: 'connectionData must be a JSON array such as [{"name":"c3"}]' };
  let hub: string | undefined;
  for (const h of listed) {
    const name: unknown = isRecord(h) ? h.name : undefined;
    if (typeof name !== 'string') return { problem: 'connectionData entries must be objects with a name' };
    const lower = name.toLowerCase();
    if (!hubs.has(lower)) return { problem: `'${name.slice(0, 100)}' Hub could not be resolved.` };
    if (hub !== undefined && hub !== lower) return { problem: 'connectionData names two hubs; connect once per hub' };
    hub = lower;
  }
  return { hub: hub ?? DEFAULT_HUB };
}

/** Serves the classic flavour under one base path (e.g. `/signalr`). */
export class ClassicHubEndpoint {
  readonly basePath: string;
  readonly #hubs: ReadonlyMap<string, ClassicHubEntry>;
  /** Slow-consumer caps shared by every connection of the endpoint, whichever hub it speaks (the v3 hub's). */
  readonly #slow: SlowConsumers;
  readonly #report: (err: unknown, where: string) => void;
  readonly #tokens = new ConnectionTokens();
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: CLASSIC_MAX_FRAME_BYTES });
  readonly #sockets = new Map<string, { ws: WebSocket; handle: HubConnectionHandle }>();
  readonly #keepAlive: TimerHandle;

  /** `hubs`: lower-case hub name → service; `c3` must be among them (it is what a bare connectionData means). */
  constructor(hubs: ReadonlyMap<string, ClassicHubEntry>, basePath: string) {
    const c3 = hubs.get(DEFAULT_HUB);
    if (!c3) throw new Error('ClassicHubEndpoint: the c3 hub is required');
    this.#hubs = hubs;
    this.#slow = c3.service.slowConsumers ?? new SlowConsumers();
    this.#report = c3.service.reportInternalError ?? (() => {});
    this.basePath = basePath.replace(/\/+$/, '');
    this.#keepAlive = c3.service.clock.setInterval(() => {
      for (const { ws } of this.#sockets.values()) this.#slow.send(ws, '{}');
    }, CLASSIC_KEEP_ALIVE_INTERVAL_MS);
  }

  /** True when a request path belongs to this endpoint. */
  owns(pathname: string): boolean {
    return pathname === this.basePath || pathname.startsWith(`${this.basePath}/`);
  }

  /** Serve negotiate, start, ping and abort; refuse everything else under the base path with a clear reason. */
  handleRequest(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const action = url.pathname.slice(this.basePath.length + 1);
    const method = req.method ?? 'GET';
    const expect = (m: string): boolean => {
      if (method === m) return true;
      replyText(res, 405, `${method} is not allowed on ${url.pathname}; use ${m}`, { Allow: m });
      return false;
    };
    switch (action) {
      case 'negotiate': {
        if (!expect('GET')) return;
        const named = hubOf(url.searchParams.get('connectionData'), this.#hubs);
        if ('problem' in named) return replyText(res, 400, named.problem);
        const { connectionId, connectionToken } = this.#tokens.issue();
        return replyJson(res, 200, {
          Url: this.basePath,
          ConnectionToken: connectionToken,
          ConnectionId: connectionId,
          KeepAliveTimeout: CLASSIC_KEEP_ALIVE_TIMEOUT_S,
          DisconnectTimeout: 30,
          ConnectionTimeout: 110,
          TryWebSockets: true,
          ProtocolVersion: '1.5',
          TransportConnectTimeout: 5,
          LongPollDelay: 0,
        });
      }
      case 'start':
        if (!expect('GET')) return;
        if (!this.#tokens.verify(url.searchParams.get('connectionToken'))) {
          return replyText(res, 400, 'start: missing or unrecognised connectionToken');
        }
        return replyJson(res, 200, { Response: 'started' });
      case 'ping':
        if (!expect('GET')) return;
        return replyJson(res, 200, { Response: 'pong' });
      case 'abort': {
        if (!expect('POST')) return;
        const id = this.#tokens.verify(url.searchParams.get('connectionToken'));
        if (!id) return replyText(res, 400, 'abort: missing or unrecognised connectionToken');
        // The client is leaving on purpose: forget it now (not when the close handshake ends) and close normally.
        const live = this.#sockets.get(id);
        live?.handle.closed();
        live?.ws.close(1000, 'aborted by the client');
        req.resume();
        res.writeHead(200, { 'Content-Length': 0 });
        return void res.end();
      }
      case 'connect':
      case 'reconnect':
      case 'send':
      case 'poll':
        return replyText(res, 400, ONLY_WEBSOCKETS);
      default:
        return replyText(res, 404, `no classic SignalR route ${url.pathname} (negotiate, connect, start, ping, abort)`);
    }
  }

  /** Accept `{base}/connect` and `{base}/reconnect` WebSocket upgrades with a valid token. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): void {
    const action = url.pathname.slice(this.basePath.length + 1);
    if (action !== 'connect' && action !== 'reconnect') {
      return refuseUpgrade(socket, 404, `no WebSocket route ${url.pathname}; use ${this.basePath}/connect`);
    }
    const q = url.searchParams;
    if ((q.get('transport') ?? '').toLowerCase() !== 'websockets') {
      return refuseUpgrade(socket, 400, 'transport must be webSockets');
    }
    const connectionId = this.#tokens.verify(q.get('connectionToken'));
    if (!connectionId) return refuseUpgrade(socket, 400, 'missing or unrecognised connectionToken');
    const named = hubOf(q.get('connectionData'), this.#hubs);
    if ('problem' in named) return refuseUpgrade(socket, 400, named.problem);
    const hub = named.hub;
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#accept(ws, connectionId, hub));
  }

  /** Stop keep-alives and drop every socket. */
  close(): void {
    this.#keepAlive.cancel();
    for (const { ws } of this.#sockets.values()) ws.terminate();
    this.#sockets.clear();
    this.#wss.close();
  }

  #accept(ws: WebSocket, connectionId: string, hubName: string): void {
    const entry = this.#hubs.get(hubName) as ClassicHubEntry;
    const pushHub = JSON.stringify(entry.pushName);
    let cursor = 0;
    const prefix = `d-${connectionId.slice(0, 8).toUpperCase()}-B,0|`;
    const nextCursor = (): string => prefix + (++cursor).toString(16).toUpperCase();
    // The init frame must be the socket's first frame, before the hub can push anything.
    ws.send(JSON.stringify({ C: nextCursor(), S: 1, M: [] }));
    const handle = entry.service.open(connectionId, 'classic', {
      push: (target, argsJson) => {
        if (ws.readyState !== ws.OPEN) return;
        this.#slow.send(ws, `{"C":${JSON.stringify(nextCursor())},"M":[{"H":${pushHub},"M":${JSON.stringify(target)},"A":${argsJson}}]}`);
      },
      terminate: () => ws.terminate(),
    });
    // One token, one connection: a second socket on it (a reconnect, or a client that used one token for two hubs)
    // replaces the first, which is closed rather than left open and forgotten (no keep-alives, out of abort's reach).
    const earlier = this.#sockets.get(connectionId);
    if (earlier !== undefined && earlier.ws !== ws) earlier.ws.close(1000, 'replaced by a newer socket on the same connection token');
    this.#sockets.set(connectionId, { ws, handle });
    this.#slow.add(ws);
    ws.on('message', (data) => guardConnection(ws, this.#report, `classic hub connection ${connectionId}`, () => this.#onFrame(ws, handle, hubName, messageText(data))));
    ws.on('error', () => {
      // ws reports protocol violations (e.g. a frame over maxPayload) here and then closes; 'close' cleans up.
    });
    ws.on('close', () => {
      this.#slow.delete(ws);
      handle.closed();
      if (this.#sockets.get(connectionId)?.ws === ws) this.#sockets.delete(connectionId);
    });
  }

  #onFrame(ws: WebSocket, handle: HubConnectionHandle, hubName: string, text: string): void {
    // Replies count against the slow-consumer caps as pushes do (see slow-consumers.ts).
    const reply = (frame: object): void => {
      if (ws.readyState === ws.OPEN) this.#slow.send(ws, JSON.stringify(frame));
    };
    let frame: unknown;
    try {
      frame = parseWireJson(text);
    } catch (err) {
      return reply({ E: `malformed frame, not JSON: ${(err as Error).message}` });
    }
    if (!isRecord(frame)) return reply({ E: 'malformed frame: expected an invocation object {"H","M","A","I"}' });
    const rawId = frame.I;
    if (typeof rawId !== 'string' && typeof rawId !== 'number') {
      return reply({ E: 'malformed invocation: I (call id) must be a number or a string' });
    }
    const I = String(rawId);
    if (typeof frame.H !== 'string' || frame.H.toLowerCase() !== hubName) {
      return reply({ I, E: `'${typeof frame.H === 'string' ? frame.H.slice(0, 100) : previewJson(frame.H)}' Hub could not be resolved.` });
    }
    if (typeof frame.M !== 'string' || frame.M === '') {
      return reply({ I, E: 'malformed invocation: M (method name) must be a non-empty string' });
    }
    const args = frame.A ?? [];
    if (!Array.isArray(args)) return reply({ I, E: 'malformed invocation: A (arguments) must be an array' });
    let R: unknown;
    try {
      R = handle.invoke(frame.M, args);
    } catch (err) {
      if (err instanceof HubMethodError) return reply({ I, E: err.message });
      // A fault of ours, not of the call: the caller hears only that much, the operator all of it.
      const method = frame.M.slice(0, 64);
      this.#report(err, `classic hub ${hubName} method ${method}`);
      return reply({ I, E: `internal error in ${method}` });
    }
    reply({ R, I });
  }
}
