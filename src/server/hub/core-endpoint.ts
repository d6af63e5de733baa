/**
 * ASP.NET Core SignalR wire flavour of the hub (JSON hub protocol v1, WebSockets only), which is what
 * `@microsoft/signalr` clients speak: POST {base}/negotiate?negotiateVersion=1, WebSocket {base}?id=token, a
 * `{"protocol":"json","version":1}` handshake, then records ended by 0x1e — 1 Invocation, 3 Completion,
 * 6 Ping, 7 Close.
 *
 * An invocation that cannot be served gets a Completion with `error` and the connection stays open. Text that is
 * not a JSON record at all, or a record without an integer `type` or with a non-string `invocationId`, breaks the
 * protocol, so (as ASP.NET Core does) the server answers with a Close record carrying the reason and closes that
 * one connection. Records of unknown integer types are ignored, as the protocol lets future types be.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { TimerHandle } from '../../core/clock.js';
import { ConnectionTokens } from './connection-tokens.js';
import { parseWireJson, previewJson } from '../../core/wire-json.js';
import { guardConnection, messageText, refuseUpgrade, replyJson, replyText } from './http-replies.js';
import { HubMethodError } from './hub-types.js';
import type { Hub, HubConnectionHandle } from './hub.js';

/** The record separator of the SignalR JSON protocol. */
export const RS = '\x1e';
/** Server pings go out this often; `@microsoft/signalr` gives up after 30 s of server silence. */
export const CORE_PING_INTERVAL_MS = 15_000;
/** Largest client message (and unterminated record) accepted. */
export const CORE_MAX_MESSAGE_BYTES = 64 * 1024;

const PING = `{"type":6}${RS}`;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

interface CoreSocket {
  ws: WebSocket;
  handle: HubConnectionHandle | undefined;
  /** Text received after the last separator, waiting for the rest of its record. */
  partial: string;
}

/** Serves the ASP.NET Core flavour at one path (e.g. `/hub`). */
export class CoreHubEndpoint {
  readonly basePath: string;
  readonly #hub: Hub;
  readonly #tokens = new ConnectionTokens();
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: CORE_MAX_MESSAGE_BYTES });
  readonly #sockets = new Set<CoreSocket>();
  readonly #ping: TimerHandle;

  constructor(hub: Hub, basePath: string) {
    this.#hub = hub;
    this.basePath = basePath.replace(/\/+$/, '');
    this.#ping = hub.clock.setInterval(() => {
      for (const s of this.#sockets) if (s.handle) hub.slowConsumers.send(s.ws, PING);
    }, CORE_PING_INTERVAL_MS);
  }

  /** True when a request path belongs to this endpoint. */
  owns(pathname: string): boolean {
    return pathname === this.basePath || pathname.startsWith(`${this.basePath}/`);
  }

  /** Serve negotiate; refuse the HTTP transports (long polling, server-sent events) with a clear reason. */
  handleRequest(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (url.pathname === `${this.basePath}/negotiate`) {
      if (req.method !== 'POST') return replyText(res, 405, 'negotiate takes POST', { Allow: 'POST' });
      req.resume();
      const { connectionId, connectionToken } = this.#tokens.issue();
      return replyJson(res, 200, {
        negotiateVersion: 1,
        connectionId,
        connectionToken,
        availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text', 'Binary'] }],
      });
    }
    if (url.pathname === this.basePath) {
      return replyText(res, 400, 'This hub serves the WebSockets transport only.');
    }
    return replyText(res, 404, `no SignalR route ${url.pathname} (negotiate, or a WebSocket to ${this.basePath})`);
  }

  /** Accept a WebSocket at the base path: with a negotiated `id`, or with none when the client skipped negotiate. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): void {
    if (url.pathname !== this.basePath) {
      return refuseUpgrade(socket, 404, `no WebSocket route ${url.pathname}; use ${this.basePath}`);
    }
    const token = url.searchParams.get('id');
    const connectionId = token === null ? this.#tokens.issue().connectionId : this.#tokens.verify(token);
    // ASP.NET Core answers 404 for an id it does not know; clients then negotiate again.
    if (!connectionId) return refuseUpgrade(socket, 404, 'No Connection with that ID');
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#accept(ws, connectionId));
  }

  /** Stop pings and drop every socket. */
  close(): void {
    this.#ping.cancel();
    for (const s of this.#sockets) s.ws.terminate();
    this.#sockets.clear();
    this.#wss.close();
  }

  #accept(ws: WebSocket, connectionId: string): void {
    const s: CoreSocket = { ws, handle: undefined, partial: '' };
    this.#sockets.add(s);
    this.#hub.slowConsumers.add(ws);
    ws.on('message', (data) => guardConnection(ws, this.#hub.reportInternalError, `core hub connection ${connectionId}`, () => this.#onMessage(s, connectionId, messageText(data))));
    ws.on('error', () => {
      // ws reports protocol violations here and then closes; 'close' cleans up.
    });
    ws.on('close', () => {
      this.#hub.slowConsumers.delete(ws);
      s.handle?.closed();
      this.#sockets.delete(s);
    });
  }

  #onMessage(s: CoreSocket, connectionId: string, text: string): void {
    s.partial += text;
    const records = s.partial.split(RS);
    s.partial = records.pop() ?? '';
    if (s.partial.length > CORE_MAX_MESSAGE_BYTES) return this.#closeWithError(s, 'record too large or missing its 0x1e separator');
    for (const record of records) {
      if (s.ws.readyState !== s.ws.OPEN) return;
      if (s.handle) this.#onRecord(s, s.handle, record);
      else this.#onHandshake(s, connectionId, record);
    }
  }

  #onHandshake(s: CoreSocket, connectionId: string, record: string): void {
    let req: unknown;
    try {
      req = parseWireJson(record);
    } catch (err) {
      return this.#handshakeError(s, `Handshake request is not acceptable JSON: ${(err as Error).message}.`);
    }
    if (!isRecord(req) || typeof req.protocol !== 'string') {
      return this.#handshakeError(s, 'Handshake request must be {"protocol":"json","version":1}.');
    }
    if (req.protocol !== 'json') return this.#handshakeError(s, `Requested protocol '${req.protocol}' is not available.`);
    if (req.version !== 1) {
      return this.#handshakeError(s, `The server does not support version ${previewJson(req.version)} of the 'json' protocol.`);
    }
    const { ws } = s;
    ws.send(`{}${RS}`);
    s.handle = this.#hub.open(connectionId, 'core', {
      push: (target, argsJson) => {
        if (ws.readyState !== ws.OPEN) return;
        this.#hub.slowConsumers.send(ws, `{"type":1,"target":${JSON.stringify(target)},"arguments":${argsJson}}${RS}`);
      },
      terminate: () => ws.terminate(),
    });
  }

  #handshakeError(s: CoreSocket, error: string): void {
    s.ws.send(JSON.stringify({ error }) + RS);
    s.ws.close(1002, 'handshake failed');
  }

  #closeWithError(s: CoreSocket, error: string): void {
    if (s.ws.readyState === s.ws.OPEN) s.ws.send(JSON.stringify({ type: 7, error, allowReconnect: true }) + RS);
    s.ws.close(1008, 'protocol error');
  }

  #onRecord(s: CoreSocket, handle: HubConnectionHandle, record: string): void {
    let msg: unknown;
    try {
      msg = parseWireJson(record);
    } catch (err) {
      return this.#closeWithError(s, `malformed record, not JSON: ${record.slice(0, 100)} (${(err as Error).message})`);
    }
    if (!isRecord(msg)) return this.#closeWithError(s, 'malformed record: expected a JSON object with a type');
    // As ASP.NET Core's JSON protocol: a record whose type or invocationId has the wrong shape cannot be answered
    // (ignoring it would leave the caller waiting for a Completion forever), so the connection closes saying why.
    if (msg.type === undefined) return this.#closeWithError(s, "malformed record: missing required property 'type'");
    if (typeof msg.type !== 'number' || !Number.isInteger(msg.type)) {
      return this.#closeWithError(s, `malformed record: 'type' must be an integer, got ${previewJson(msg.type)}`);
    }
    if (msg.invocationId !== undefined && msg.invocationId !== null && typeof msg.invocationId !== 'string') {
      return this.#closeWithError(s, `malformed record: 'invocationId' must be a string, got ${previewJson(msg.invocationId)}`);
    }
    const id = typeof msg.invocationId === 'string' ? msg.invocationId : undefined;
    const complete = (body: { result?: unknown; error?: string }): void => {
      // Completions count against the slow-consumer caps as pushes do (see slow-consumers.ts).
      if (id !== undefined && s.ws.readyState === s.ws.OPEN) {
        this.#hub.slowConsumers.send(s.ws, JSON.stringify({ type: 3, invocationId: id, ...body }) + RS);
      }
    };
    switch (msg.type) {
      case 1: {
        if (typeof msg.target !== 'string' || msg.target === '') {
          return complete({ error: 'malformed invocation: target must be a non-empty string' });
        }
        const args = msg.arguments ?? [];
        if (!Array.isArray(args)) return complete({ error: 'malformed invocation: arguments must be an array' });
        try {
          const result = handle.invoke(msg.target, args);
          return complete(result === undefined ? {} : { result });
        } catch (err) {
          if (err instanceof HubMethodError) return complete({ error: err.message });
          // A fault of ours, not of the call: the caller hears only that much, the operator all of it.
          const target = msg.target.slice(0, 64);
          this.#hub.reportInternalError(err, `core hub method ${target}`);
          return complete({ error: `internal error in ${target}` });
        }
      }
      case 4:
        return complete({ error: 'streaming invocations are not supported by this hub' });
      case 7:
        // The client is leaving on purpose: forget it now rather than when the close handshake ends.
        handle.closed();
        return void s.ws.close(1000);
      default:
        // Pings (6), cancel-invocation (5) and stateful-reconnect records (8, 9) need no answer from this hub.
        return;
    }
  }
}
