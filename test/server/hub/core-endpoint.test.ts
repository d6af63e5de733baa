import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { KEYS, RawCoreClient, authArgs, useTestHub } from './hub-test-kit.js';

const hub = useTestHub();

async function opened(): Promise<RawCoreClient> {
  const c = new RawCoreClient(hub.srv.coreUrl);
  expect(await c.open()).toEqual({});
  return c;
}

describe('ASP.NET Core flavour', () => {
  it('negotiate answers version 1 with a token and WebSockets, and no ProtocolVersion', async () => {
    const res = await fetch(`${hub.srv.coreUrl}/negotiate?negotiateVersion=1`, { method: 'POST' });
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      negotiateVersion: 1,
      availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text', 'Binary'] }],
    });
    expect(typeof body.connectionId).toBe('string');
    expect(typeof body.connectionToken).toBe('string');
    expect(body).not.toHaveProperty('ProtocolVersion');
    expect((await fetch(`${hub.srv.coreUrl}/negotiate`)).status).toBe(405);
  });

  it('serves the hub methods as Completions and pings every 15 s', async () => {
    const c = await opened();
    expect(await c.invoke('IsAuthenticated', [])).toEqual({ type: 3, invocationId: '1', result: false });
    expect(await c.invoke('authenticate', authArgs(KEYS.master, hub.clock.now(), { upper: true }))).toMatchObject({
      result: { Success: true, ErrorCode: null },
    });
    expect((await c.invoke('Subscribe', [['order', 'nope']])).result).toEqual([
      { Success: true, ErrorCode: null },
      { Success: false, ErrorCode: 'INVALID_CHANNEL' },
    ]);
    c.records.take();
    await hub.clock.advance(15_000);
    await c.barrier();
    expect(c.records.take().filter((r) => r.type === 6)).toEqual([{ type: 6 }]);
    c.close();
  });

  it('handles records split across and batched within WebSocket messages', async () => {
    const c = await opened();
    const a = JSON.stringify({ type: 1, invocationId: 'a', target: 'IsAuthenticated', arguments: [] }) + '\x1e';
    const b = JSON.stringify({ type: 1, invocationId: 'b', target: 'IsAuthenticated', arguments: [] }) + '\x1e';
    c.sendRaw(a.slice(0, 10));
    c.sendRaw(a.slice(10) + b);
    expect(await c.records.next((r) => r.invocationId === 'b')).toEqual({ type: 3, invocationId: 'b', result: false });
    expect(c.records.all.some((r) => r.invocationId === 'a')).toBe(true);
    c.close();
  });

  it('bad invocations get Completion errors and the connection stays open', async () => {
    const c = await opened();
    expect(await c.invoke('Nope', [])).toMatchObject({ error: expect.stringContaining("'Nope' method could not be resolved") });
    expect((await c.invoke('Subscribe', ['heartbeat'])).error).toMatch(/array of channel names/);
    c.sendRaw(JSON.stringify({ type: 1, invocationId: 'x', arguments: [] }) + '\x1e');
    expect((await c.records.next((r) => r.invocationId === 'x')).error).toMatch(/target/);
    c.sendRaw(JSON.stringify({ type: 4, invocationId: 's', target: 'Subscribe', arguments: [] }) + '\x1e');
    expect((await c.records.next((r) => r.invocationId === 's')).error).toMatch(/streaming/);
    c.sendRaw('{"type":6}\x1e');
    expect((await c.invoke('IsAuthenticated', [])).result).toBe(false);
    c.close();
  });

  it('a record that is not JSON gets a Close with the reason and drops only that connection', async () => {
    const c = await opened();
    const other = await opened();
    c.sendRaw('garbage\x1e');
    expect(await c.records.next((r) => r.type === 7)).toMatchObject({ type: 7, error: expect.stringMatching(/not JSON/) });
    await c.closed;
    expect((await other.invoke('IsAuthenticated', [])).result).toBe(false);
    other.close();
  });

  it('refuses an unsupported protocol in the handshake, and an unknown id', async () => {
    const c = new RawCoreClient(hub.srv.coreUrl);
    expect(await c.open('{"protocol":"messagepack","version":1}\x1e')).toEqual({
      error: "Requested protocol 'messagepack' is not available.",
    });
    await c.closed;

    const ws = new WebSocket(`${hub.srv.coreUrl.replace('http', 'ws')}?id=unknown`);
    ws.on('error', () => undefined);
    const status = await new Promise<number>((resolve) => ws.on('unexpected-response', (_q, r) => resolve(r.statusCode ?? 0)));
    expect(status).toBe(404);
    ws.terminate();
  });

  it('accepts a client that skipped negotiation', async () => {
    const ws = new WebSocket(hub.srv.coreUrl.replace('http', 'ws'));
    await new Promise((r) => ws.once('open', r));
    const reply = new Promise<string>((r) => ws.once('message', (d) => r(String(d))));
    ws.send('{"protocol":"json","version":1}\x1e');
    expect(await reply).toBe('{}\x1e');
    expect(hub.srv.hub.connections().filter((x) => x.flavour === 'core').length).toBeGreaterThanOrEqual(1);
    ws.terminate();
  });
});
