/**
 * The replay driver against the real engine, in virtual time, over the real 2021 capture (BTC-EUR snapshot +
 * deltas; fixtures under cryptofeed licence) and small hand-made timelines for the sharing policy.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { type Decimal, dec } from '../../../src/core/decimal.js';
import type { OrderBookEntry } from '../../../src/model/market.js';
import { defaultSimConfig } from '../../../src/sim/config.js';
import { createMarketDriver } from '../../../src/sim/driver/market-driver.js';
import { CAPTURE_2021_MARKETS, marketsFromRecordedList } from '../../../src/sim/driver/recorded-markets.js';
import { ReplayFormatError } from '../../../src/sim/driver/replay-error.js';
import type { ReplayEvent } from '../../../src/sim/driver/replay-events.js';
import { ReplayMarket } from '../../../src/sim/driver/replay-market.js';
import { buildReplayTimeline } from '../../../src/sim/driver/replay-timeline.js';
import { createSimEngine } from '../../../src/sim/engine.js';
import { loadCapture } from '../../fixtures/v3-capture/load-capture.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures');
const WS = join(fixtures, 'v3-capture/BITTREX.ws.1.0');
const HTTP = join(fixtures, 'v3-replay/BITTREX.http.0.0');
const MARKETS = join(fixtures, 'v3-replay/BITTREX.0');
const CAPTURE_START = Date.parse('2021-06-14T01:53:38Z');

/**
 * The default configuration plus the capture's markets. The 2021 books hold levels worth ~10 000 satoshi (the
 * service's dust limit then), below the default 50 000, so the replay configuration lowers it to 10 000.
 */
function replayEngine(overrides: { dustMinValueSatoshi?: number } = {}) {
  const base = defaultSimConfig();
  const rec = marketsFromRecordedList(MARKETS, { symbols: CAPTURE_2021_MARKETS });
  const known = new Set(base.currencies.map((c) => c.symbol));
  const config = defaultSimConfig({
    markets: [...base.markets, ...rec.markets],
    currencies: [...base.currencies, ...rec.currencies.filter((c) => !known.has(c.symbol))],
    dustMinValueSatoshi: overrides.dustMinValueSatoshi ?? 10_000,
  });
  const clock = new VirtualClock(CAPTURE_START);
  return { clock, engine: createSimEngine({ clock, config }) };
}

interface RecordedFinal {
  bid: Map<string, string>;
  ask: Map<string, string>;
  /** Every level a delta named, with the (recorded) time it was played. */
  deltaRates: Array<{ at: number; side: 'bid' | 'ask'; rate: string }>;
}
let recordedCache: RecordedFinal | undefined;

/** The recorded BTC-EUR book after snapshot + deltas, rebuilt independently of the driver's readers. */
function recordedBtcEur(): RecordedFinal {
  recordedCache ??= rebuildBtcEur();
  return recordedCache;
}

function rebuildBtcEur(): RecordedFinal {
  const cap = loadCapture();
  const snap = cap.snapshots.find((s) => s.marketSymbol === 'BTC-EUR')!;
  const key = (r: string) => dec(r).toFixed();
  const side = (levels: unknown) => new Map((levels as Array<{ rate: string; quantity: string }>).map((l) => [key(l.rate), dec(l.quantity).toFixed()]));
  const book = { bid: side(snap.bid), ask: side(snap.ask) };
  const deltaRates: Array<{ at: number; side: 'bid' | 'ask'; rate: string }> = [];
  for (const f of cap.frames) {
    const frame = JSON.parse(f.text) as { M?: Array<{ M: string; A: string[] }> };
    for (const m of frame.M ?? []) {
      if (m.M !== 'orderBook') continue;
      const d = JSON.parse(inflateRawSync(Buffer.from(m.A[0]!, 'base64')).toString('utf8')) as {
        marketSymbol: string;
        sequence: number;
        bidDeltas: Array<{ rate: string; quantity: string }>;
        askDeltas: Array<{ rate: string; quantity: string }>;
      };
      if (d.marketSymbol !== 'BTC-EUR' || d.sequence <= snap.sequence) continue;
      for (const [s, list] of [['bid', d.bidDeltas], ['ask', d.askDeltas]] as const) {
        for (const l of list) {
          const q = dec(l.quantity);
          if (q.isZero()) book[s].delete(key(l.rate));
          else book[s].set(key(l.rate), q.toFixed());
          deltaRates.push({ at: Math.max(f.atMs, snap.atMs), side: s, rate: key(l.rate) });
        }
      }
    }
  }
  return { ...book, deltaRates };
}

const asMap = (levels: OrderBookEntry[]) => new Map(levels.map((l) => [l.rate.toFixed(), l.quantity.toFixed()]));

describe('ReplayMarket over the 2021 capture (BTC-EUR)', () => {
  it("ends with the engine's book equal to the recorded book, level by level", async () => {
    const { clock, engine } = replayEngine();
    const replay = new ReplayMarket(engine, clock, { ws: [WS], http: [HTTP], markets: ['BTC-EUR'] });
    replay.start();
    await clock.advance(replay.durationMs + 1);
    expect(replay.finished).toBe(true);
    expect(replay.stats.errors).toBe(0);
    expect(replay.stats.rejected).toEqual({});

    const expected = recordedBtcEur();
    const book = engine.orderBook('BTC-EUR', 500).data;
    expect(asMap(book.bid)).toEqual(expected.bid);
    expect(asMap(book.ask)).toEqual(expected.ask);
    // Best first, in the engine's own order.
    expect(book.bid[0]!.rate.gt(book.bid[1]!.rate)).toBe(true);
    expect(book.bid[0]!.rate.lt(book.ask[0]!.rate)).toBe(true);
    // Only liquidity, no trades: nothing was crossed.
    expect(engine.trades('BTC-EUR').data).toEqual([]);
    for (const a of engine.ledger.audit()) expect(a.discrepancy.isZero(), a.currency).toBe(true);

    replay.stop();
    expect(engine.orderBook('BTC-EUR', 500).data).toEqual({ bid: [], ask: [] });
    for (const a of engine.ledger.audit()) expect(a.held.isZero(), a.currency).toBe(true);
  });

  it('publishes one orderBook message per recorded message: the snapshot, then each delta with all its levels', async () => {
    const { clock, engine } = replayEngine();
    const replay = new ReplayMarket(engine, clock, { ws: [WS], http: [HTTP], markets: ['BTC-EUR'] });
    const published: Array<{ sequence: number; levels: string[] }> = [];
    const off = engine.bus.on((e) => {
      if (e.kind === 'orderBook' && e.depth === 500) published.push({ sequence: e.sequence, levels: [...e.bidDeltas.map((l) => `b${l.quantity.toFixed()}@${l.rate.toFixed()}`), ...e.askDeltas.map((l) => `a${l.quantity.toFixed()}@${l.rate.toFixed()}`)] });
    });
    replay.start();
    await clock.advance(replay.durationMs + 1);
    off();
    const recorded = replay.timeline.events.filter((e) => e.kind === 'snapshot' || e.kind === 'orderBookDelta');
    expect(published.map((p) => p.sequence)).toEqual(recorded.map((_, i) => i + 1));
    // Each delta message carries exactly the levels the recorded message named, with their recorded quantities.
    recorded.forEach((e, i) => {
      if (e.kind !== 'orderBookDelta') return;
      const levels = [...e.bidDeltas.map((l) => `b${l.quantity.toFixed()}@${l.rate.toFixed()}`), ...e.askDeltas.map((l) => `a${l.quantity.toFixed()}@${l.rate.toFixed()}`)];
      expect(published[i]!.levels.sort(), `message ${i}`).toEqual(levels.sort());
    });
    expect((recorded[0] as Extract<ReplayEvent, { kind: 'snapshot' }>).bid).toHaveLength(published[0]!.levels.filter((l) => l.startsWith('b')).length);
    replay.stop();
  });

  it("a user's market buy fills against replayed asks; the next recorded delta of a level restores it", async () => {
    const { clock, engine } = replayEngine();
    const replay = new ReplayMarket(engine, clock, { ws: [WS], http: [HTTP], markets: ['BTC-EUR'] });
    replay.start();
    await clock.advance(30_000);
    const before = engine.orderBook('BTC-EUR', 500).data.ask;
    const user = engine.createParticipant({ EUR: dec('20000') });
    const order = engine.placeOrder(user, { marketSymbol: 'BTC-EUR', direction: 'BUY', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.3') });
    expect(order.status).toBe('CLOSED');
    expect(order.fillQuantity.toFixed()).toBe('0.3');
    // It took the best replayed asks in order, at their rates.
    const taken = new Map<string, Decimal>();
    let left = dec('0.3');
    let cost = dec(0);
    for (const l of before) {
      if (left.isZero()) break;
      const q = l.quantity.lt(left) ? l.quantity : left;
      taken.set(l.rate.toFixed(), q);
      cost = cost.plus(q.times(l.rate).toDecimalPlaces(8, 1));
      left = left.minus(q);
    }
    expect(order.proceeds.toFixed()).toBe(cost.toFixed());
    expect(engine.ledger.get(user, 'BTC').total.toFixed()).toBe('0.3');
    // The same moment on the recording's time line.
    const tookAtRecorded = clock.now() - CAPTURE_START + replay.timeline.startAt;

    await clock.advance(replay.durationMs);
    expect(replay.finished).toBe(true);
    const expected = recordedBtcEur();
    const ask = asMap(engine.orderBook('BTC-EUR', 500).data.ask);
    const laterDelta = new Set(expected.deltaRates.filter((d) => d.side === 'ask' && d.at > tookAtRecorded).map((d) => d.rate));
    for (const [rate, recorded] of expected.ask) {
      const t = taken.get(rate);
      if (!t || laterDelta.has(rate)) expect(ask.get(rate), rate).toBe(recorded);
      else {
        // Untouched by the recording since the user took it: still depleted (the documented policy).
        const remaining = dec(recorded).minus(t);
        expect(ask.get(rate), rate).toBe(remaining.isZero() ? undefined : remaining.toFixed());
      }
    }
    expect(asMap(engine.orderBook('BTC-EUR', 500).data.bid)).toEqual(expected.bid);
    for (const a of engine.ledger.audit()) expect(a.discrepancy.isZero(), a.currency).toBe(true);
    replay.stop();
  });

  it('replays all eight markets, every recorded level as recorded (also below minTradeSize); events of unlisted markets are skipped', async () => {
    // No dust rule: several books hold levels of a few hundred satoshi.
    const { clock, engine } = replayEngine({ dustMinValueSatoshi: 0 });
    const replay = new ReplayMarket(engine, clock, { ws: [WS], http: [HTTP], speed: 10 });
    expect(replay.durationMs).toBeLessThan(10_000);
    replay.start();
    await clock.advance(replay.durationMs + 1);
    expect(replay.finished).toBe(true);
    // REPV2-ETH holds a few levels below the minTradeSize listed at recording time: the venue had accepted them,
    // so they are replayed as recorded liquidity like every other level.
    const below = (m: string, side: 'bid' | 'ask') => {
      const min = engine.catalog.market(m).minTradeSize;
      return engine.orderBook(m, 500).data[side].filter((l) => l.quantity.lt(min)).length;
    };
    for (const m of CAPTURE_2021_MARKETS) {
      const book = engine.orderBook(m, 500).data;
      const rec = replay.recordedBook(m)!;
      expect(asMap(book.bid), m).toEqual(asMap(rec.top('bid')));
      expect(asMap(book.ask), m).toEqual(asMap(rec.top('ask')));
    }
    expect(below('REPV2-ETH', 'bid') + below('REPV2-ETH', 'ask')).toBeGreaterThan(0);
    expect(replay.stats.errors).toBe(0);
    expect(replay.stats.rejected).toEqual({});
    expect(replay.stats.dustLevels).toBe(0);
    for (const a of engine.ledger.audit()) expect(a.discrepancy.isZero(), a.currency).toBe(true);

    const plain = createSimEngine({ clock });
    const skipped = new ReplayMarket(plain, clock, { ws: [WS], http: [HTTP] });
    skipped.start();
    await clock.advance(skipped.durationMs + 1);
    expect(skipped.stats.unknownMarket).toBe(skipped.timeline.events.length);
    expect(skipped.stats.placed).toBe(0);
  });
});

describe('ReplayMarket sharing one book with users (hand-made timelines)', () => {
  const at = CAPTURE_START;
  const src = { file: 'mem', line: 1 };
  const lv = (rate: string, quantity: string) => ({ rate: dec(rate), quantity: dec(quantity) });
  const snapshot: ReplayEvent = { kind: 'snapshot', at, marketSymbol: 'BTC-EUR', sequence: 10, bid: [lv('30000', '1'), lv('29990', '2')], ask: [lv('30010', '1'), lv('30020', '2')], source: src };

  it("a replayed bid placed across a user's resting ask trades with it (the user is the maker)", async () => {
    const { clock, engine } = replayEngine();
    const delta: ReplayEvent = { kind: 'orderBookDelta', at: at + 1000, marketSymbol: 'BTC-EUR', depth: 500, sequence: 11, bidDeltas: [lv('30006', '0.5')], askDeltas: [], source: src };
    const replay = new ReplayMarket(engine, clock, {}, { timeline: buildReplayTimeline([[snapshot, delta]]) });
    replay.start();
    await clock.advance(10);
    const user = engine.createParticipant({ BTC: dec('1') });
    const ask = engine.placeOrder(user, { marketSymbol: 'BTC-EUR', direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.2'), limit: dec('30005') });
    expect(ask.status).toBe('OPEN');
    await clock.advance(2000);
    const after = engine.getOrder(user, ask.id);
    expect(after.status).toBe('CLOSED');
    expect(after.fillQuantity.toFixed()).toBe('0.2');
    expect(engine.executions(user)[0]!.isTaker).toBe(false);
    expect(engine.trades('BTC-EUR').data[0]).toMatchObject({ takerSide: 'BUY' });
    expect(engine.trades('BTC-EUR').data[0]!.rate.toFixed()).toBe('30005');
    // The rest of the replayed bid rests at its recorded rate.
    expect(engine.orderBook('BTC-EUR', 1).data.bid[0]).toEqual(lv('30006', '0.3'));
    replay.stop();
  });

  it('re-enacts recorded trades, taking a better-priced user order first, then restores the replayed level', async () => {
    const { clock, engine } = replayEngine();
    const trade: ReplayEvent = {
      kind: 'trade',
      at: at + 1000,
      marketSymbol: 'BTC-EUR',
      sequence: 1,
      trades: [{ id: 'x', executedAt: new Date(at + 1000), quantity: dec('0.4'), rate: dec('30010'), takerSide: 'BUY' }],
      source: src,
    };
    const replay = new ReplayMarket(engine, clock, {}, { timeline: buildReplayTimeline([[snapshot, trade]]) });
    replay.start();
    await clock.advance(10);
    const user = engine.createParticipant({ BTC: dec('1') });
    const ask = engine.placeOrder(user, { marketSymbol: 'BTC-EUR', direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.1'), limit: dec('30008') });
    const books: string[][] = [];
    const off = engine.bus.on((e) => {
      if (e.kind === 'orderBook' && e.depth === 25) books.push(e.askDeltas.map((l) => `${l.quantity.toFixed()}@${l.rate.toFixed()}`));
    });
    await clock.advance(2000);
    off();
    // One message for the recorded trade: the user's level is gone; the replayed level it also took was restored
    // in the same transaction, so it does not appear.
    expect(books).toEqual([['0@30008']]);
    expect(replay.finished).toBe(true);
    expect(replay.stats.trades).toBe(1);
    expect(engine.getOrder(user, ask.id).fillQuantity.toFixed()).toBe('0.1');
    const trades = engine.trades('BTC-EUR').data;
    expect(trades.map((t) => `${t.quantity.toFixed()}@${t.rate.toFixed()}`).sort()).toEqual(['0.1@30008', '0.3@30010']);
    // The recording's book already accounts for its trade: the replayed level is back at its recorded quantity.
    expect(engine.orderBook('BTC-EUR', 25).data.ask).toEqual([lv('30010', '1'), lv('30020', '2')]);
    expect(engine.ticker('BTC-EUR').lastTradeRate.toFixed()).toBe('30010');
    for (const a of engine.ledger.audit()) expect(a.discrepancy.isZero(), a.currency).toBe(true);
    replay.stop();
  });

  it('keeps only the top `depth` levels, placing levels that enter it', async () => {
    const { clock, engine } = replayEngine();
    const delta: ReplayEvent = { kind: 'orderBookDelta', at: at + 1000, marketSymbol: 'BTC-EUR', depth: 500, sequence: 11, bidDeltas: [lv('30000', '0')], askDeltas: [], source: src };
    const replay = new ReplayMarket(engine, clock, { depth: 1 }, { timeline: buildReplayTimeline([[snapshot, delta]]) });
    replay.start();
    await clock.advance(10);
    expect(engine.orderBook('BTC-EUR', 25).data).toEqual({ bid: [lv('30000', '1')], ask: [lv('30010', '1')] });
    await clock.advance(2000);
    expect(engine.orderBook('BTC-EUR', 25).data).toEqual({ bid: [lv('29990', '2')], ask: [lv('30010', '1')] });
    replay.stop();
  });
});

describe('ReplayMarket: bad capture lines', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rexbot-replay-'));
  const lines = readFileSync(WS, 'utf8').split('\n');
  const bad = join(dir, 'broken.ws');
  writeFileSync(bad, [...lines.slice(0, 99), '1623635620.1: {"C":"x","M":[{"H":"C3","M":"orderBook","A":["AAAA"]}]}', ...lines.slice(99)].join('\n'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fail (default): the driver cannot be created, and the error names file and line', () => {
    const { clock, engine } = replayEngine();
    let err: unknown;
    try {
      createMarketDriver(engine, clock, { kind: 'replay', ws: [bad], http: [HTTP] });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ReplayFormatError);
    expect((err as Error).message).toMatch(new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:100: `));
  });

  it('skip: the line is reported and the rest replays', async () => {
    const { clock, engine } = replayEngine();
    const reported: ReplayFormatError[] = [];
    const driver = createMarketDriver(engine, clock, { kind: 'replay', ws: [bad], http: [HTTP], markets: ['BTC-EUR'], onBadLine: 'skip', speed: 100 }, { onBadLine: (e) => reported.push(e) });
    expect(reported.map((e) => `${e.file}:${e.line}`)).toEqual([`${bad}:100`]);
    driver.start();
    await clock.advance(2000);
    const expected = recordedBtcEur();
    expect(asMap(engine.orderBook('BTC-EUR', 500).data.ask)).toEqual(expected.ask);
    driver.stop();
  });
});
