import { afterEach, describe, expect, it } from 'vitest';
import { decodePayload } from '../../../src/bittrex/hub/codec.js';
import { KEYS, RawClassicClient, RawCoreClient, authArgs, useTestHub } from './hub-test-kit.js';

const open: { close(): void }[] = [];

const hub = useTestHub();
afterEach(() => {
  for (const c of open.splice(0)) c.close();
  hub.srv.hub.faults.set({});
});

async function classic(key?: { apiKey: string; secret: string }): Promise<RawClassicClient> {
  const c = new RawClassicClient(hub.srv.classicUrl);
  open.push(c);
  await c.open();
  if (key) expect((await c.invoke('Authenticate', authArgs(key, hub.clock.now()))).R).toEqual({ Success: true, ErrorCode: null });
  return c;
}

async function core(): Promise<RawCoreClient> {
  const c = new RawCoreClient(hub.srv.coreUrl);
  open.push(c);
  await c.open();
  return c;
}

/** Decoded payloads of the pushes named `method` since the last look. */
function payloads(c: RawClassicClient, method: string): unknown[] {
  return c
    .pushes()
    .filter((p) => p.M === method)
    .map((p) => decodePayload(p.A[0] as string));
}

describe('publish', () => {
  it('reaches every subscriber of a public channel in both flavours, with the payload encoded once', async () => {
    const a = await classic();
    const b = await classic();
    const k = await core();
    await a.subscribe('orderbook_BTC-USD_25');
    await k.invoke('Subscribe', [['orderbook_btc-usd_25']]);
    const msg = { marketSymbol: 'BTC-USD', depth: 25, sequence: 7, bidDeltas: [], askDeltas: [{ quantity: '1', rate: '2' }] };
    expect(hub.srv.hub.publish('orderbook_BTC-USD_25', 'orderBook', msg)).toBe(2);
    await Promise.all([a.barrier(), b.barrier(), k.barrier()]);

    const [push] = a.pushes();
    expect(push).toEqual({ H: 'C3', M: 'orderBook', A: [expect.any(String)] });
    expect(decodePayload(push!.A[0] as string)).toEqual(msg);
    expect(b.pushes()).toEqual([]);
    const [rec] = k.pushes();
    expect(rec).toEqual({ type: 1, target: 'orderBook', arguments: [push!.A[0]] });
  });

  it('private channels reach only connections authenticated as the account', async () => {
    const master = await classic(KEYS.master);
    const other = await classic(KEYS.other);
    expect(await master.subscribe('balance')).toEqual([{ Success: true, ErrorCode: null }]);
    await other.subscribe('balance');
    hub.srv.hub.publish('balance', 'balance', { accountId: KEYS.master.accountId, sequence: 1 }, { accountId: KEYS.master.accountId });
    hub.srv.hub.publish('balance', 'balance', { accountId: KEYS.other.accountId, sequence: 9 }, { accountId: KEYS.other.accountId });
    await Promise.all([master.barrier(), other.barrier()]);
    expect(payloads(master, 'balance')).toEqual([{ accountId: KEYS.master.accountId, sequence: 1 }]);
    expect(payloads(other, 'balance')).toEqual([{ accountId: KEYS.other.accountId, sequence: 9 }]);
  });

  it('subaccounts_* channels reach only masters managing the account', async () => {
    const master = await classic(KEYS.master);
    const other = await classic(KEYS.other);
    await master.subscribe('subaccounts_order');
    await other.subscribe('subaccounts_order');
    hub.srv.hub.publish('subaccounts_order', 'order', { accountId: KEYS.sub.accountId, sequence: 3 }, { accountId: KEYS.sub.accountId });
    await Promise.all([master.barrier(), other.barrier()]);
    expect(payloads(master, 'order')).toEqual([{ accountId: KEYS.sub.accountId, sequence: 3 }]);
    expect(payloads(other, 'order')).toEqual([]);
  });

  it('refuses to publish on unknown channels or private ones without an account', () => {
    expect(() => hub.srv.hub.publish('bogus', 'x', {})).toThrow(/not a channel/);
    expect(() => hub.srv.hub.publish('order', 'order', {})).toThrow(/needs opts.accountId/);
  });
});

describe('authentication lifetime (virtual time)', () => {
  it('warns at 9 minutes, cancels private subscriptions at 10, and re-authenticating extends', async () => {
    const c = await classic(KEYS.master);
    await c.subscribe('order', 'subaccounts_balance', 'heartbeat');
    const info = () => hub.srv.hub.connections().find((x) => x.id === c.connectionId)!;
    expect(info().authExpiresAt).toBe(hub.clock.now() + 600_000);

    await hub.clock.advance(9 * 60_000 - 1);
    await c.barrier();
    expect(c.pushes().filter((p) => p.M === 'authenticationExpiring')).toEqual([]);
    await hub.clock.advance(1);
    await c.barrier();
    expect(c.pushes().filter((p) => p.M === 'authenticationExpiring')).toEqual([{ H: 'C3', M: 'authenticationExpiring', A: [] }]);

    // Renew 30 s before expiry: the 10-minute mark passes without losing anything.
    await hub.clock.advance(30_000);
    expect((await c.invoke('Authenticate', authArgs(KEYS.master, hub.clock.now()))).R).toEqual({ Success: true, ErrorCode: null });
    await hub.clock.advance(60_000);
    expect(info().subscriptions).toEqual(['order', 'subaccounts_balance', 'heartbeat']);
    expect((await c.invoke('IsAuthenticated', [])).R).toBe(true);

    // Without renewal the new authentication ends 10 minutes after it began.
    await hub.clock.advance(9 * 60_000);
    await c.barrier();
    expect(info().subscriptions).toEqual(['heartbeat']);
    expect(info().accountId).toBeUndefined();
    expect((await c.invoke('IsAuthenticated', [])).R).toBe(false);
    hub.srv.hub.publish('order', 'order', { sequence: 1 }, { accountId: KEYS.master.accountId });
    await c.barrier();
    expect(c.pushes().filter((p) => p.M === 'order')).toEqual([]);
  });

  it('expireAuth forces the expiry now', async () => {
    const c = await classic(KEYS.master);
    await c.subscribe('execution', 'trade_BTC-USD');
    hub.srv.hub.expireAuth(c.connectionId);
    expect((await c.invoke('IsAuthenticated', [])).R).toBe(false);
    expect(hub.srv.hub.connections().find((x) => x.id === c.connectionId)?.subscriptions).toEqual(['trade_BTC-USD']);
  });
});

describe('heartbeat (virtual time)', () => {
  it('sends an empty heartbeat every 5 s to heartbeat subscribers only', async () => {
    const hb = await classic();
    const quiet = await classic();
    const k = await core();
    await hb.subscribe('heartbeat');
    await k.invoke('Subscribe', [['heartbeat']]);
    await Promise.all([hb.barrier(), quiet.barrier()]);
    hb.pushes();
    quiet.pushes();
    k.pushes();
    await hub.clock.advance(15_000);
    await Promise.all([hb.barrier(), quiet.barrier(), k.barrier()]);
    expect(hb.pushes()).toEqual(Array(3).fill({ H: 'C3', M: 'heartbeat', A: [] }));
    expect(quiet.pushes()).toEqual([]);
    expect(k.pushes()).toEqual(Array(3).fill({ type: 1, target: 'heartbeat', arguments: [] }));

    hub.srv.hub.faults.set({ stallHeartbeat: true });
    await hub.clock.advance(15_000);
    await hb.barrier();
    expect(hb.pushes()).toEqual([]);
  });
});

describe('fault injection', () => {
  async function run(faults: Parameters<typeof hub.srv.hub.faults.set>[0], n = 40): Promise<number[]> {
    const c = await classic();
    await c.subscribe('trade_ETH-BTC');
    c.pushes();
    hub.srv.hub.faults.set(faults);
    for (let i = 0; i < n; i++) hub.srv.hub.publish('trade_ETH-BTC', 'trade', { sequence: i });
    hub.srv.hub.faults.set({}); // releases a push still held back for reordering
    // The dice are one stream per hub rolled per recipient: leave no subscriber behind for the next run.
    await c.invoke('Unsubscribe', [['trade_ETH-BTC']]);
    return payloads(c, 'trade').map((p) => (p as { sequence: number }).sequence);
  }

  it('drop, duplicate and reorder are exact at rate 1', async () => {
    expect(await run({ dropRate: 1 }, 5)).toEqual([]);
    expect(await run({ duplicateRate: 1 }, 3)).toEqual([0, 0, 1, 1, 2, 2]);
    expect(await run({ reorderRate: 1 }, 6)).toEqual([1, 0, 3, 2, 5, 4]);
  });

  it('the same seed gives the same faults; another seed gives others', async () => {
    const cfg = { dropRate: 0.2, duplicateRate: 0.2, reorderRate: 0.2, seed: 42 };
    const first = await run(cfg);
    const second = await run(cfg);
    const third = await run({ ...cfg, seed: 7 });
    expect(second).toEqual(first);
    expect(first).not.toEqual([...Array(40).keys()]);
    expect(third).not.toEqual(first);
  });

  it('rejects rates outside [0, 1]', () => {
    expect(() => hub.srv.hub.faults.set({ dropRate: 2 })).toThrow(RangeError);
  });

  it('close(id) and closeAll() drop sockets of both flavours', async () => {
    const a = await classic();
    const b = await classic();
    const k = await core();
    expect(hub.srv.hub.close(a.connectionId)).toBe(true);
    expect(await a.closed).toBe(1006);
    expect(hub.srv.hub.connections().some((x) => x.id === a.connectionId)).toBe(false);
    hub.srv.hub.closeAll();
    expect(await b.closed).toBe(1006);
    expect(await k.closed).toBe(1006);
    expect(hub.srv.hub.connections()).toEqual([]);
    expect(hub.srv.hub.close('nobody')).toBe(false);
  });
});
