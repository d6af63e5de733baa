import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { KEYS, RawClassicClient, authArgs, useTestHub } from './hub-test-kit.js';

const hub = useTestHub();

async function opened(): Promise<RawClassicClient> {
  const c = new RawClassicClient(hub.srv.classicUrl);
  await c.open();
  return c;
}

describe('classic handshake', () => {
  it('negotiate answers the fields classic clients read', async () => {
    const cd = encodeURIComponent('[{"name":"c3"}]');
    const res = await fetch(`${hub.srv.classicUrl}/negotiate?clientProtocol=1.5&connectionData=${cd}&_=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      Url: '/signalr',
      KeepAliveTimeout: 20,
      TryWebSockets: true,
      ProtocolVersion: '1.5',
    });
    for (const k of ['ConnectionToken', 'ConnectionId']) expect(typeof body[k]).toBe('string');
    for (const k of ['DisconnectTimeout', 'ConnectionTimeout', 'TransportConnectTimeout', 'LongPollDelay']) {
      expect(typeof body[k]).toBe('number');
    }
  });

  it('negotiate refuses a hub other than c3', async () => {
    const cd = encodeURIComponent('[{"name":"corehub"}]');
    const res = await fetch(`${hub.srv.classicUrl}/negotiate?clientProtocol=1.5&connectionData=${cd}`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("'corehub' Hub could not be resolved.");
  });

  it('connect (with tid and _) sends the init frame first, then start, ping and abort work', async () => {
    const c = new RawClassicClient(hub.srv.classicUrl);
    const init = await c.open({ tid: '7', _: '1623635618306' });
    expect(init).toMatchObject({ S: 1, M: [] });
    expect(typeof init.C).toBe('string');
    expect(JSON.parse(c.raw[0]!)).toEqual(init);

    const start = await fetch(`${hub.srv.classicUrl}/start?${c.query()}`);
    expect(await start.json()).toEqual({ Response: 'started' });
    const ping = await fetch(`${hub.srv.classicUrl}/ping?_=1`);
    expect(await ping.json()).toEqual({ Response: 'pong' });
    expect(hub.srv.hub.connections().some((x) => x.id === c.connectionId && x.flavour === 'classic')).toBe(true);

    const abort = await fetch(`${hub.srv.classicUrl}/abort?${c.query()}`, { method: 'POST' });
    expect(abort.status).toBe(200);
    expect(await c.closed).toBe(1000);
    expect(hub.srv.hub.connections().some((x) => x.id === c.connectionId)).toBe(false);
  });

  it('refuses a bad token, a transport other than webSockets, and non-WebSocket transports', async () => {
    const bad = new WebSocket(
      `${hub.srv.classicUrl.replace('http', 'ws')}/connect?transport=webSockets&clientProtocol=1.5&connectionToken=nope`,
    );
    const status = await new Promise<number>((resolve) => bad.on('unexpected-response', (_q, r) => resolve(r.statusCode ?? 0)));
    expect(status).toBe(400);
    bad.on('error', () => undefined);
    bad.terminate();

    const start = await fetch(`${hub.srv.classicUrl}/start?transport=webSockets&connectionToken=nope`);
    expect(start.status).toBe(400);
    const lp = await fetch(`${hub.srv.classicUrl}/connect?transport=longPolling`);
    expect(lp.status).toBe(400);
    expect(await lp.text()).toContain('webSockets');
    expect((await fetch(`${hub.srv.classicUrl}/nothing`)).status).toBe(404);
    expect((await fetch(`${hub.srv.classicUrl}/abort`, { method: 'GET' })).status).toBe(405);
  });

  it('reconnect with the same token is accepted like connect and replaces the old socket', async () => {
    const c = await opened();
    const q = new URLSearchParams({ transport: 'webSockets', clientProtocol: '1.5', connectionToken: c.token });
    const again = new WebSocket(`${hub.srv.classicUrl.replace('http', 'ws')}/reconnect?${q}`);
    const first = await new Promise<string>((resolve) => again.once('message', (d) => resolve(String(d))));
    expect(JSON.parse(first)).toMatchObject({ S: 1 });
    await c.closed;
    expect(hub.srv.hub.connections().filter((x) => x.id === c.connectionId)).toHaveLength(1);
    again.terminate();
  });
});

describe('classic invocations', () => {
  it('answer numeric and string ids as strings, any-case method names, before /start', async () => {
    const c = await opened();
    expect(await c.invoke('IsAuthenticated', [], 1)).toEqual({ R: false, I: '1' });
    expect(await c.invoke('isauthenticated', [], 'abc')).toEqual({ R: false, I: 'abc' });
    const sub = await c.invoke('subscribe', [['heartbeat', 'ticker_BTC-USD']], 2);
    expect(sub).toEqual({
      R: [
        { Success: true, ErrorCode: null },
        { Success: true, ErrorCode: null },
      ],
      I: '2',
    });
    expect((await c.invoke('UNSUBSCRIBE', [['ticker_BTC-USD']], '3')).R).toEqual([{ Success: true, ErrorCode: null }]);
    expect(hub.srv.hub.connections().find((x) => x.id === c.connectionId)?.subscriptions).toEqual(['heartbeat']);
    c.close();
  });

  it('validates channel names', async () => {
    const c = await opened();
    const r = await c.subscribe(
      'orderbook_BTC-USD_25',
      'orderbook_BTC-USD_10',
      'candle_ETH-BTC_MINUTE_5',
      'nonsense',
      'ticker_NOPE-USD',
      'balance',
      'subaccounts_order',
    );
    expect(r).toEqual([
      { Success: true, ErrorCode: null },
      { Success: false, ErrorCode: 'INVALID_CHANNEL' },
      { Success: true, ErrorCode: null },
      { Success: false, ErrorCode: 'INVALID_CHANNEL' },
      { Success: false, ErrorCode: 'MARKET_DOES_NOT_EXIST' },
      { Success: false, ErrorCode: 'UNAUTHORIZED_USER' },
      { Success: false, ErrorCode: 'UNAUTHORIZED_USER' },
    ]);
    c.close();
  });

  it('Authenticate accepts lower- and upper-case signatures, number or string timestamps', async () => {
    const c = await opened();
    expect((await c.invoke('Authenticate', authArgs(KEYS.master, hub.clock.now()))).R).toEqual({ Success: true, ErrorCode: null });
    expect((await c.invoke('IsAuthenticated', [])).R).toBe(true);
    const d = await opened();
    const upper = authArgs(KEYS.other, hub.clock.now() - 1000, { upper: true, asString: true });
    expect((await d.invoke('authenticate', upper)).R).toEqual({ Success: true, ErrorCode: null });
    expect(hub.srv.hub.connections().find((x) => x.id === d.connectionId)?.accountId).toBe(KEYS.other.accountId);
    c.close();
    d.close();
  });

  it('Authenticate refuses a bad key, a bad signature and a stale timestamp, and keeps the connection', async () => {
    const c = await opened();
    const badKey = authArgs({ apiKey: 'who', secret: 'x' }, hub.clock.now());
    expect((await c.invoke('Authenticate', badKey)).R).toEqual({ Success: false, ErrorCode: 'INVALID_APIKEY' });
    const badSig = authArgs({ apiKey: KEYS.master.apiKey, secret: 'wrong' }, hub.clock.now());
    expect((await c.invoke('Authenticate', badSig)).R).toEqual({ Success: false, ErrorCode: 'INVALID_SIGNATURE' });
    const stale = authArgs(KEYS.master, hub.clock.now() - 6 * 60_000);
    expect((await c.invoke('Authenticate', stale)).R).toEqual({ Success: false, ErrorCode: 'INVALID_TIMESTAMP' });
    expect((await c.invoke('IsAuthenticated', [])).R).toBe(false);
    expect(await c.subscribe('order')).toEqual([{ Success: false, ErrorCode: 'UNAUTHORIZED_USER' }]);
    c.close();
  });

  it('malformed frames, unknown methods and bad arguments get error replies; the connection lives on', async () => {
    const c = await opened();
    const other = await opened();
    c.sendRaw('not json at all');
    expect((await c.frames.next((f) => 'E' in f)).E).toMatch(/not JSON/);
    c.sendRaw('[1,2]');
    expect((await c.frames.next((f) => 'E' in f)).E).toMatch(/expected an invocation object/);
    c.sendRaw('{"H":"c3","M":"Subscribe","A":[["heartbeat"]]}');
    expect((await c.frames.next((f) => 'E' in f)).E).toMatch(/call id/);
    expect(await c.invoke('Nope', [], 5)).toEqual({ I: '5', E: expect.stringContaining("'Nope' method could not be resolved") });
    expect((await c.invoke('Subscribe', ['heartbeat'], 6)).E).toMatch(/array of channel names/);
    expect((await c.invoke('Authenticate', ['only-one'], 7)).E).toMatch(/4 arguments/);
    c.sendRaw(JSON.stringify({ H: 'c3', M: 'Subscribe', A: 'x', I: 8 }));
    expect((await c.frames.next((f) => f.I === '8')).E).toMatch(/A \(arguments\) must be an array/);
    c.sendRaw(JSON.stringify({ H: 'other', M: 'Subscribe', A: [], I: 9 }));
    expect((await c.frames.next((f) => f.I === '9')).E).toBe("'other' Hub could not be resolved.");
    // Still fully usable, and the other client never noticed.
    expect(await c.subscribe('heartbeat', 42 as unknown as string)).toEqual([
      { Success: true, ErrorCode: null },
      { Success: false, ErrorCode: 'INVALID_CHANNEL' },
    ]);
    expect((await other.invoke('IsAuthenticated', [])).R).toBe(false);
    c.close();
    other.close();
  });

  it('an oversized frame drops only that connection', async () => {
    const c = await opened();
    const other = await opened();
    c.sendRaw(JSON.stringify({ H: 'c3', M: 'Subscribe', A: [['x'.repeat(100_000)]], I: 1 }));
    expect(await c.closed).toBe(1009);
    expect((await other.invoke('IsAuthenticated', [])).R).toBe(false);
    other.close();
  });

  it('sends keep-alives every KeepAliveTimeout/3 of the hub clock', async () => {
    const c = await opened();
    await c.barrier();
    c.frames.take();
    await hub.clock.advance(7_000);
    await c.barrier();
    expect(c.frames.take().filter((f) => Object.keys(f).length === 0).length).toBeGreaterThanOrEqual(1);
    c.close();
  });
});
