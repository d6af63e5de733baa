/**
 * A seeded synthetic L2 market for backtest tests and the bench: a random-walk mid with a 10-level book per side
 * (tick 1 around a mid near 30 000 on BTC-USD), deltas as the levels change, and trades that take part of the
 * touch followed by the delta that shows them. Same seed, same events. Also an in-memory {@link MarketDataReader}
 * over any event list or generator.
 */
import { dec, type Decimal } from '../../src/core/decimal.js';
import type { OrderBookEntry } from '../../src/model/market.js';
import { Prng } from '../../src/sim/driver/prng.js';
import type { MarketDataReader, MarketEvent } from '../../backtest/readers/reader.js';

const LEVELS = 10;

/** `count` events of one market, starting at `start`, one every `stepMs`. */
export function* syntheticEvents(opts: { seed: number | string; count: number; start: number; stepMs?: number; market?: string }): Generator<MarketEvent> {
  const rng = new Prng(opts.seed);
  const market = opts.market ?? 'BTC-USD';
  const step = opts.stepMs ?? 10;
  const src = { file: 'synthetic', line: 0 };
  let mid = 30_000;
  const bid = new Map<number, number>();
  const ask = new Map<number, number>();
  const size = () => Math.round((0.05 + rng.next() * 2) * 1e4) / 1e4;
  const entry = (rate: number, q: number): OrderBookEntry => ({ rate: dec(rate), quantity: q > 0 ? dec(q.toFixed(8)) : ZERO });
  for (let i = 1; i <= LEVELS; i++) {
    bid.set(mid - i, size());
    ask.set(mid + i, size());
  }
  let at = opts.start;
  let seq = 1;
  let tradeId = 0;
  yield {
    kind: 'snapshot',
    at,
    marketSymbol: market,
    sequence: seq,
    bid: [...bid].map(([r, q]) => entry(r, q)),
    ask: [...ask].map(([r, q]) => entry(r, q)),
    source: src,
  };
  for (let n = 1; n < opts.count; n++) {
    at += step;
    const r = rng.next();
    if (r < 0.2) {
      // A trade at the touch, then (next event) the book showing it.
      const buy = rng.next() < 0.5;
      const rate = buy ? mid + 1 : mid - 1;
      const side = buy ? ask : bid;
      const have = side.get(rate) ?? 0;
      const q = Math.max(0.0001, Math.round(have * rng.next() * 0.8 * 1e4) / 1e4);
      yield {
        kind: 'trade',
        at,
        marketSymbol: market,
        sequence: 0,
        trades: [{ id: `s${++tradeId}`, executedAt: new Date(at), quantity: dec(q.toFixed(8)), rate: dec(rate), takerSide: buy ? 'BUY' : 'SELL' }],
        source: src,
      };
      side.set(rate, Math.max(0, Math.round((have - q) * 1e4) / 1e4));
      if (++n >= opts.count) return;
      at += step;
      const e = entry(rate, side.get(rate)!);
      yield delta(market, at, ++seq, buy ? [] : [e], buy ? [e] : [], src);
    } else if (r < 0.3) {
      // The mid moves one tick: a level leaves one side, one enters the other.
      const up = rng.next() < 0.5;
      const bidDeltas: OrderBookEntry[] = [];
      const askDeltas: OrderBookEntry[] = [];
      if (up) {
        mid += 1;
        ask.delete(mid);
        askDeltas.push(entry(mid, 0));
        ask.set(mid + LEVELS, size());
        askDeltas.push(entry(mid + LEVELS, ask.get(mid + LEVELS)!));
        bid.set(mid - 1, size());
        bidDeltas.push(entry(mid - 1, bid.get(mid - 1)!));
        bid.delete(mid - LEVELS - 1);
        bidDeltas.push(entry(mid - LEVELS - 1, 0));
      } else {
        mid -= 1;
        bid.delete(mid);
        bidDeltas.push(entry(mid, 0));
        bid.set(mid - LEVELS, size());
        bidDeltas.push(entry(mid - LEVELS, bid.get(mid - LEVELS)!));
        ask.set(mid + 1, size());
        askDeltas.push(entry(mid + 1, ask.get(mid + 1)!));
        ask.delete(mid + LEVELS + 1);
        askDeltas.push(entry(mid + LEVELS + 1, 0));
      }
      yield delta(market, at, ++seq, bidDeltas, askDeltas, src);
    } else {
      // Someone adds or cancels at a random level.
      const buy = rng.next() < 0.5;
      const side = buy ? bid : ask;
      const rate = buy ? mid - 1 - Math.floor(rng.next() * LEVELS) : mid + 1 + Math.floor(rng.next() * LEVELS);
      const q = size();
      side.set(rate, q);
      const e = entry(rate, q);
      yield delta(market, at, ++seq, buy ? [e] : [], buy ? [] : [e], src);
    }
  }
}

const ZERO: Decimal = dec(0);

function delta(market: string, at: number, sequence: number, bidDeltas: OrderBookEntry[], askDeltas: OrderBookEntry[], source: { file: string; line: number }): MarketEvent {
  return { kind: 'orderBookDelta', at, marketSymbol: market, depth: 500, sequence, bidDeltas, askDeltas, source };
}

/** A reader over events in memory (or generated lazily), in batches. */
export function memoryReader(events: () => Iterable<MarketEvent>, batchSize = 512): MarketDataReader {
  let n = 0;
  return {
    source: 'memory',
    async *batches() {
      let batch: MarketEvent[] = [];
      for (const e of events()) {
        batch.push(e);
        n++;
        if (batch.length >= batchSize) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    },
    summary: () => ({ events: n, errors: 0, ignored: {} }),
  };
}
