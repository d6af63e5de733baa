/**
 * Large generated files in every reader format, for the `backtest-read` bench (and any bench that needs a big
 * recorded file, e.g. bt-core's `backtest`): one market, a random walk around 30,000 with two-level book deltas and
 * single trades (4:1), a snapshot every 1,000 events. Files are written in 1 MB pieces (gzip as concatenated
 * members, which gunzip reads as one stream); only the newest-first candle file is held before it is written.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { encodePayload } from '../../src/bittrex/hub/codec.js';
import { Prng } from '../../src/sim/driver/prng.js';

/** The formats {@link writeBenchFile} writes. */
export const BENCH_FORMATS = ['rexbot', 'bittrex-v3-ws', 'tardis-book', 'tardis-trades', 'candles-csv', 'candles-csv-desc', 'candles-json'] as const;
export type BenchFormat = (typeof BENCH_FORMATS)[number];

const T0 = Date.parse('2021-06-14T00:00:00Z');
const M = 'BTC-USD';

/** A file written in pieces. */
class PieceWriter {
  readonly #fd: number;
  readonly #gzip: boolean;
  #parts: string[] = [];
  #size = 0;
  constructor(path: string, gzip: boolean) {
    this.#fd = openSync(path, 'w');
    this.#gzip = gzip;
  }
  line(s: string): void {
    this.#parts.push(s);
    this.#size += s.length + 1;
    if (this.#size > 1 << 20) this.flush();
  }
  flush(): void {
    if (this.#parts.length === 0) return;
    const text = `${this.#parts.join('\n')}\n`;
    writeSync(this.#fd, this.#gzip ? gzipSync(text, { level: 1 }) : Buffer.from(text));
    this.#parts = [];
    this.#size = 0;
  }
  close(): void {
    this.flush();
    closeSync(this.#fd);
  }
}

/** One step of the market: what happened at `t`. */
interface Step {
  t: number;
  kind: 'snapshot' | 'delta' | 'trade';
  seq: number;
  mid: number;
  levels: Array<{ side: 'bid' | 'ask'; rate: string; quantity: string }>;
}

function* steps(events: number, seed: string): Generator<Step> {
  const rng = new Prng(seed);
  let mid = 30_000;
  let seq = 1;
  let tradeSeq = 0;
  let t = T0;
  for (let i = 0; i < events; i++) {
    t += 1 + Math.floor(rng.next() * 40);
    mid = Math.max(100, mid + (rng.next() - 0.5) * 5);
    const q = () => (0.001 + rng.next() * 2).toFixed(8);
    if (i % 1000 === 0) {
      const levels: Step['levels'] = [];
      for (let k = 1; k <= 10; k++) levels.push({ side: 'bid', rate: (mid - k).toFixed(3), quantity: q() }, { side: 'ask', rate: (mid + k).toFixed(3), quantity: q() });
      yield { t, kind: 'snapshot', seq, mid, levels };
    } else if (i % 5 === 4) {
      yield { t, kind: 'trade', seq: ++tradeSeq, mid, levels: [{ side: rng.next() < 0.5 ? 'bid' : 'ask', rate: mid.toFixed(3), quantity: q() }] };
    } else {
      seq++;
      const k = 1 + Math.floor(rng.next() * 10);
      yield { t, kind: 'delta', seq, mid, levels: [
        { side: 'bid', rate: (mid - k).toFixed(3), quantity: rng.next() < 0.2 ? '0' : q() },
        { side: 'ask', rate: (mid + k).toFixed(3), quantity: q() },
      ] };
    }
  }
}

const v3Levels = (s: Step, side: 'bid' | 'ask') => s.levels.filter((l) => l.side === side).map((l) => ({ quantity: l.quantity, rate: l.rate }));
const trade = (s: Step) => ({ id: `t${s.seq}`, executedAt: new Date(s.t).toISOString(), quantity: s.levels[0]!.quantity, rate: s.levels[0]!.rate, takerSide: s.levels[0]!.side === 'bid' ? 'SELL' : 'BUY' });

/**
 * Write `events` events (for candle formats: candles) of `format` to `path`; returns the reader format name and
 * params to read it with.
 *
 * @example
 * const { format, params } = writeBenchFile('tardis-book', '/tmp/book.csv', 1_000_000);
 * await readAll(format, '/tmp/book.csv', { params });
 */
export function writeBenchFile(format: BenchFormat, path: string, events: number): { format: string; params?: Record<string, unknown> } {
  switch (format) {
    case 'rexbot': {
      const w = new PieceWriter(path, true);
      w.line(JSON.stringify({ format: 'rexbot-recording', version: 1, startedAt: T0, channels: [`orderbook_${M}_25`, `trade_${M}`], source: { hub: 'x', rest: 'x', transport: 'classic' } }));
      for (const s of steps(events, format)) {
        if (s.kind === 'snapshot') w.line(JSON.stringify({ t: s.t, snapshot: `/markets/${M}/orderbook?depth=25`, channel: `orderbook_${M}_25`, sequence: s.seq, body: { bid: v3Levels(s, 'bid'), ask: v3Levels(s, 'ask') } }));
        else if (s.kind === 'delta') w.line(JSON.stringify({ t: s.t, name: 'orderBook', payload: { marketSymbol: M, depth: 25, sequence: s.seq, bidDeltas: v3Levels(s, 'bid'), askDeltas: v3Levels(s, 'ask') } }));
        else w.line(JSON.stringify({ t: s.t, name: 'trade', payload: { sequence: s.seq, marketSymbol: M, deltas: [trade(s)] } }));
      }
      w.close();
      return { format: 'rexbot' };
    }
    case 'bittrex-v3-ws': {
      const w = new PieceWriter(path, false);
      for (const s of steps(events, format)) {
        const ts = (s.t / 1000).toFixed(6);
        if (s.kind === 'snapshot') {
          w.line(`https://api.bittrex.com/v3/markets/${M}/orderbook?depth=25 -> ${ts}: ${JSON.stringify({ bid: v3Levels(s, 'bid'), ask: v3Levels(s, 'ask') })} header: {"Sequence": "${s.seq}"}`);
          continue;
        }
        const [name, payload] = s.kind === 'delta'
          ? ['orderBook', { marketSymbol: M, depth: 25, sequence: s.seq, bidDeltas: v3Levels(s, 'bid'), askDeltas: v3Levels(s, 'ask') }]
          : ['trade', { sequence: s.seq, marketSymbol: M, deltas: [trade(s)] }];
        w.line(`${ts}: {"C":"d-1","M":[{"H":"C3","M":"${name}","A":["${encodePayload(payload)}"]}]}`);
      }
      w.close();
      return { format: 'bittrex-v3-ws' };
    }
    case 'tardis-book':
    case 'tardis-trades': {
      const w = new PieceWriter(path, true);
      const book = format === 'tardis-book';
      w.line(book ? 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount' : 'exchange,symbol,timestamp,local_timestamp,id,side,price,amount');
      let n = 0;
      // A trade is every 5th step, a book event 4 of 5 (and snapshots): generate enough steps for `events` of either.
      for (const s of steps(events * 5 + 5, format)) {
        if (n >= events) break;
        const us = `${s.t}000`;
        if (book && s.kind !== 'trade') {
          for (const l of s.levels) w.line(`bittrex,${M},${us},${us},${s.kind === 'snapshot'},${l.side},${l.rate},${l.quantity}`);
          n++;
        } else if (!book && s.kind === 'trade') {
          const l = s.levels[0]!;
          w.line(`bittrex,${M},${us},${us},t${s.seq},${l.side === 'bid' ? 'sell' : 'buy'},${l.rate},${l.quantity}`);
          n++;
        }
      }
      w.close();
      return { format: 'tardis' };
    }
    case 'candles-csv':
    case 'candles-csv-desc':
    case 'candles-json': {
      const w = new PieceWriter(path, false);
      const rng = new Prng(format);
      const bars: string[] = [];
      const json = format === 'candles-json';
      w.line(json ? '[' : 'time,open,high,low,close,volume');
      const desc = format === 'candles-csv-desc';
      let open = 30_000;
      const bar = (i: number) => {
        const close = open + (rng.next() - 0.5) * 50;
        const hi = Math.max(open, close) + rng.next() * 10;
        const lo = Math.min(open, close) - rng.next() * 10;
        const t = T0 + i * 60_000;
        const v = (rng.next() * 10).toFixed(8);
        const line = json
          ? `${i > 0 ? ',' : ''}{"startsAt":"${new Date(t).toISOString()}","open":"${open.toFixed(3)}","high":"${hi.toFixed(3)}","low":"${lo.toFixed(3)}","close":"${close.toFixed(3)}","volume":"${v}","quoteVolume":"0"}`
          : `${t},${open.toFixed(3)},${hi.toFixed(3)},${lo.toFixed(3)},${close.toFixed(3)},${v}`;
        open = close;
        return line;
      };
      if (!desc) for (let i = 0; i < events; i++) w.line(bar(i));
      else {
        // Newest first: the walk is generated oldest first and held (as short strings) to be written in reverse.
        for (let i = 0; i < events; i++) bars.push(bar(i));
        for (let i = bars.length - 1; i >= 0; i--) w.line(bars[i]!);
      }
      if (json) w.line(']');
      w.close();
      return { format: json ? 'candles-json' : 'candles-csv', params: { market: M, interval: 'MINUTE_1' } };
    }
  }
}
