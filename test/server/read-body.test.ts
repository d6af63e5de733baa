/**
 * readBody collects a body with plain stream listeners: whether the body was already received whole when it was
 * called or is still arriving, it must hand back exactly the bytes sent, whatever their size and framing
 * (Content-Length or chunked).
 */
import { IncomingMessage, request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBody } from '../../src/server/rest/body.js';

interface Seen {
  completeAtRead: boolean;
  body: Buffer;
}

let server: Server;
let port = 0;
/** What the next request should do before reading: wait for the whole message, or read at once. */
let waitForComplete = true;
/** Called when a request's headers arrived (the trickling client then sends the rest). */
let onArrived: () => void = () => {};
const seen: Seen[] = [];

/** Wait until the whole message arrived, or until the request's buffer is full (the parser then waits for a reader). */
async function whenComplete(req: IncomingMessage): Promise<void> {
  while (!req.complete && req.readableLength < req.readableHighWaterMark) await new Promise((r) => setImmediate(r));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void (async () => {
      if (waitForComplete) await whenComplete(req);
      const completeAtRead = req.complete;
      const read = readBody(req);
      onArrived();
      const body = await read;
      seen.push({ completeAtRead, body });
      res.end('ok');
    })();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/**
 * Send `body` in `parts` writes, chunked or with a length: all at once, or (`trickle`) the first part, then the
 * others once the server started reading.
 */
function send(body: Buffer, parts: number, chunked: boolean, trickle: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = chunked ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': body.length };
    const req = httpRequest({ port, host: '127.0.0.1', method: 'POST', path: '/x', headers }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    const size = Math.ceil(body.length / parts) || 1;
    const pieces: Buffer[] = [];
    for (let i = 0; i < body.length; i += size) pieces.push(body.subarray(i, i + size));
    const rest = () => {
      for (const p of pieces.slice(1)) req.write(p);
      req.end();
    };
    req.flushHeaders();
    if (pieces.length > 0) req.write(pieces[0]!);
    onArrived = trickle ? () => ((onArrived = () => {}), rest()) : () => {};
    if (!trickle) rest();
  });
}

const bodies = [0, 1, 150, 4096, 70_000].map((n) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7 + 3) % 256)));

describe('readBody', () => {
  for (const chunked of [false, true]) {
    it(`returns the bytes sent, received whole or still arriving (${chunked ? 'chunked' : 'Content-Length'})`, async () => {
      for (const body of bodies) {
        for (const [wait, parts] of [[true, 1], [true, 3], [false, 3]] as const) {
          waitForComplete = wait;
          seen.length = 0;
          await send(body, parts, chunked, !wait);
          expect(seen).toHaveLength(1);
          expect(seen[0]!.body.equals(body), `${body.length} bytes in ${parts}, wait ${wait}`).toBe(true);
          // The case is what it says: a whole message when waited for; a trickled one was still arriving.
          if (wait && body.length < 16_384) expect(seen[0]!.completeAtRead).toBe(true);
          else if (body.length > 0) expect(seen[0]!.completeAtRead).toBe(false);
        }
      }
    });
  }
});

describe('readBody on a finished request', () => {
  it('answers an empty body for a request already read to its end, and refuses one already destroyed', async () => {
    const ended = await new Promise<IncomingMessage>((resolve, reject) => {
      const srv = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.end();
          srv.close();
          resolve(req);
        });
      });
      srv.listen(0, '127.0.0.1', () => {
        const r = httpRequest({ port: (srv.address() as AddressInfo).port, host: '127.0.0.1', method: 'POST', path: '/' }, (res) => res.resume());
        r.on('error', reject);
        r.end('abc');
      });
    });
    expect(ended.readableEnded).toBe(true);
    expect((await readBody(ended)).length).toBe(0);

    const gone = new IncomingMessage(null as never);
    gone.destroy();
    await expect(readBody(gone)).rejects.toMatchObject({ status: 400, code: 'BAD_REQUEST' });
  });
});
