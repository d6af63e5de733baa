/**
 * Small HTTP helpers shared by the two hub flavours: JSON replies on requests, and refusing an upgrade on the raw
 * socket (before the WebSocket handshake there is no `ServerResponse`, only the TCP socket).
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** Answer with a JSON body. */
export function replyJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=UTF-8',
    'Content-Length': Buffer.byteLength(text),
    // Negotiate and start answers are per connection; no proxy or client may reuse them.
    'Cache-Control': 'no-cache',
  });
  res.end(text);
}

/** Answer with a plain-text error message (what SignalR servers send for refused requests). */
export function replyText(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=UTF-8',
    'Content-Length': Buffer.byteLength(message),
    ...headers,
  });
  res.end(message);
}

/** Refuse a WebSocket upgrade with an HTTP status and a plain-text reason, then close the socket. */
export function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = Buffer.from(message, 'utf8');
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: text/plain; charset=UTF-8\r\n' +
      `Content-Length: ${body.length}\r\n\r\n` +
      body.toString('utf8'),
  );
}

/** Decode a WebSocket message to text (JSON protocols may arrive in binary frames). */
export function messageText(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

/**
 * Run one connection's handler so that nothing it throws leaves the socket's event: a failure (a bug, since bad
 * input gets a protocol answer) is reported and closes that one connection (1011, internal error), never the
 * process that serves all the others.
 */
export function guardConnection(ws: { close(code: number, reason: string): void; terminate(): void }, report: (err: unknown, where: string) => void, where: string, run: () => void): void {
  try {
    run();
  } catch (err) {
    try {
      report(err, where);
    } catch {
      // A failing reporter must not undo the guard.
    }
    try {
      ws.close(1011, 'internal error');
    } catch {
      ws.terminate();
    }
  }
}
