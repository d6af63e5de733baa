/**
 * readBody collects a body with plain stream listeners, or takes it from the stream's buffer when all of its
 * Content-Length came with the request: whether the body was already received whole when it was called or is still
 * arriving, it must hand back exactly the bytes sent, whatever their size and framing (Content-Length or chunked).
 */
import { IncomingMessage, request as httpRequest, createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/prng.js';
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

describe('readBody of a body that arrived whole', () => {
  it('takes it from the buffer without listeners, answering the bytes the listeners answer when it trickles in', async () => {
    const got: { body: Buffer; listeners: string[] }[] = [];
    /** Told of each listener the server's request adds (the split exchange waits for 'data'). */
    let onListen: ((event: string) => void) | undefined;
    const srv = createServer((req, res) => {
      const listeners: string[] = [];
      const on = req.on.bind(req);
      req.on = ((event: string, fn: (...a: unknown[]) => void) => (listeners.push(event), onListen?.(event), on(event, fn))) as typeof req.on;
      void readBody(req).then((body) => {
        got.push({ body, listeners });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const srvPort = (srv.address() as AddressInfo).port;
    /**
     * One request over its own connection: in one write, or (`split`) its head first and its body once the server
     * listens for it (not after a fixed pause: on a busy machine the body could arrive before the server looked).
     */
    const exchange = (body: Buffer, split: boolean) =>
      new Promise<void>((resolve, reject) => {
        const head = Buffer.from(`POST /x HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`);
        const sock = connect(srvPort, '127.0.0.1', () => {
          if (split) {
            onListen = (event) => {
              if (event !== 'data') return;
              onListen = undefined;
              sock.write(body);
            };
            sock.write(head);
          } else sock.write(Buffer.concat([head, body]));
        });
        sock.on('error', reject);
        sock.on('close', () => resolve());
        sock.resume();
      });
    const rnd = mulberry32(9);
    try {
      for (let i = 0; i < 12; i++) {
        const n = i === 0 ? 0 : Math.floor(rnd() * 3000);
        const body = Buffer.from(Array.from({ length: n }, () => Math.floor(rnd() * 256)));
        got.length = 0;
        await exchange(body, false);
        if (n > 0) await exchange(body, true);
        expect(got[0]!.body.equals(body)).toBe(true);
        expect(got[0]!.listeners).not.toContain('data');
        if (n > 0) {
          expect(got[1]!.body.equals(body)).toBe(true);
          expect(got[1]!.listeners).toContain('data');
        }
      }
    } finally {
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });
});
