import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock, flushMicrotasks } from '../../../src/core/clock.js';
import { MarketStore } from '../../../src/store/market-store.js';
import { syncOrderBook } from '../../../src/sync/market-sync.js';
import type { SyncStatus } from '../../../src/sync/synchronizer.js';
import { type MarketEvent, openReader } from '../../../backtest/readers/index.js';
import type { ReplayFormatError } from '../../../src/sim/driver/replay-error.js';
import { kinds, readEvents, tempFiles } from './read-helpers.js';

// Converted from the real Bittrex captures by backtest/data/tools/make-reader-fixtures.ts (README beside them).
const DIR = 'test/fixtures/backtest-readers';
const BOOK = `${DIR}/bittrex_incremental_book_L2_2021-06-14_BTC-EUR.csv.gz`;
const TRADES = `${DIR}/bittrex_trades_2021-04-05.csv.gz`;
const BOOK_HEADER = 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount';
const TRADE_HEADER = 'exchange,symbol,timestamp,local_timestamp,id,side,price,amount';

/** Apply snapshot and delta events to a plain book (rate -> quantity per side). */
function applyBook(events: readonly MarketEvent[], market: string, afterSequence = -Infinity) {
  const bid = new Map<string, string>();
  const ask = new Map<string, string>();
  for (const e of events) {
    if (e.marketSymbol !== market) continue;
    if (e.kind === 'snapshot') {
      bid.clear();
      ask.clear();
      for (const l of e.bid) bid.set(l.rate.toFixed(), l.quantity.toFixed());
      for (const l of e.ask) ask.set(l.rate.toFixed(), l.quantity.toFixed());
    } else if (e.kind === 'orderBookDelta' && e.sequence > afterSequence) {
      for (const [side, list] of [[bid, e.bidDeltas], [ask, e.askDeltas]] as const) {
        for (const l of list) if (l.quantity.isZero()) side.delete(l.rate.toFixed()); else side.set(l.rate.toFixed(), l.quantity.toFixed());
      }
    }
  }
  return { bid: Object.fromEntries([...bid].sort()), ask: Object.fromEntries([...ask].sort()) };
}

describe('tardis reader', () => {
  const tmp = tempFiles();
  afterEach(() => tmp.cleanup());

  it('reads incremental_book_L2 into a snapshot and contiguous deltas that rebuild the real book', async () => {
    const { events, summary } = await readEvents(openReader('tardis', BOOK));
    expect(kinds(events)).toEqual({ snapshot: 1, orderBookDelta: expect.any(Number) });
    expect(summary.ignored).toEqual({ 'before-snapshot': 2 });
    const [snap, ...deltas] = events;
    expect(snap).toMatchObject({ kind: 'snapshot', marketSymbol: 'BTC-EUR', sequence: 1, at: 1623635619189, source: { file: BOOK, line: 4 } });
    if (snap?.kind === 'snapshot') expect([snap.bid.length, snap.ask.length, snap.bid[0]!.rate.gt(snap.bid[1]!.rate), snap.ask[0]!.rate.lt(snap.ask[1]!.rate)]).toEqual([500, 500, true, true]);
    deltas.forEach((d, i) => expect(d).toMatchObject({ kind: 'orderBookDelta', sequence: i + 2, depth: 500 }));
    // The same book as the original capture's snapshot + deltas gives.
    const http = await readEvents(openReader('bittrex-v3-ws', 'test/fixtures/v3-replay/BITTREX.http.0.0'));
    const ws = await readEvents(openReader('bittrex-v3-ws', 'test/fixtures/v3-capture/BITTREX.ws.1.0'));
    const original = applyBook([...http.events, ...ws.events], 'BTC-EUR', 3209228);
    expect(applyBook(events, 'BTC-EUR')).toEqual(original);
  });

  it('reads trades grouped by arrival, with taker side, exchange time and per-market sequences 1, 2, ...', async () => {
    const { events, summary } = await readEvents(openReader('tardis', TRADES, { markets: ['VET-USDT', 'UMA-USD'] }));
    expect(summary.errors).toBe(0);
    const trades = events.flatMap((e) => (e.kind === 'trade' ? e.trades : []));
    expect(trades.length).toBe(200);
    for (const m of ['VET-USDT', 'UMA-USD']) {
      const seqs = events.filter((e) => e.marketSymbol === m).map((e) => (e as { sequence: number }).sequence);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    }
    const first = events.find((e) => e.marketSymbol === 'UMA-USD' && e.kind === 'trade');
    if (first?.kind === 'trade') {
      expect(first.trades[0]!.executedAt.getTime()).toBe(first.at);
      expect(['BUY', 'SELL']).toContain(first.trades[0]!.takerSide);
    }
  });

  it('maps symbols: separators, quote suffixes, an explicit map, one market for the file', async () => {
    const rows = (sym: string) => `${TRADE_HEADER}\nx,${sym},1000000,1000000,1,buy,10,1\n`;
    const market = async (sym: string, params?: Record<string, unknown>) =>
      (await readEvents(openReader('tardis', tmp.write(`${sym.replace('/', '_')}.csv`, rows(sym)), { params }))).events[0]?.marketSymbol;
    expect(await market('BTC/USD')).toBe('BTC-USD');
    expect(await market('ethbtc')).toBe('ETH-BTC');
    expect(await market('BTCUSDT')).toBe('BTC-USDT');
    expect(await market('XBTUSD', { symbols: { XBTUSD: 'BTC-USD' } })).toBe('BTC-USD');
    expect(await market('PERP1', { market: 'btc-usd' })).toBe('BTC-USD');
    await expect(market('PERP1')).rejects.toThrow(/:2: symbol "PERP1" has no BASE-QUOTE form; map it with params.symbols/);
    expect(() => openReader('tardis', 'x.csv', { params: { tme: 'local' } })).toThrow('tardis reader: param "tme" is not a param');
  });

  it('starts a new snapshot after a reconnect, continuing the sequence, and drops zero snapshot levels', async () => {
    const path = tmp.write('book.csv', [BOOK_HEADER,
      'x,BTC-USD,1000,1000,true,bid,10,1', 'x,BTC-USD,1000,1000,true,ask,11,0', 'x,BTC-USD,1000,1000,true,ask,12,1',
      'x,BTC-USD,2000,2000,false,bid,10,0', 'x,BTC-USD,2000,2000,false,ask,11.5,2', 'x,BTC-USD,3000,3000,false,bid,9,1',
      'x,BTC-USD,9000,9000,true,bid,8,1', 'x,BTC-USD,9000,9000,true,ask,13,1', 'x,BTC-USD,9500,9500,false,ask,13,0', ''].join('\n'));
    const { events } = await readEvents(openReader('tardis', path));
    expect(events.map((e) => [e.kind, (e as { sequence: number }).sequence, e.at, e.source.line])).toEqual([
      ['snapshot', 1, 1, 2], ['orderBookDelta', 2, 2, 5], ['orderBookDelta', 3, 3, 7], ['snapshot', 4, 9, 8], ['orderBookDelta', 5, 10, 10],
    ]);
    if (events[0]?.kind === 'snapshot') expect(events[0].ask.map((l) => l.rate.toFixed())).toEqual(['12']);
  });

  it('names file:line of a malformed row; skips only that row with onBadLine: skip', async () => {
    const path = tmp.write('bad.csv.gz', [BOOK_HEADER, 'x,BTC-USD,1000,1000,true,bid,10,1', 'x,BTC-USD,2000,2000,false,bid,abc,1',
      'x,BTC-USD,2000,2000,false,bid,9,1', 'x,BTC-USD,2000,2000,maybe,bid,9,1', 'x,BTC-USD,3000', ''].join('\n'));
    await expect(readEvents(openReader('tardis', path))).rejects.toThrow(`${path}:3: price is not a decimal: "abc"`);
    const seen: ReplayFormatError[] = [];
    const { events, summary } = await readEvents(openReader('tardis', path, { onBadLine: 'skip', onError: (e) => seen.push(e) }));
    expect(seen.map((e) => e.message)).toEqual([
      `${path}:3: price is not a decimal: "abc"`, `${path}:5: is_snapshot is not true or false: "maybe"`, `${path}:6: has 3 fields, the header 8`,
    ]);
    // what a queued job's author gets (rexbot worker): where and why, not the file's text
    expect(seen.map((e) => e.messageWithoutText())).toEqual([
      `${path}:3: price is not a decimal (the file's text left out)`, `${path}:5: is_snapshot is not true or false (the file's text left out)`, `${path}:6: has 3 fields, the header 8`,
    ]);
    expect(summary.errors).toBe(3);
    expect(events.map((e) => e.kind)).toEqual(['snapshot', 'orderBookDelta']);
    if (events[1]?.kind === 'orderBookDelta') expect(events[1].bidDeltas.map((l) => l.rate.toFixed())).toEqual(['9']);
  });

  it('refuses a price of zero or below, as the rexbot reader does (such a level crossed every book)', async () => {
    for (const price of ['0', '-5']) {
      const path = tmp.write(`p${price}.csv`, [BOOK_HEADER, 'x,BTC-USD,1000,1000,true,bid,10,1', `x,BTC-USD,1000,1000,true,ask,${price},1`, ''].join('\n'));
      await expect(readEvents(openReader('tardis', path))).rejects.toThrow(`${path}:3: price is not positive: ${price}`);
    }
  });

  it('names file:line and column of a price or amount out of range (1e400, 400 digits), fails it by default and skips it with skip', async () => {
    const huge = '9'.repeat(400);
    const cut = `${'9'.repeat(57)}...`;
    const cases: [header: string, row: (price: string, amount: string) => string][] = [
      [BOOK_HEADER, (p, a) => `x,BTC-USD,1000,1000,true,bid,${p},${a}`],
      [TRADE_HEADER, (p, a) => `x,BTC-USD,1000,1000,7,buy,${p},${a}`],
    ];
    for (const [header, row] of cases) {
      for (const [price, amount, error] of [
        ['1e400', '1', 'price is out of range: 1e400'], [huge, '1', `price is out of range: ${cut}`],
        ['10', '1e400', 'amount is out of range: 1e400'], ['10', huge, `amount is out of range: ${cut}`],
      ] as const) {
        const path = tmp.write('range.csv', [header, row('10', '1'), row(price, amount), row('11', '2'), ''].join('\n'));
        await expect(readEvents(openReader('tardis', path)), `${header} ${error}`).rejects.toThrow(`${path}:3: ${error}`);
        const seen: ReplayFormatError[] = [];
        const { events, summary } = await readEvents(openReader('tardis', path, { onBadLine: 'skip', onError: (e) => seen.push(e) }));
        expect(seen.map((e) => e.messageWithoutText())).toEqual([`${path}:3: ${error.slice(0, error.indexOf(':'))} (the file's text left out)`]);
        expect(summary.errors).toBe(1);
        const read = events.flatMap((e) => (e.kind === 'snapshot' ? e.bid : e.kind === 'trade' ? e.trades : []).map((l) => l.rate.toFixed()));
        expect(read.sort()).toEqual(['10', '11']);
      }
    }
    // The bound is the decoders' (amountProblem): 31 digits before the point are read.
    const edge = tmp.write('edge.csv', [TRADE_HEADER, `x,BTC-USD,1000,1000,7,buy,${'9'.repeat(31)}.5,${'9'.repeat(31)}`, ''].join('\n'));
    expect((await readEvents(openReader('tardis', edge))).summary.errors).toBe(0);
  });

  it('fails a header that names a column twice (which one is the price would be a guess)', async () => {
    const path = tmp.write('dup.csv', `${BOOK_HEADER},price\nx,BTC-USD,1000,1000,true,bid,10,1,11\n`);
    await expect(readEvents(openReader('tardis', path))).rejects.toThrow(`${path}:1: header names column price twice`);
  });

  it('fails a file whose header is not Tardis, whatever the policy', async () => {
    const path = tmp.write('x.csv', 'a,b,c\n1,2,3\n');
    await expect(readEvents(openReader('tardis', path, { onBadLine: 'skip' }))).rejects.toThrow(`${path}:1: is not a Tardis incremental_book_L2 or trades header`);
    const missing = tmp.write('y.csv', 'exchange,symbol,timestamp,is_snapshot,side,price,amount\n');
    await expect(readEvents(openReader('tardis', missing))).rejects.toThrow(`${missing}:1: header lacks column(s) local_timestamp`);
  });

  it('stamps trades by exchange time with time: exchange, and leaves out trades without an aggressor', async () => {
    const path = tmp.write('t.csv', `${TRADE_HEADER}\nx,BTC-USD,1000000,1500400,a,buy,10,1\nx,BTC-USD,1000000,1500400,b,unknown,10,1\nx,BTC-USD,2000000,2600000,,sell,11,2\n`);
    const local = await readEvents(openReader('tardis', path));
    expect(local.events.map((e) => e.at)).toEqual([1500, 2600]);
    expect(local.summary.ignored).toEqual({ 'unknown-side': 1 });
    const exchange = await readEvents(openReader('tardis', path, { params: { time: 'exchange' } }));
    expect(exchange.events.map((e) => e.at)).toEqual([1000, 2000]);
    const t = exchange.events[1];
    if (t?.kind === 'trade') expect([t.trades[0]!.id, t.trades[0]!.takerSide, t.trades[0]!.executedAt.getTime()]).toEqual(['2600000-4', 'SELL', 2000]);
  });

  it('delivers events as it reads: a bad row far into a big file fails after earlier batches were handed out', async () => {
    const rows = [BOOK_HEADER, 'x,BTC-USD,1000,1000,true,bid,10,1'];
    for (let i = 0; i < 50_000; i++) rows.push(`x,BTC-USD,${2000 + i},${2000 + i},false,ask,${11 + (i % 7)},${i % 3}`);
    rows.push('x,BTC-USD,bad');
    const path = tmp.write('big.csv.gz', `${rows.join('\n')}\n`);
    let delivered = 0;
    await expect((async () => {
      for await (const batch of openReader('tardis', path).batches()) delivered += batch.length;
    })()).rejects.toThrow(`${path}:${rows.length}: has 3 fields`);
    expect(delivered).toBeGreaterThan(40_000);
  });

  it('synthesized sequences pass the live rule-4 order-book sync: it goes live once and never sees a gap', async () => {
    const { events } = await readEvents(openReader('tardis', BOOK));
    const [snap, ...deltas] = events;
    if (snap?.kind !== 'snapshot') throw new Error('no snapshot first');
    const store = new MarketStore();
    const clock = new VirtualClock(snap.at);
    const sync = syncOrderBook({
      clock, retry: { initialDelayMs: 0, maxDelayMs: 0 }, store, marketSymbol: 'BTC-EUR', depth: 500,
      fetchSnapshot: async () => ({ data: { bid: snap.bid, ask: snap.ask }, sequence: snap.sequence }),
    });
    const states: SyncStatus['state'][] = [];
    sync.status$.subscribe((s) => states.push(s.state));
    sync.start();
    for (const d of deltas) {
      if (d.kind !== 'orderBookDelta') continue;
      sync.push({ marketSymbol: d.marketSymbol, depth: 500, sequence: d.sequence, bidDeltas: d.bidDeltas, askDeltas: d.askDeltas });
      await flushMicrotasks();
    }
    expect(states).toEqual(['synchronizing', 'live']);
    expect(sync.sequence).toBe(deltas.length + 1);
    const book = store.book('BTC-EUR', 500)!;
    const ladder = book.ladder();
    const flat = (side: readonly { rate: { toFixed(): string }; quantity: { toFixed(): string } }[]) => Object.fromEntries(side.map((l) => [l.rate.toFixed(), l.quantity.toFixed()]));
    const original = applyBook(events, 'BTC-EUR');
    expect({ bid: Object.fromEntries(Object.entries(flat(ladder.bid)).sort()), ask: Object.fromEntries(Object.entries(flat(ladder.ask)).sort()) }).toEqual(original);
    expect(book.crossed()).toBe(false);
    sync.stop();
  });
});

