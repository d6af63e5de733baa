/**
 * Issue 4's end-to-end stream tests: the network gateway and LiveData over real sockets against the simulator
 * server, on both hub transports, while a participant trades. For each hub fault — dropped, duplicated and
 * reordered pushes, stalled heartbeats, closed sockets, silently expired authentication — the client's stores
 * converge, once the fault ends, to the engine's truth (every book level by level at the engine's sequence,
 * balances, open orders, executions), and the status stream tells what happened (resyncing, with the reason).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  connect, divergence, MARKET, resyncsSince, startWorld, Trader, type Client, type ConnectOptions, type SimWorld,
} from './stream-harness.js';

const BOOKS = [`orderbook_${MARKET}_1`, `orderbook_${MARKET}_25`];
const ACCOUNT = ['balance', 'order', 'execution', 'conditional_order'];

describe.each(['classic', 'core'] as const)('stream faults over the %s transport', (kind) => {
  let world: SimWorld;
  let client: Client;
  let trader: Trader;

  /** Simulator, trading participant and a client whose every stream is live and agrees with the engine. */
  async function setUp(opts: ConnectOptions = {}): Promise<void> {
    world = await startWorld();
    trader = new Trader(world, 42);
    trader.seedBook();
    client = await connect(world, kind, opts);
    await trader.run(30);
    await converged();
  }

  /** Wait until the stores agree with the engine; the failure names the first difference. */
  async function converged(): Promise<void> {
    await vi.waitFor(
      () => {
        const d = divergence(world, client.live);
        if (d) throw new Error(`not converged: ${d}`);
      },
      { timeout: 20_000, interval: 25 },
    );
  }

  /** After a fault: clean traffic on every stream (so a loss at the end of a stream shows), then agreement. */
  async function recover(): Promise<void> {
    world.sim.hub.faults.set({});
    await trader.run(20);
    trader.touchAll();
    await converged();
  }

  afterEach(async () => {
    await client?.close();
    await world?.close();
  });

  it('dropped messages: gaps are detected and resynchronized from snapshots', async () => {
    await setUp();
    const from = client.statuses.length;
    world.sim.hub.faults.set({ dropRate: 0.2, seed: 7 });
    await trader.run(80);
    await recover();
    const gaps = resyncsSince(client.statuses, from).filter((s) => s.status.state === 'resyncing' && s.status.reason === 'gap');
    expect(gaps.length).toBeGreaterThan(0);
    expect(gaps.some((s) => BOOKS.includes(s.stream))).toBe(true);
    expect(client.live.allLive()).toBe(true);
  });

  it('duplicated messages: merged silently, no resync needed', async () => {
    await setUp();
    const from = client.statuses.length;
    const before = BOOKS.map((b) => client.live.stats(b)!.duplicates);
    world.sim.hub.faults.set({ duplicateRate: 0.3, seed: 11 });
    await trader.run(80);
    await recover();
    // A duplicate carries a sequence already applied: rule 4 drops it, so the books never leave `live`.
    expect(resyncsSince(client.statuses, from)).toEqual([]);
    const after = BOOKS.map((b) => client.live.stats(b)!.duplicates);
    expect(after.some((n, i) => n > before[i]!)).toBe(true);
  });

  it('reordered messages: a message that skips ahead is a gap, resynchronized', async () => {
    await setUp();
    const from = client.statuses.length;
    world.sim.hub.faults.set({ reorderRate: 0.2, seed: 5 });
    await trader.run(80);
    await recover();
    const gaps = resyncsSince(client.statuses, from).filter((s) => s.status.state === 'resyncing' && s.status.reason === 'gap');
    expect(gaps.length).toBeGreaterThan(0);
  });

  it('stalled heartbeat: the watchdog drops the silent connection, reconnects, and every stream resyncs', async () => {
    await setUp();
    const from = client.statuses.length;
    // The market is quiet now, so heartbeats are the only sign of life the client could get.
    world.sim.hub.faults.set({ stallHeartbeat: true });
    await vi.waitFor(() => expect(client.notices.map((n) => n.reason)).toContain('watchdog'), { timeout: 20_000, interval: 25 });
    await recover();
    for (const stream of [...BOOKS, ...ACCOUNT]) {
      expect(resyncsSince(client.statuses, from, stream).map((s) => s.cause)).toContain('watchdog');
    }
    expect(client.gateway.hub.stats.reconnects).toBeGreaterThan(0);
  });

  it('closed socket: the client reconnects while trading goes on, and every stream resyncs', async () => {
    await setUp();
    const from = client.statuses.length;
    world.sim.hub.closeAll();
    await trader.run(40); // published while the client is away: lost to it
    await vi.waitFor(() => expect(client.notices.map((n) => n.reason)).toContain('closed'), { timeout: 20_000, interval: 25 });
    await recover();
    // Either the reconnection resynced a stream (reason `reconnect`, cause `closed`) or a message on the new
    // connection beat that notice and showed the gap first; both are a resync the status stream reported.
    for (const stream of [...BOOKS, ...ACCOUNT]) {
      const resyncs = resyncsSince(client.statuses, from, stream);
      expect(resyncs.length, stream).toBeGreaterThan(0);
      for (const r of resyncs) if (r.status.state === 'resyncing' && r.status.reason === 'reconnect') expect(r.cause).toBe('closed');
    }
    expect(client.gateway.hub.connectionEpoch).toBeGreaterThan(1);
  });

  it('expired authentication: private streams are resubscribed and resynced, books are left alone', async () => {
    await setUp({ authRenewAfterMs: 300 });
    const from = client.statuses.length;
    // Silent: the hub just stops delivering the private streams. It ends the authentication right after a
    // renewal (renewals run every 300 ms here), so none is between its IsAuthenticated and its Authenticate: that
    // race goes unnoticed until the streams see a gap, and the hub client's own tests cover it.
    await new Promise<void>((resolve) => {
      const sub = client.gateway.hub.lifecycle$.subscribe((e) => {
        if (e.type !== 'authenticated' || !e.renewal) return;
        world.sim.hub.expireAuth();
        queueMicrotask(() => sub.unsubscribe());
        resolve();
      });
    });
    await trader.run(30); // account activity the client cannot see
    await vi.waitFor(() => expect(client.notices.map((n) => n.reason)).toContain('auth-lapsed'), { timeout: 20_000, interval: 25 });
    await recover();
    const notice = client.notices.find((n) => n.reason === 'auth-lapsed')!;
    expect([...(notice.channels ?? [])].sort()).toEqual([...ACCOUNT].sort());
    for (const stream of ACCOUNT) {
      expect(resyncsSince(client.statuses, from, stream).map((s) => s.cause)).toContain('auth-lapsed');
    }
    for (const stream of BOOKS) expect(resyncsSince(client.statuses, from, stream)).toEqual([]);
    expect(client.gateway.hub.connectionEpoch).toBe(1);
  });
});
