import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { VirtualClock } from '../../../src/core/clock.js';
import { attachHub, type AttachedHub } from '../../../src/server/hub/attach-hub.js';
import { Hub } from '../../../src/server/hub/hub.js';
import { RawClassicClient, RawCoreClient, testBackend } from './hub-test-kit.js';

let server: Server;
let hub: Hub;
let attached: AttachedHub;
let origin: string;
const restSaw: string[] = [];

beforeAll(async () => {
  // A REST handler that answers everything, registered before the hub and another one after it.
  server = createServer((req, res) => {
    restSaw.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{"rest":true}');
  });
  hub = new Hub({ backend: testBackend(), clock: new VirtualClock(0) });
  attached = attachHub(server, hub, { classicPath: '/signalr/', corePath: 'hub' });
  server.on('request', (req) => restSaw.push(`late:${req.url ?? ''}`));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  hub.stop();
  attached.detach();
  await new Promise((r) => server.close(r));
});

describe('attachHub on a shared server', () => {
  it('claims hub paths for itself and leaves every other request to the other handlers', async () => {
    const c = new RawClassicClient(`${origin}/signalr`);
    await c.open();
    const k = new RawCoreClient(`${origin}/hub`);
    await k.open();
    expect(await (await fetch(`${origin}/v3/ping`)).json()).toEqual({ rest: true });
    expect(await (await fetch(`${origin}/hubx`)).json()).toEqual({ rest: true });
    expect(restSaw).toEqual(['/v3/ping', 'late:/v3/ping', '/hubx', 'late:/hubx']);
    expect(hub.connections().map((x) => x.flavour).sort()).toEqual(['classic', 'core']);
    c.close();
    k.close();
  });

  it('refuses WebSocket upgrades on other paths when nobody else takes them', async () => {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/elsewhere`);
    ws.on('error', () => undefined);
    const status = await new Promise<number>((resolve) => ws.on('unexpected-response', (_q, r) => resolve(r.statusCode ?? 0)));
    expect(status).toBe(404);
    ws.terminate();
  });

  it('refuses overlapping paths', () => {
    const s = createServer();
    expect(() => attachHub(s, hub, { classicPath: '/a', corePath: '/a/b' })).toThrow(/overlap/);
  });
});
