/**
 * Classic ASP.NET SignalR 1.5 wire flavour of the hub (hub `c3`, WebSocket transport only), as WIRE.md describes
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
import { HubMethodError } from './hub-types.js';
import { DEFAULT_MAX_BUFFERED_PER_CONNECTION } from './slow-consumers.js';
import type { Hub, HubConnectionHandle } from './hub.js';

/** Seconds, as announced in the negotiate reply. */
export const CLASSIC_KEEP_ALIVE_TIMEOUT_S = 20;
/** A keep-alive goes out at least every KeepAliveTimeout/3 (the classic client warns at 2/3 and drops at 3/3). */
export const CLASSIC_KEEP_ALIVE_INTERVAL_MS = Math.floor((CLASSIC_KEEP_ALIVE_TIMEOUT_S * 1000) / 3);
/** Largest client frame accepted; invocations are a few hundred bytes. */
export const CLASSIC_MAX_FRAME_BYTES = 64 * 1024;
/** A client that lets this much pile up unsent is too slow to follow the streams (the default cap, slow-consumers.ts). */
export const MAX_BUFFERED_BYTES = DEFAULT_MAX_BUFFERED_PER_CONNECTION;

const HUB_NAME = 'c3';
/** Every push names the hub in this spelling, as the real service did. */
const PUSH_HUB = 'C3';
const ONLY_WEBSOCKETS = 'This hub serves the webSockets transport only: open a WebSocket to {base}/connect.';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An error message when connectionData names a hub other than c3 or is malformed; undefined when acceptable. */
function connectionDataProblem(raw: string | null): string | undefined {
  if (raw === null || raw === '') return undefined;
  let hubs: unknown;
  try {
    hubs = parseWireJson(raw);
  } catch {
    return `connectionData is not JSON: ${raw.slice(0, 100)}`;
  }
  if (!Array.isArray(hubs)) return 'connectionData must be a JSON array such as [{"name":"c3"}]';
  for (const h of hubs) {
    const name: unknown = isRecord(h) ? h.name : undefined;
    if (typeof name !== 'string') return 'connectionData entries must be objects with a name';
    if (name.toLowerCase() !== HUB_NAME) return `'${name}' Hub could not be resolved.`;
  }
  return undefined;
}

/** Serves the classic flavour under one base path (e.g. `/signalr`). */
export class ClassicHubEndpoint {
  readonly basePath: string;
  readonly #hub: Hub;
  readonly #tokens = new ConnectionTokens();
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: CLASSIC_MAX_FRAME_BYTES });
  readonly #sockets = new Map<string, { ws: WebSocket; handle: HubConnectionHandle }>();
  readonly #keepAlive: TimerHandle;

  constructor(hub: Hub, basePath: string) {
    this.#hub = hub;
    this.basePath = basePath.replace(/\/+$/, '');
    this.#keepAlive = hub.clock.setInterval(() => {
      for (const { ws } of this.#sockets.values()) if (ws.readyState === ws.OPEN) ws.send('{}');
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
        const problem = connectionDataProblem(url.searchParams.get('connectionData'));
        if (problem) return replyText(res, 400, problem);
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
    const problem = connectionDataProblem(q.get('connectionData'));
    if (problem) return refuseUpgrade(socket, 400, problem);
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#accept(ws, connectionId));
  }

  /** Stop keep-alives and drop every socket. */
  close(): void {
    this.#keepAlive.cancel();
    for (const { ws } of this.#sockets.values()) ws.terminate();
    this.#sockets.clear();
    this.#wss.close();
  }

  #accept(ws: WebSocket, connectionId: string): void {
    let cursor = 0;
    const prefix = `d-${connectionId.slice(0, 8).toUpperCase()}-B,0|`;
    const nextCursor = (): string => prefix + (++cursor).toString(16).toUpperCase();
    // The init frame must be the socket's first frame, before the hub can push anything.
    ws.send(JSON.stringify({ C: nextCursor(), S: 1, M: [] }));
    const handle = this.#hub.open(connectionId, 'classic', {
      push: (target, argsJson) => {
        if (ws.readyState !== ws.OPEN) return;
        if (this.#hub.slowConsumers.tooSlow(ws)) return void ws.terminate();
        ws.send(`{"C":${JSON.stringify(nextCursor())},"M":[{"H":"${PUSH_HUB}","M":${JSON.stringify(target)},"A":${argsJson}}]}`);
      },
      terminate: () => ws.terminate(),
    });
    this.#sockets.set(connectionId, { ws, handle });
    this.#hub.slowConsumers.add(ws);
    ws.on('message', (data) => guardConnection(ws, this.#hub.reportInternalError, `classic hub connection ${connectionId}`, () => this.#onFrame(ws, handle, messageText(data))));
    ws.on('error', () => {
      // ws reports protocol violations (e.g. a frame over maxPayload) here and then closes; 'close' cleans up.
    });
    ws.on('close', () => {
      this.#hub.slowConsumers.delete(ws);
      handle.closed();
      if (this.#sockets.get(connectionId)?.ws === ws) this.#sockets.delete(connectionId);
    });
  }

  #onFrame(ws: WebSocket, handle: HubConnectionHandle, text: string): void {
    const reply = (frame: object): void => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
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
    if (typeof frame.H !== 'string' || frame.H.toLowerCase() !== HUB_NAME) {
      return reply({ I, E: `'${typeof frame.H === 'string' ? frame.H : previewJson(frame.H)}' Hub could not be resolved.` });
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
      const message = err instanceof HubMethodError ? err.message : `internal error in ${frame.M}`;
      return reply({ I, E: message });
    }
    reply({ R, I });
  }
}
