/**
 * `stream-latency`: how long from a hub frame arriving at the transport until the store update it carries is
 * observable, in-process, over the live path a bot runs: classic frame text → frame parse → hub client (raw
 * inflate, JSON, typed decode with exact Decimals) → Bittrex gateway → LiveData routing → rule-4 synchronizer →
 * MarketStore (book applied, then published). Stamped with performance.now() before the frame is parsed and in a
 * `changes$` subscriber, i.e. when a strategy would first see the new book. Target: p99 under 100 µs.
 *
 * The frames are pre-encoded (base64 of raw deflate, as the service sends) depth-25 BTC-USD deltas of 1-10
 * levels clustered at the top of the book. Only the snapshot comes from memory instead of REST: it is fetched
 * once, before measuring.
 *
 * Baseline: the same frames through the decode steps alone (frame parse, then what the hub client runs per
 * message: payload inflate and typed decode), so the ratio shows what the live path adds on top of decoding.
 */
import { Subject } from 'rxjs';
import { createBittrexGateway } from '../../src/bittrex/gateway.js';
import { buildPushFrame, parseClassicFrame } from '../../src/bittrex/hub/classic-frames.js';
import { encodePayload } from '../../src/bittrex/hub/codec.js';
import { decodeStreamPayload } from '../../src/bittrex/hub/stream-payload.js';
import type { HubTransport, TransportEvent } from '../../src/bittrex/hub/transport.js';
import { systemClock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import type { ExchangeGateway } from '../../src/gateway/exchange-gateway.js';
import { createLiveData } from '../../src/sync/live-data.js';
import { Prng } from '../sync/prng.js';
import { percentile, type Bench, type Figure } from './harness.js';

const MARKET = 'BTC-USD';
const WARMUP = 5_000;
const MEASURED = 30_000;

/** A connected-at-once transport that accepts every subscription; the bench pushes frames into it. */
class BenchTransport implements HubTransport {
  readonly #events = new Subject<TransportEvent>();
  readonly events$ = this.#events.asObservable();
  async connect(): Promise<void> {}
  async invoke(method: string, ...args: unknown[]): Promise<unknown> {
    if (method === 'Subscribe' || method === 'Unsubscribe') return (args[0] as unknown[]).map(() => ({ Success: true, ErrorCode: null }));
    throw new Error(`bench transport: unexpected ${method}`);
  }
  async close(): Promise<void> {
    this.#events.next({ type: 'closed' });
    this.#events.complete();
  }
  /** What the classic transport does with a frame: parse it and emit each push. */
  frame(text: string): void {
    const f = parseClassicFrame(text);
    if (f.kind === 'push') for (const m of f.messages) this.#events.next({ type: 'message', method: m.method, args: m.args });
  }
}

/** Wire text of a rate in 1/1000 USD ticks and of a quantity in 1e-8 units, 8 decimals as the service sends. */
const rateText = (ticks: number): string => (ticks / 1000).toFixed(8);
const qtyText = (units: number): string => (units / 1e8).toFixed(8);

/** A depth-25 book near 30,000 and `n` pre-encoded classic frames of deltas on it, sequences 1..n. */
function workload(seed: number, n: number): { snapshot: { bid: { rate: string; quantity: string }[]; ask: { rate: string; quantity: string }[] }; frames: string[] } {
  const rng = new Prng(seed);
  const bids: number[] = [];
  const asks: number[] = [];
  for (let i = 0, t = 29_999_000; i < 25; i++, t -= 1 + rng.int(500)) bids.push(t);
  for (let i = 0, t = 30_001_000; i < 25; i++, t += 1 + rng.int(500)) asks.push(t);
  const qty = () => qtyText(1 + rng.int(200_000_000));
  const snapshot = {
    bid: bids.map((t) => ({ rate: rateText(t), quantity: qty() })),
    ask: asks.map((t) => ({ rate: rateText(t), quantity: qty() })),
  };
  const frames: string[] = [];
  for (let seq = 1; seq <= n; seq++) {
    const bidDeltas: { quantity: string; rate: string }[] = [];
    const askDeltas: { quantity: string; rate: string }[] = [];
    const count = 1 + rng.int(10);
    for (let k = 0; k < count; k++) {
      const isBid = rng.chance(0.5);
      const side = isBid ? bids : asks;
      const out = isBid ? bidDeltas : askDeltas;
      const i = rng.nearTop(side.length);
      const op = rng.next();
      if (op < 0.5 || side.length < 20) {
        out.push({ quantity: qty(), rate: rateText(side[i]!) });
      } else if (op < 0.75 && side.length < 30) {
        const t = isBid ? side[i]! - 1 : side[i]! + 1;
        if (side[i + 1] !== t && !out.some((d) => d.rate === rateText(t))) {
          side.splice(i + 1, 0, t);
          out.push({ quantity: qty(), rate: rateText(t) });
        }
      } else if (!out.some((d) => d.rate === rateText(side[i]!))) {
        out.push({ quantity: qtyText(0), rate: rateText(side[i]!) });
        side.splice(i, 1);
      }
    }
    const payload = encodePayload({ marketSymbol: MARKET, depth: 25, sequence: seq, bidDeltas, askDeltas });
    frames.push(buildPushFrame(`d-${seq}`, [{ hub: 'C3', method: 'orderBook', args: [payload] }]));
  }
  return { snapshot, frames };
}

export const benches: Bench[] = [
  {
    name: 'stream-latency',
    async run(): Promise<Figure[]> {
      const { snapshot, frames } = workload(7, WARMUP + MEASURED);
      const transport = new BenchTransport();
      const network = createBittrexGateway({ restUrl: 'http://127.0.0.1:9/v3', hubUrl: 'bench', transport: () => transport });
      const book = {
        bid: snapshot.bid.map((l) => ({ rate: dec(l.rate), quantity: dec(l.quantity) })),
        ask: snapshot.ask.map((l) => ({ rate: dec(l.rate), quantity: dec(l.quantity) })),
      };
      // Everything but the one snapshot goes through the network gateway's own stream path.
      const gateway: ExchangeGateway = { ...network, orderBook: async () => ({ data: book, sequence: 0 }) };
      const live = createLiveData(gateway, { clock: systemClock, markets: [MARKET], depths: [25], account: false });
      await live.start();
      while (!live.allLive()) await new Promise((resolve) => setImmediate(resolve));

      let published = 0;
      let stamp = 0;
      live.market.changes$.subscribe(() => {
        stamp = performance.now();
        published++;
      });
      const samples = new Float64Array(MEASURED);
      for (let i = 0; i < frames.length; i++) {
        const before = published;
        const arrived = performance.now();
        transport.frame(frames[i]!);
        if (published !== before + 1) throw new Error(`frame ${i + 1} did not reach the store (status ${live.status(`orderbook_${MARKET}_25`)?.status.state})`);
        if (i >= WARMUP) samples[i - WARMUP] = (stamp - arrived) * 1000;
      }
      const seq = live.sequence(`orderbook_${MARKET}_25`);
      await live.stop();
      await network.close();
      if (seq !== frames.length) throw new Error(`book at sequence ${seq}, expected ${frames.length}`);
      const list = Array.from(samples);
      const decodeOnly: number[] = [];
      for (let i = 0; i < frames.length; i++) {
        const arrived = performance.now();
        const f = parseClassicFrame(frames[i]!);
        if (f.kind === 'push') for (const m of f.messages) decodeStreamPayload(m.method, m.args[0]);
        if (i >= WARMUP) decodeOnly.push((performance.now() - arrived) * 1000);
      }
      const p50 = percentile(list, 50);
      const p99 = percentile(list, 99);
      const d50 = percentile(decodeOnly, 50);
      const d99 = percentile(decodeOnly, 99);
      return [
        { bench: 'stream-latency/p50', value: p50, unit: 'µs', baseline: d50, ratio: p50 / d50, note: `${MEASURED} frames, 1-10 levels each; baseline: decode alone` },
        { bench: 'stream-latency/p99', value: p99, unit: 'µs', baseline: d99, ratio: p99 / d99, note: 'target < 100 µs; baseline: decode alone' },
        { bench: 'stream-latency/p99.9', value: percentile(list, 99.9), unit: 'µs' },
      ];
    },
  },
];
