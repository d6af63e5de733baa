/**
 * Answering what Node's HTTP parser refuses before any handler sees it (an unknown or lower-case method, a request
 * line plus headers over the 16 KiB limit, broken chunked framing, a request that never finished arriving). Node's
 * default reply is a bare `400 Bad Request` or `431 Request Header Fields Too Large` with no body; the simulator
 * answers like every other refusal — a JSON `{code, detail}` saying what was wrong and where — with the same
 * statuses, then closes the connection (the parser cannot find the next request on it).
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** Node's HTTP parse error: `code` like `HPE_INVALID_METHOD`, `reason` in words, `rawPacket` what had arrived. */
type ClientError = Error & { code?: string; reason?: string; rawPacket?: Buffer };

/** Default `maxHeaderSize` of node:http (request line + headers). */
const MAX_HEADER_BYTES = 16 * 1024;

function firstLine(packet: Buffer | undefined): string {
  if (!packet || packet.length === 0) return '';
  const line = packet.subarray(0, 200).toString('latin1').split(/\r?\n/)[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
}

function describe(err: ClientError): { status: number; code: string; detail: string } {
  const where = firstLine(err.rawPacket);
  const at = where ? ` in ${JSON.stringify(where)}` : '';
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'BAD_REQUEST', detail: `request line and headers exceed ${MAX_HEADER_BYTES} bytes${at}` };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, code: 'PAYLOAD_TOO_LARGE', detail: 'chunk extensions too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'BAD_REQUEST', detail: 'the request did not arrive completely in time' };
    case 'HPE_INVALID_METHOD':
      return { status: 400, code: 'BAD_REQUEST', detail: `unknown HTTP method (methods are upper-case: GET, POST, DELETE, HEAD)${at}` };
    default:
      return { status: 400, code: 'BAD_REQUEST', detail: `malformed HTTP request: ${err.reason ?? err.message}${at}` };
  }
}

/**
 * A `clientError` listener for a node:http server: a JSON refusal, then the connection is closed. When a complete
 * request pipelined before the bad one is still being answered, its response goes out first, so it is not lost;
 * when the broken request is the one being answered (its body never arrived whole), the socket is dropped as Node
 * does (its handler reports the incomplete body itself).
 *
 * @example
 * server.on('clientError', answerClientError);
 */
export function answerClientError(err: ClientError, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const { status, code, detail } = describe(err);
  const body = JSON.stringify({ code, detail });
  const reply =
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
    'Connection: close\r\n' +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  // Node keeps the response being written on the socket (an internal field, null when none is in flight).
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (!inFlight) {
    socket.end(reply);
    return;
  }
  if (!inFlight.req.complete) {
    if (!inFlight.headersSent) socket.write(reply);
    socket.destroy();
    return;
  }
  let refused = false;
  const refuse = (): void => {
    if (refused) return;
    refused = true;
    if (socket.writable) socket.end(reply);
    else socket.destroy();
  };
  inFlight.once('finish', refuse);
  inFlight.once('close', refuse);
}
