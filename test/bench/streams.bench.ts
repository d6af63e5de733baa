/**
 * Stream figures:
 * - `hub-decode`: hub payloads decoded per second (base64 -> raw inflate -> JSON.parse) over the 1,015 real
 *   order-book payloads of the 2021 capture: the default reusable inflater, node:zlib (its baseline) and pako in
 *   the same run; then the hub client's whole decode (decodeStreamPayload: inflate plus typed decode).
 * - `book-apply`: order-book level updates applied per second at depth 500 (target ≥ 1,000,000/s), deltas
 *   clustered near the top of the book as in the capture, 1-10 levels per message. Baseline: ccxt.pro's OrderBook
 *   on the same workload with pre-converted floats (both sides get parsed numbers; wire parsing is hub-decode's).
 */
import { parseClassicFrame } from '../../src/bittrex/hub/classic-frames.js';
import { pakoCodec, payloadCodec, reusableCodec, zlibCodec, type PayloadCodec } from '../../src/bittrex/hub/codec.js';
import { decodeStreamPayload } from '../../src/bittrex/hub/stream-payload.js';
import { Decimal } from '../../src/core/decimal.js';
import type { OrderBook, OrderBookEntry } from '../../src/model/index.js';
import { OrderBookState } from '../../src/store/order-book.js';
import { loadCapture } from '../fixtures/v3-capture/load-capture.js';
import { Prng } from '../sync/prng.js';
import { alternatingOpsPerSecondSync, type Bench, type Figure } from './harness.js';

function capturedOrderBookPayloads(): string[] {
  const out: string[] = [];
  for (const f of loadCapture().frames) {
    const frame = parseClassicFrame(f.text);
    if (frame.kind !== 'push') continue;
    for (const m of frame.messages) if (m.method === 'orderBook') out.push(m.args[0] as string);
  }
  return out;
}

/** Payloads per second for `codec`, timed over whole passes of the list for at least `minMs`. */
function decodeRate(codec: PayloadCodec, payloads: string[], minMs: number): number {
  const pass = () => {
    for (const p of payloads) codec.decode(p);
  };
  const warmEnd = performance.now() + 300;
  while (performance.now() < warmEnd) pass();
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < minMs) {
    pass();
    n += payloads.length;
    now = performance.now();
  }
  return (n * 1000) / (now - start);
}

interface BookWorkload {
  snapshot: OrderBook;
  messages: { bid: OrderBookEntry[]; ask: OrderBookEntry[] }[];
  updates: number;
}

/** A depth-500 book around 10,000.00 (tick 0.01) and a stream of deltas that keeps it near 500 levels a side. */
function bookWorkload(seed: number, messageCount: number): BookWorkload {
  const rng = new Prng(seed);
  const pool = new Map<number, Decimal>();
  const rate = (ticks: number) => {
    let d = pool.get(ticks);
    if (!d) pool.set(ticks, (d = new Decimal(ticks).div(100)));
    return d;
  };
  const qty = () => new Decimal(1 + rng.int(500_000)).div(1e6);
  // Ticks as integers, best first: bids descending from 999,999, asks ascending from 1,000,001; sparse ladder.
  const bids: number[] = [];
  const asks: number[] = [];
  for (let i = 0, t = 999_999; i < 500; i++, t -= 1 + rng.int(3)) bids.push(t);
  for (let i = 0, t = 1_000_001; i < 500; i++, t += 1 + rng.int(3)) asks.push(t);
  const snapshot: OrderBook = {
    bid: bids.map((t) => ({ rate: rate(t), quantity: qty() })),
    ask: asks.map((t) => ({ rate: rate(t), quantity: qty() })),
  };
  const zero = new Decimal(0);
  const messages: BookWorkload['messages'] = [];
  let updates = 0;
  for (let m = 0; m < messageCount; m++) {
    const msg = { bid: [] as OrderBookEntry[], ask: [] as OrderBookEntry[] };
    const n = 1 + rng.int(10);
    for (let k = 0; k < n; k++) {
      const isBid = rng.chance(0.5);
      const side = isBid ? bids : asks;
      const out = isBid ? msg.bid : msg.ask;
      const i = rng.nearTop(side.length);
      const op = rng.next();
      // Half the updates change a level's quantity; the rest insert or remove one, steering towards 500 levels.
      const grow = side.length < 500 || (side.length < 520 && op < 0.75);
      if (op < 0.5) out.push({ rate: rate(side[i]!), quantity: qty() });
      else if (grow) {
        // A free tick just behind level i (bids descend, asks ascend), else a quantity change.
        const t = isBid ? side[i]! - 1 : side[i]! + 1;
        if (side[i + 1] !== t) {
          side.splice(i + 1, 0, t);
          out.push({ rate: rate(t), quantity: qty() });
        } else out.push({ rate: rate(side[i]!), quantity: qty() });
      } else {
        out.push({ rate: rate(side[i]!), quantity: zero });
        side.splice(i, 1);
      }
      updates++;
    }
    messages.push(msg);
  }
  return { snapshot, messages, updates };
}

export const benches: Bench[] = [
  {
    name: 'hub-decode',
    async run(): Promise<Figure[]> {
      const payloads = capturedOrderBookPayloads();
      const reusable = decodeRate(reusableCodec, payloads, 1500);
      const zlib = decodeRate(zlibCodec, payloads, 1500);
      const pako = decodeRate(pakoCodec, payloads, 1500);
      // The whole client path for one message, as the hub client runs it: inflate plus typed decode (exact Decimals).
      const full = decodeRate(
        { name: 'typed', decode: (p) => decodeStreamPayload('orderBook', p), encode: payloadCodec.encode },
        payloads,
        1500,
      );
      return [
        { bench: 'hub-decode/reusable-inflate', value: reusable, unit: 'msgs/s', baseline: zlib, note: `baseline node:zlib; ${payloads.length} real orderBook payloads` },
        { bench: 'hub-decode/node-zlib', value: zlib, unit: 'msgs/s' },
        { bench: 'hub-decode/pako', value: pako, unit: 'msgs/s' },
        { bench: 'hub-decode/typed', value: full, unit: 'msgs/s', note: `decodeStreamPayload: ${payloadCodec.name} + typed decode with exact Decimals` },
      ];
    },
  },
  {
    name: 'book-apply',
    async run(): Promise<Figure[]> {
      const w = bookWorkload(42, 50_000);
      const book = new OrderBookState('BENCH-USD', 500);
      const ours = () => {
        book.reset(w.snapshot);
        for (const m of w.messages) book.applyDeltas(m.bid, m.ask);
      };
      // Baseline in the same run: ccxt.pro's order book (what its bittrex watchOrderBook keeps) on the same
      // workload, fed as ccxt feeds it — float prices and sizes (pre-converted, as rexbot's Decimals are), one
      // store() per level, limit() per message as watchOrderBook resolves.
      const { default: ccxt } = await import('ccxt');
      type Side = { store(price: number, size: number): void; length: number };
      const peer = new ccxt.pro.bittrex().orderBook({}, 500) as unknown as { bids: Side; asks: Side; reset(s: unknown): void; limit(): void };
      const num = (l: OrderBookEntry): [number, number] => [l.rate.toNumber(), l.quantity.toNumber()];
      const snap = { bids: w.snapshot.bid.map(num), asks: w.snapshot.ask.map(num) };
      const msgs = w.messages.map((m) => ({ bid: m.bid.map(num), ask: m.ask.map(num) }));
      const theirs = () => {
        peer.reset(snap);
        for (const m of msgs) {
          for (const [p, q] of m.bid) peer.bids.store(p, q);
          for (const [p, q] of m.ask) peer.asks.store(p, q);
          peer.limit();
        }
      };
      // Alternating rounds (harness.ts): both books see the same spells of a shared host.
      const [perSec, peerPerSec] = alternatingOpsPerSecondSync([ours, theirs]).map((passes) => passes * w.updates) as [number, number];
      if (book.crossed() || book.bidCount < 300 || book.askCount < 300) throw new Error('book-apply workload drifted');
      if (peer.bids.length < 300 || peer.asks.length < 300) throw new Error('book-apply: the ccxt book drifted');
      return [{ bench: 'book-apply', value: perSec, unit: 'level updates/s', baseline: peerPerSec, note: `depth 500 (${book.bidCount}/${book.askCount} levels at end); baseline ccxt.pro OrderBook, same workload; target ≥ 1,000,000/s` }];
    },
  },
];
