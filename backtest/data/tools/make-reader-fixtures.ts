/**
 * Build the reader test fixtures in test/fixtures/backtest-readers/ from real Bittrex captures (there are no real
 * Tardis or candle files offline, so these are conversions of real data, not third-party files):
 *
 * - `bittrex_incremental_book_L2_2021-06-14_BTC-EUR.csv.gz`: the BTC-EUR order book of the 2021 v3 capture
 *   (REST snapshot + hub deltas) written as Tardis `incremental_book_L2` rows, the way Tardis builds them: the
 *   updates received before the snapshot that it already contains first (a reader skips them), then the snapshot
 *   rows, then each delta's levels sharing its `local_timestamp`.
 * - `bittrex_trades_2021-04-05.csv.gz`: the 1,000 real fills of the April 2021 v1.1 capture (100 per market,
 *   `QueryExchangeState.f`), as Tardis `trades` rows (v3 symbols, taker side from `OT`), in time order.
 * - `VET-USDT_MINUTE_1.csv`, `VET-USDT_MINUTE_1.desc.csv`, `VET-USDT_MINUTE_1.v3.json`, `VET-USDT_MINUTE_1.v1.json`:
 *   the 100 real VET-USDT fills of that capture aggregated into one-minute candles (minutes without trades
 *   omitted, as the service does), oldest first, newest first, as the v3 Candle resource and as the v1.1
 *   `{O,H,L,C,V,T,BV}` candles.
 *
 *     node --import tsx backtest/data/tools/make-reader-fixtures.ts <shared/data dir> <out dir>
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Decimal } from '../../../src/core/decimal.js';
import { openReader } from '../../readers/index.js';
import type { MarketEvent } from '../../readers/reader.js';

const us = (ms: number) => String(ms * 1000);

async function readEvents(format: string, path: string): Promise<MarketEvent[]> {
  const out: MarketEvent[] = [];
  for await (const b of openReader(format, path).batches()) out.push(...b);
  return out;
}

/** Tardis incremental_book_L2 rows of one market from a v3 capture. */
async function tardisBook(v3Dir: string, market: string): Promise<string> {
  const snaps = (await readEvents('bittrex-v3-ws', join(v3Dir, 'BITTREX.http.0.0'))).filter((e) => e.marketSymbol === market);
  const deltas = (await readEvents('bittrex-v3-ws', join(v3Dir, 'BITTREX.ws.1.0'))).filter((e) => e.kind === 'orderBookDelta' && e.marketSymbol === market);
  const snap = snaps[0];
  if (!snap || snap.kind !== 'snapshot') throw new Error(`no snapshot of ${market}`);
  const rows = ['exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount'];
  const row = (at: number, snapshot: boolean, side: string, rate: Decimal, qty: Decimal) =>
    rows.push(`bittrex,${market},${us(at)},${us(at)},${snapshot},${side},${rate.toFixed()},${qty.toFixed()}`);
  for (const d of deltas) {
    // Stale updates received after the snapshot are left out: Tardis has no sequence to tell they are stale.
    if (d.kind !== 'orderBookDelta' || d.sequence > snap.sequence || d.at > snap.at) continue;
    for (const l of d.bidDeltas) row(d.at, false, 'bid', l.rate, l.quantity);
    for (const l of d.askDeltas) row(d.at, false, 'ask', l.rate, l.quantity);
  }
  for (const l of snap.bid) row(snap.at, true, 'bid', l.rate, l.quantity);
  for (const l of snap.ask) row(snap.at, true, 'ask', l.rate, l.quantity);
  for (const d of deltas) {
    if (d.kind !== 'orderBookDelta' || d.sequence <= snap.sequence) continue;
    const at = Math.max(d.at, snap.at);
    for (const l of d.bidDeltas) row(at, false, 'bid', l.rate, l.quantity);
    for (const l of d.askDeltas) row(at, false, 'ask', l.rate, l.quantity);
  }
  return `${rows.join('\n')}\n`;
}

interface Fill { I: number; T: number; Q: number; P: number; OT: 'BUY' | 'SELL'; market: string }

/** The snapshot fills of a v1.1 capture, oldest first, with v3 market symbols. */
function v1Fills(decodedJsonl: string): Fill[] {
  const fills: Fill[] = [];
  for (const line of readFileSync(decodedJsonl, 'utf8').split('\n')) {
    if (!line) continue;
    const o = JSON.parse(line) as { channel: string; data: { M: string; f?: Omit<Fill, 'market'>[] } };
    if (o.channel !== 'QueryExchangeState') continue;
    const [quote, base] = o.data.M.split('-');
    for (const f of o.data.f ?? []) fills.push({ ...f, market: `${base}-${quote}` });
  }
  return fills.sort((a, b) => a.T - b.T || a.I - b.I);
}

interface Bar { t: number; o: Decimal; h: Decimal; l: Decimal; c: Decimal; v: Decimal; qv: Decimal }

function minuteBars(fills: Fill[]): Bar[] {
  const bars = new Map<number, Bar>();
  for (const f of fills) {
    const t = Math.floor(f.T / 60_000) * 60_000;
    const p = new Decimal(String(f.P));
    const q = new Decimal(String(f.Q));
    const b = bars.get(t);
    if (!b) bars.set(t, { t, o: p, h: p, l: p, c: p, v: q, qv: p.times(q) });
    else Object.assign(b, { h: Decimal.max(b.h, p), l: Decimal.min(b.l, p), c: p, v: b.v.plus(q), qv: b.qv.plus(p.times(q)) });
  }
  return [...bars.values()].sort((a, b) => a.t - b.t);
}

const d8 = (d: Decimal) => d.toFixed(8);

async function main(): Promise<void> {
  const [shared, out] = process.argv.slice(2);
  if (!shared || !out) throw new Error('usage: make-reader-fixtures <shared/data dir> <out dir>');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'bittrex_incremental_book_L2_2021-06-14_BTC-EUR.csv.gz'), gzipSync(await tardisBook(join(shared, 'bittrex-v3-ws-2021'), 'BTC-EUR')));

  const fills = v1Fills(join(shared, 'bittrex-v1-ws-2021', 'BITTREX-e15191.0.decoded.jsonl'));
  const trades = ['exchange,symbol,timestamp,local_timestamp,id,side,price,amount'];
  for (const f of fills) trades.push(`bittrex,${f.market},${us(f.T)},${us(f.T)},${f.I},${f.OT.toLowerCase()},${f.P},${f.Q}`);
  writeFileSync(join(out, 'bittrex_trades_2021-04-05.csv.gz'), gzipSync(`${trades.join('\n')}\n`));

  const bars = minuteBars(fills.filter((f) => f.market === 'VET-USDT'));
  const iso = (t: number) => new Date(t).toISOString();
  const csv = (list: Bar[]) => `time,open,high,low,close,volume,quote_volume\n${list.map((b) => `${iso(b.t)},${d8(b.o)},${d8(b.h)},${d8(b.l)},${d8(b.c)},${d8(b.v)},${d8(b.qv)}`).join('\n')}\n`;
  writeFileSync(join(out, 'VET-USDT_MINUTE_1.csv'), csv(bars));
  writeFileSync(join(out, 'VET-USDT_MINUTE_1.desc.csv'), csv([...bars].reverse()));
  const v3 = bars.map((b) => ({ startsAt: iso(b.t), open: d8(b.o), high: d8(b.h), low: d8(b.l), close: d8(b.c), volume: d8(b.v), quoteVolume: d8(b.qv) }));
  writeFileSync(join(out, 'VET-USDT_MINUTE_1.v3.json'), `${JSON.stringify(v3, null, 2)}\n`);
  // v1.1 GetTicks: T without zone (UTC), V base-currency volume, BV quote ("base" in v1.1 naming) volume, numbers.
  const n8 = (d: Decimal) => Number(d8(d));
  const v1 = bars.map((b) => ({ O: n8(b.o), H: n8(b.h), L: n8(b.l), C: n8(b.c), V: n8(b.v), T: iso(b.t).slice(0, 19), BV: n8(b.qv) }));
  writeFileSync(join(out, 'VET-USDT_MINUTE_1.v1.json'), `${JSON.stringify({ success: true, message: '', result: v1 })}\n`);
  process.stdout.write(`${out}: book, ${fills.length} trades, ${bars.length} candles\n`);
}

await main();
