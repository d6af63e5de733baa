/**
 * Property: whatever the connections do (drop, duplicate, reorder, arrive late, several at once, reconnect)
 * and however slow or failing the snapshot endpoint is, a book reported `live` always equals the service's book
 * at the reported sequence; and once every message has been published and time passes, it ends live at the
 * last sequence.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import type { OrderBook, OrderBookEntry } from '../../src/model/index.js';
import type { OrderBookMessage } from '../../src/bittrex/hub/messages.js';
import { MarketStore } from '../../src/store/market-store.js';
import { bookDifference, type OrderBookLadder } from '../../src/store/order-book.js';
import { syncOrderBook } from '../../src/sync/market-sync.js';
import { Prng } from './prng.js';

type Levels = Map<number, string>; // tick -> quantity

/** The service side: the true book after every sequence. */
function generate(rng: Prng, count: number, start: number) {
  const bid: Levels = new Map();
  const ask: Levels = new Map();
  const states: { bid: Levels; ask: Levels }[] = [];
  const messages: OrderBookMessage[] = [];
  const qty = () => `${1 + rng.int(9)}.${rng.int(100)}`;
  for (let t = 90; t < 100; t++) if (rng.chance(0.6)) bid.set(t, qty());
  for (let t = 101; t < 111; t++) if (rng.chance(0.6)) ask.set(t, qty());
  states[start] = { bid: new Map(bid), ask: new Map(ask) };
  for (let seq = start + 1; seq <= start + count; seq++) {
    const bidDeltas: OrderBookEntry[] = [];
    const askDeltas: OrderBookEntry[] = [];
    for (let k = 1 + rng.int(4); k > 0; k--) {
      const isBid = rng.chance(0.5);
      const tick = isBid ? 90 + rng.int(10) : 101 + rng.int(10);
      const q = rng.chance(0.3) ? '0' : qty(); // removing an absent level happens too
      (isBid ? bidDeltas : askDeltas).push({ rate: dec(`${tick}.25`), quantity: dec(q) });
      const side = isBid ? bid : ask;
      if (q === '0') side.delete(tick);
      else side.set(tick, q);
    }
    messages.push({ marketSymbol: 'P-Q', depth: 25, sequence: seq, bidDeltas, askDeltas });
    states[seq] = { bid: new Map(bid), ask: new Map(ask) };
  }
  return { states, messages };
}

function ladderOf(state: { bid: Levels; ask: Levels }): OrderBookLadder {
  const side = (m: Levels, desc: boolean) =>
    [...m.entries()].sort((a, b) => (desc ? b[0] - a[0] : a[0] - b[0])).map(([t, q]) => ({ rate: dec(`${t}.25`), quantity: dec(q) }));
  return { bid: side(state.bid, true), ask: side(state.ask, false) };
}

function snapshotOf(state: { bid: Levels; ask: Levels }): OrderBook {
  const l = ladderOf(state);
  return { bid: [...l.bid], ask: [...l.ask] };
}

interface Scenario {
  seed: number;
  connections: number;
  drop: number;
  duplicate: number;
  reorder: number;
  reorderWindowMs: number;
  fetchFailure: number;
  reconnects: boolean;
}

async function run(s: Scenario): Promise<{ liveChecks: number; gaps: number }> {
  const rng = new Prng(s.seed);
  const start = 1000 + rng.int(1000);
  const count = 150 + rng.int(150);
  const { states, messages } = generate(rng, count, start);
  const clock = new VirtualClock(0);
  // Message k is published at 10 ms * k; each connection delivers it after its own latency, unless it drops it.
  const publishedAt = (seq: number) => (seq - start) * 10;
  const lastPublished = () => Math.min(start + count, start + Math.floor(clock.now() / 10));
  const arrivals: { at: number; message: OrderBookMessage }[] = [];
  for (let c = 0; c < s.connections; c++) {
    const base = 5 + rng.int(30);
    for (const m of messages) {
      const last = m.sequence === start + count && c === 0; // the last message reaches at least one connection
      if (!last && rng.chance(s.drop)) continue;
      const at = publishedAt(m.sequence) + base + (rng.chance(s.reorder) ? rng.int(40) : 0);
      arrivals.push({ at, message: m });
      if (rng.chance(s.duplicate)) arrivals.push({ at: at + rng.int(50), message: m });
    }
  }
  arrivals.sort((a, b) => a.at - b.at);

  const store = new MarketStore();
  const sync = syncOrderBook({
    store,
    marketSymbol: 'P-Q',
    depth: 25,
    clock,
    retry: { initialDelayMs: 20, maxDelayMs: 200 },
    reorderWindowMs: s.reorderWindowMs,
    fetchSnapshot: () =>
      new Promise((resolve, reject) => {
        // The snapshot reflects the book when the (slow) response is produced.
        clock.setTimeout(() => {
          if (rng.chance(s.fetchFailure)) reject(new Error('503'));
          else {
            const seq = lastPublished();
            resolve({ data: snapshotOf(states[seq]!), sequence: seq });
          }
        }, 5 + rng.int(120));
      }),
  });

  let liveChecks = 0;
  const check = () => {
    if (sync.status.state !== 'live') return;
    const book = store.book('P-Q', 25)!;
    const seq = book.sequence!;
    const diff = bookDifference(book, ladderOf(states[seq]!));
    if (diff !== undefined) throw new Error(`seed ${s.seed}: live book differs from the service at ${seq}: ${diff}`);
    liveChecks++;
  };
  // Check on every store change (mid-drain too) and after every delivery.
  store.changes$.subscribe(check);
  sync.status$.subscribe(check);

  sync.start();
  for (const a of arrivals) {
    await clock.advanceTo(a.at);
    if (s.reconnects && rng.chance(0.005)) sync.reconnect();
    sync.push(a.message);
    check();
    if (sync.status.state === 'live') expect(sync.sequence).toBe(store.book('P-Q', 25)!.sequence);
  }
  await clock.advance(5_000);
  expect(sync.status, `seed ${s.seed}`).toEqual({ state: 'live', sequence: expect.any(Number) });
  expect(sync.sequence, `seed ${s.seed}`).toBe(start + count);
  check();
  return { liveChecks, gaps: sync.stats.gaps };
}

describe('Synchronizer property: never a wrong book marked live', () => {
  it('one clean connection: no gap, live all along after the snapshot', async () => {
    for (let seed = 1; seed <= 10; seed++) {
      const r = await run({ seed, connections: 1, drop: 0, duplicate: 0, reorder: 0, reorderWindowMs: 0, fetchFailure: 0, reconnects: false });
      expect(r.gaps).toBe(0);
      expect(r.liveChecks).toBeGreaterThan(100);
    }
  });

  it('lossy, duplicating, reordering connections with failing snapshots and reconnects', async () => {
    let gaps = 0;
    for (let seed = 100; seed < 160; seed++) {
      const rng = new Prng(seed * 7919);
      const r = await run({
        seed,
        connections: 1 + rng.int(3),
        drop: rng.next() * 0.05,
        duplicate: rng.next() * 0.3,
        reorder: rng.next() * 0.2,
        reorderWindowMs: rng.chance(0.5) ? 0 : 20 + rng.int(100),
        fetchFailure: rng.next() * 0.3,
        reconnects: rng.chance(0.5),
      });
      gaps += r.gaps;
      expect(r.liveChecks, `seed ${seed}`).toBeGreaterThan(0);
    }
    expect(gaps).toBeGreaterThan(0); // the scenarios did exercise resyncs
  });

  it('three redundant connections each losing 2% are merged without a resync, thanks to the reorder window', async () => {
    let gaps = 0;
    for (let seed = 500; seed < 510; seed++) {
      gaps += (await run({ seed, connections: 3, drop: 0.02, duplicate: 0, reorder: 0.1, reorderWindowMs: 100, fetchFailure: 0, reconnects: false })).gaps;
    }
    expect(gaps).toBe(0);
  });
});
