/**
 * The HubTransport contract, run against the simulator's hub for both flavours: connect, Authenticate,
 * Subscribe, pushes, error replies, and close semantics.
 */
import { describe, expect, it } from 'vitest';
import { decodePayload } from '../../../../src/bittrex/hub/codec.js';
import { HubConnectError, HubInvocationError } from '../../../../src/bittrex/hub/transport.js';
import { KEYS, authArgs, closedEvent, recorded, takeMessages, useTestHub } from './transport-kit.js';

const hub = useTestHub();

describe.each(['classic', 'core'] as const)('%s transport', (kind) => {
  it('connects, authenticates, subscribes and receives pushes as sent', async () => {
    const r = recorded(kind, hub.srv);
    await r.t.connect();
    expect(await r.t.invoke('IsAuthenticated')).toBe(false);
    expect(await r.t.invoke('Authenticate', ...authArgs(KEYS.master, hub.clock.now()))).toEqual({ Success: true, ErrorCode: null });
    expect(await r.t.invoke('Subscribe', ['heartbeat', 'order', 'orderbook_BTC-USD_25'])).toEqual([
      { Success: true, ErrorCode: null },
      { Success: true, ErrorCode: null },
      { Success: true, ErrorCode: null },
    ]);
    const book = { marketSymbol: 'BTC-USD', depth: 25, sequence: 11, bidDeltas: [{ quantity: '0', rate: '1.5' }], askDeltas: [] };
    hub.srv.hub.publish('orderbook_BTC-USD_25', 'orderBook', book);
    hub.srv.hub.publish('order', 'order', { accountId: KEYS.master.accountId, sequence: 1 }, { accountId: KEYS.master.accountId });
    await hub.clock.advance(5_000);
    await r.t.invoke('IsAuthenticated');

    const msgs = takeMessages(r);
    expect(msgs.map((m) => m.method)).toEqual(['orderBook', 'order', 'heartbeat']);
    expect(decodePayload(msgs[0]!.args[0] as string)).toEqual(book);
    expect(msgs[2]!.args).toEqual([]);
    await r.t.close();
  });

  it('rejects with HubInvocationError carrying the server message on an error reply', async () => {
    const r = recorded(kind, hub.srv);
    await r.t.connect();
    const err = await r.t.invoke('NoSuchMethod').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HubInvocationError);
    expect((err as HubInvocationError).serverError).toMatch(/'NoSuchMethod' method could not be resolved/);
    // Still usable afterwards.
    expect(await r.t.invoke('isauthenticated')).toBe(false);
    await r.t.close();
  });

  it('close() is idempotent, emits one closed event without error, completes events$, and refuses later calls', async () => {
    const r = recorded(kind, hub.srv);
    await r.t.connect();
    await Promise.all([r.t.close(), r.t.close()]);
    await r.t.close();
    expect(r.events).toEqual([{ type: 'closed' }]);
    expect(r.completed).toBe(true);
    await expect(r.t.invoke('IsAuthenticated')).rejects.toBeInstanceOf(HubInvocationError);
    await expect(r.t.connect()).rejects.toBeInstanceOf(HubConnectError);
  });

  it('a dropped socket emits closed with an error and rejects the pending invocation', async () => {
    const r = recorded(kind, hub.srv);
    await r.t.connect();
    const ids = new Set(hub.srv.hub.connections().map((c) => c.id));
    const pending = r.t.invoke('IsAuthenticated');
    // Dropped in the same tick, before the server can read the call, so no reply can ever come.
    hub.srv.hub.closeAll();
    const err = await pending.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HubInvocationError);
    expect((err as HubInvocationError).serverError).toBeUndefined();
    const closed = await closedEvent(r);
    expect(closed.type === 'closed' && closed.error).toBeInstanceOf(Error);
    expect(r.events.filter((e) => e.type === 'closed')).toHaveLength(1);
    expect(hub.srv.hub.connections().filter((c) => ids.has(c.id))).toEqual([]);
  });

  it('connect rejects with HubConnectError when nothing hub-like answers, and emits no closed event', async () => {
    const r = recorded(kind, hub.srv, `${hub.srv.origin}/not-a-hub`);
    const err = await r.t.connect().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HubConnectError);
    expect(r.events).toEqual([]);
    expect(r.completed).toBe(true);
  });
});
