/**
 * Slow and many clients (issue 9 item 7): a request body trickled slower than the request timeout is cut with
 * 408; connections past the cap are closed at once and a freed place is usable again; slow hub consumers are
 * dropped when their unsent bytes together pass the total cap, while a client that keeps up is kept, and one that
 * never reads the replies to its own calls is dropped at the per-connection cap. Small limits
 * are configured; every test waits for the event, never for a duration.
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { type HubServer, startHubServer } from '../../src/server/hub/attach-hub.js';
import { RawClassicClient, RawCoreClient, testBackend } from './hub/hub-test-kit.js';
import { type SimFixture, startFixture } from './sim-fixture.js';

/** A raw socket to `port` and everything it receives until it closes. */
function rawSocket(port: number): { socket: Socket; received: () => string; closed: Promise<void>; opened: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  let data = '';
  socket.on('data', (d) => (data += d.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  const opened = new Promise<void>((r) => socket.once('connect', () => r()));
  return { socket, received: () => data, closed, opened };
}
const ping = 'GET /v3/ping HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n';

describe('slow and many clients', () => {
  const open: Array<{ close(): Promise<void> | void }> = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });

  it('a trickled request body is cut with 408 once the request timeout passes', async () => {
    const fx: SimFixture = await startFixture({ server: { requestTimeoutMs: 300 } });
    open.push(fx);
    const c = rawSocket(fx.sim.port);
    await c.opened;
    c.socket.write('POST /v3/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
    await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(c.received()).toMatch(/did not arrive completely in time/);
  });

  it('connections past the cap are closed at once; a freed place takes a new one', async () => {
    const fx = await startFixture({ server: { maxConnections: 2 } });
    open.push(fx);
    const a = rawSocket(fx.sim.port);
    const b = rawSocket(fx.sim.port);
    for (const s of [a, b]) s.socket.write(ping);
    await vi.waitFor(() => expect([a, b].map((s) => s.received().slice(0, 15))).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']));
    const third = rawSocket(fx.sim.port);
    third.socket.write(ping);
    await third.closed;
    expect(third.received()).toBe('');
    a.socket.destroy();
    await vi.waitFor(async () => {
      const n = await new Promise<number>((r, j) => fx.sim.http.getConnections((e, count) => (e ? j(e) : r(count))));
      expect(n).toBe(1);
    });
    const d = rawSocket(fx.sim.port);
    d.socket.write(ping);
    await vi.waitFor(() => expect(d.received()).toMatch(/^HTTP\/1\.1 200 OK/));
    for (const s of [b, d]) s.socket.destroy();
  });

  it('slow hub consumers are dropped when together they hold more than the total cap; a fast one is kept', async () => {
    const srv: HubServer = await startHubServer({ backend: testBackend(), clock: new VirtualClock(Date.now()), buffers: { perConnection: 512 * 1024 * 1024, total: 1024 * 1024 } });
    open.push(srv);
    const channel = 'ticker_BTC-USD';
    const clients = await Promise.all([0, 1, 2].map(async () => {
      const c = new RawClassicClient(srv.classicUrl);
      await c.open();
      expect(await c.subscribe(channel)).toEqual([{ Success: true, ErrorCode: null }]);
      return c;
    }));
    open.push({ close: () => clients.forEach((c) => c.close()) });
    const [fast, slow1, slow2] = clients as [RawClassicClient, RawClassicClient, RawClassicClient];
    // The slow ones stop reading: their server-side send buffers fill.
    for (const c of [slow1, slow2]) (c.ws as unknown as { _socket: Socket })._socket.pause();
    let n = 0;
    await vi.waitFor(() => {
      // Incompressible payloads, so the bytes really pile up.
      for (let i = 0; i < 8; i++) srv.hub.publish(channel, 'ticker', { symbol: 'BTC-USD', n: n++, pad: randomBytes(48 * 1024).toString('hex') });
      expect(srv.hub.slowConsumers.dropped).toBeGreaterThanOrEqual(1);
    }, { timeout: 20_000, interval: 20 });
    // The fast client is still there and still gets what is published.
    await fast.barrier();
    expect(fast.ws.readyState).toBe(fast.ws.OPEN);
    expect(fast.pushes().length).toBeGreaterThan(0);
  });

  // Small calls whose replies are large (each Subscribe of 1000 unknown channels answers 1000 results), from a
  // client that never reads them: the replies count against the per-connection cap as pushes do.
  for (const flavour of ['classic', 'core'] as const) {
    it(`a ${flavour} hub client that never reads the replies to its calls is dropped at the per-connection cap`, async () => {
      const srv: HubServer = await startHubServer({ backend: testBackend(), clock: new VirtualClock(Date.now()), buffers: { perConnection: 256 * 1024, total: 1024 * 1024 * 1024 } });
      open.push(srv);
      const channels = Array.from({ length: 1000 }, (_, i) => `nope_${i}`);
      let send: (id: number) => void;
      let ws: { readyState: number; OPEN: number; _socket?: Socket };
      let closed: Promise<number>;
      if (flavour === 'classic') {
        const c = new RawClassicClient(srv.classicUrl);
        await c.open();
        ws = c.ws as unknown as typeof ws;
        closed = c.closed;
        send = (id) => c.ws.send(JSON.stringify({ H: 'c3', M: 'Subscribe', A: [channels], I: id }));
        open.push({ close: () => c.close() });
      } else {
        const c = new RawCoreClient(srv.coreUrl);
        await c.open();
        ws = c.ws as unknown as typeof ws;
        closed = c.closed;
        send = (id) => c.sendRaw(JSON.stringify({ type: 1, invocationId: String(id), target: 'Subscribe', arguments: [channels] }) + '\x1e');
        open.push({ close: () => c.ws.terminate() });
      }
      ws._socket!.pause();
      let id = 0;
      await vi.waitFor(() => {
        // More calls until the kernel's buffers are full and the server's own backlog passes the cap.
        for (let i = 0; i < 20 && ws.readyState === ws.OPEN; i++) send(++id);
        expect(srv.hub.slowConsumers.dropped).toBe(1);
      }, { timeout: 30_000, interval: 20 });
      ws._socket!.resume();
      await closed;
    });
  }
});
