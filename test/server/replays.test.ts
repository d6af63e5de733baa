/**
 * Replays and repeated authentication failures (issue 9 item 8). A captured signed POST or DELETE is refused
 * when sent again inside the timestamp window (reads are not); Authenticate arguments accepted on one hub
 * connection are refused on another; repeated failures are slowed down per key and per connection while valid
 * requests are answered at once. Time is virtual: a held-back answer arrives when the test moves the clock.
 */
import { Client } from 'undici';
import { hmacSha512Hex } from '../../src/bittrex/rest/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { RawClassicClient, RawCoreClient, authArgs, useTestHub, KEYS } from './hub/hub-test-kit.js';
import { type SimFixture, startFixture, type TestAccount } from './sim-fixture.js';

const order = (limit: string) => JSON.stringify({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: '0.01', limit });

describe('REST replays and failed signatures', () => {
  let fx: SimFixture;
  let me: TestAccount;
  const authClock = new VirtualClock(0);
  beforeAll(async () => {
    fx = await startFixture({ server: { authFailures: { freeFailures: 2, baseDelayMs: 1_000, maxDelayMs: 1_000, clock: authClock } } });
    me = await fx.account({ USD: '100000' });
  });
  afterAll(() => fx.close());

  it('a replayed signed POST is refused and makes no second order; a replayed DELETE is refused too', async () => {
    const timestamp = fx.clock.now() - 1_000;
    const first = await fx.signed(me, 'POST', '/orders', { body: order('15000'), timestamp });
    expect(first.status).toBe(201);
    const again = await fx.signed(me, 'POST', '/orders', { body: order('15000'), timestamp });
    expect(again.status).toBe(401);
    expect(again.json).toMatchObject({ code: 'INVALID_SIGNATURE', detail: expect.stringMatching(/replay/) });
    expect(fx.engine.openOrders(me.accountId).data).toHaveLength(1);

    const id = (first.json as { id: string }).id;
    expect((await fx.signed(me, 'DELETE', `/orders/${id}`, { timestamp })).status).toBe(200);
    expect((await fx.signed(me, 'DELETE', `/orders/${id}`, { timestamp })).json).toMatchObject({ code: 'INVALID_SIGNATURE' });
  });

  it('a replay with the Api-Key spelled in another case is still a replay (keys match case-insensitively)', async () => {
    const timestamp = fx.clock.now() - 2_000;
    const body = order('15001');
    const before = fx.engine.openOrders(me.accountId).data.length;
    expect((await fx.signed(me, 'POST', '/orders', { body, timestamp })).status).toBe(201);
    // The signature does not cover Api-Key: a captured request can be resent with any spelling of it.
    for (const spelling of [me.apiKey.toUpperCase(), me.apiKey.replace(/[a-f]/, (c) => c.toUpperCase())]) {
      expect(spelling).not.toBe(me.apiKey);
      const again = await fx.signed(me, 'POST', '/orders', { body, timestamp, headers: { 'Api-Key': spelling } });
      expect(again.status).toBe(401);
      expect(again.json).toMatchObject({ code: 'INVALID_SIGNATURE', detail: expect.stringMatching(/replay/) });
    }
    expect(fx.engine.openOrders(me.accountId).data).toHaveLength(before + 1);
  });

  it('a replayed signed v1.1 order call is refused while its nonce (epoch ms) is in the window; reads and other nonces are not', async () => {
    const v1 = async (path: string, nonce: number | string, query = '') => {
      const target = `/api/v1.1${path}?${query}${query ? '&' : ''}apikey=${me.apiKey}&nonce=${nonce}`;
      const apisign = hmacSha512Hex(me.apiSecret, `${fx.origin}${target}`);
      const r = await fetch(`${fx.origin}${target}`, { headers: { apisign } });
      return (await r.json()) as { success: boolean; message: string };
    };
    const before = fx.engine.openOrders(me.accountId).data.length;
    const buy = 'market=USD-BTC&quantity=0.01&rate=15002';
    const nonce = fx.clock.now();
    expect((await v1('/market/buylimit', nonce, buy)).success).toBe(true);
    expect(await v1('/market/buylimit', nonce, buy)).toMatchObject({ success: false, message: 'INVALID_SIGNATURE' });
    expect(fx.engine.openOrders(me.accountId).data).toHaveLength(before + 1);
    // A new nonce is a new call; a read may be repeated; a nonce that is no time (v1.1 only asks for a number)
    // cannot be bounded by a window, so it is not refused.
    expect((await v1('/market/buylimit', nonce + 1, buy)).success).toBe(true);
    expect((await v1('/account/getbalances', nonce)).success).toBe(true);
    expect((await v1('/account/getbalances', nonce)).success).toBe(true);
    expect((await v1('/market/buylimit', 7, buy)).success).toBe(true);
    expect((await v1('/market/buylimit', 7, buy)).success).toBe(true);
    expect(fx.engine.openOrders(me.accountId).data).toHaveLength(before + 4);
  });

  it('reads are not tracked: the same signed GET twice is answered twice', async () => {
    const timestamp = fx.clock.now();
    expect((await fx.signed(me, 'GET', '/balances', { timestamp })).status).toBe(200);
    expect((await fx.signed(me, 'GET', '/balances', { timestamp })).status).toBe(200);
  });

  it('failures of one key past the free ones are held back; the key\'s valid requests are not', async () => {
    const bad = () => fx.signed(me, 'GET', '/balances', { headers: { 'Api-Signature': 'ab'.repeat(64) } });
    expect((await bad()).status).toBe(401);
    expect((await bad()).status).toBe(401);
    let third: number | undefined;
    const held = bad().then((a) => (third = a.status));
    // Answered at once while the bad one waits (and it still waits after this round trip).
    expect((await fx.signed(me, 'GET', '/balances')).status).toBe(200);
    expect(third).toBeUndefined();
    await authClock.advance(1_000);
    await held;
    expect(third).toBe(401);
  });

  it('failures on one connection are held back even with a different unknown key each time', async () => {
    const client = new Client(fx.origin, { pipelining: 1 });
    try {
      const unknown = (i: number) => client.request({ method: 'GET', path: '/v3/balances', headers: { 'Api-Key': `nope-${i}`, 'Api-Timestamp': String(fx.clock.now()), 'Api-Content-Hash': 'x', 'Api-Signature': 'y' } }).then(async (r) => (await r.body.text(), r.statusCode));
      expect(await unknown(1)).toBe(401);
      expect(await unknown(2)).toBe(401);
      let third: number | undefined;
      const held = unknown(3).then((s) => (third = s));
      expect((await fx.signed(me, 'GET', '/balances')).status).toBe(200);
      expect(third).toBeUndefined();
      await authClock.advance(1_000);
      await held;
      expect(third).toBe(401);
    } finally {
      await client.close();
    }
  });
});

describe('hub Authenticate replays and failures', () => {
  const hub = useTestHub({ startMs: Date.now() });
  const now = () => hub.clock.now();

  it('arguments accepted on one connection are refused on another; fresh ones are accepted', async () => {
    const a = new RawClassicClient(hub.srv.classicUrl);
    await a.open();
    const args = authArgs(KEYS.master, now());
    expect((await a.invoke('Authenticate', args)).R).toEqual({ Success: true, ErrorCode: null });
    const b = new RawCoreClient(hub.srv.coreUrl);
    await b.open();
    expect((await b.invoke('Authenticate', args)).result).toEqual({ Success: false, ErrorCode: 'INVALID_SIGNATURE' });
    expect((await b.invoke('IsAuthenticated', [])).result).toBe(false);
    expect((await b.invoke('Authenticate', authArgs(KEYS.master, now()))).result).toEqual({ Success: true, ErrorCode: null });
    a.close();
    b.close();
  });

  it('after 5 failures a connection is locked (THROTTLED, even with good arguments) until the lock passes; the key owner elsewhere is not', async () => {
    const guesser = new RawClassicClient(hub.srv.classicUrl);
    await guesser.open();
    const wrong = { ...KEYS.other, secret: 'wrong' };
    for (let i = 0; i < 5; i++) expect((await guesser.invoke('Authenticate', authArgs(wrong, now()))).R).toEqual({ Success: false, ErrorCode: 'INVALID_SIGNATURE' });
    expect((await guesser.invoke('Authenticate', authArgs(KEYS.other, now()))).R).toEqual({ Success: false, ErrorCode: 'THROTTLED' });
    // The key is locked too, but a connection that never failed may still authenticate as its owner.
    const owner = new RawCoreClient(hub.srv.coreUrl);
    await owner.open();
    expect((await owner.invoke('Authenticate', authArgs(KEYS.other, now()))).result).toEqual({ Success: true, ErrorCode: null });
    await hub.clock.advance(1_000);
    expect((await guesser.invoke('Authenticate', authArgs(KEYS.other, now()))).R).toEqual({ Success: true, ErrorCode: null });
    guesser.close();
    owner.close();
  });
});
