/**
 * The real 2021 v1.1 captures (test/fixtures/v1-capture) decoded with rexbot's v1.1 wire and mapped into the v3
 * model: each payload equals an independent decoder's output, every market's nonces run on without a gap from
 * its snapshot, and the rebuilt books are never crossed. The same events come from the streaming backtest reader
 * and feed the replay timeline.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openBittrexV1Capture } from '../../../backtest/readers/bittrex-v1-ws.js';
import { openReader } from '../../../backtest/readers/index.js';
import type { MarketEvent } from '../../../backtest/readers/reader.js';
import { parseClassicFrame } from '../../../src/bittrex/hub/classic-frames.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { type Decimal, dec } from '../../../src/core/decimal.js';
import { defaultSimConfig } from '../../../src/sim/config.js';
import { ReplayMarket } from '../../../src/sim/driver/replay-market.js';
import { createSimEngine } from '../../../src/sim/engine.js';
import { readV1WsCapture } from '../../../src/sim/driver/replay-v1-ws-reader.js';
import type { ReplayEvent } from '../../../src/sim/driver/replay-events.js';
import { buildReplayTimeline } from '../../../src/sim/driver/replay-timeline.js';
import { decodeV1Message } from '../../../src/wire/v1/hub/messages.js';
import { expandKeys, minifyKeys } from '../../../src/wire/v1/hub/minified-keys.js';
import { inflateV1Payload } from '../../../src/wire/v1/hub/protocol.js';
import { stringifyV1 } from '../../../src/wire/v1/json.js';

const DIR = new URL('../../fixtures/v1-capture/', import.meta.url);
const FILES = [
  { file: 'BITTREX.ws.21.0', snapshots: 10, deltas: 293 },
  { file: 'BITTREX-e15191.0', snapshots: 10, deltas: 1073 },
];
const text = (f: string) => readFileSync(new URL(f, DIR), 'utf8');

/** Rebuild every market's book from the events; returns per-market nonce chains and crossed-book count. */
function rebuild(events: readonly ReplayEvent[]) {
  const books = new Map<string, { bid: Map<string, Decimal>; ask: Map<string, Decimal>; nonce: number }>();
  const early = new Map<string, Extract<ReplayEvent, { kind: 'orderBookDelta' }>[]>();
  let crossed = 0;
  let gaps = 0;
  let applied = 0;
  const apply = (d: Extract<ReplayEvent, { kind: 'orderBookDelta' }>) => {
    const b = books.get(d.marketSymbol)!;
    if (d.sequence <= b.nonce) return;
    if (d.sequence !== b.nonce + 1) gaps++;
    b.nonce = d.sequence;
    for (const [side, rows] of [[b.bid, d.bidDeltas], [b.ask, d.askDeltas]] as const) {
      for (const r of rows) {
        if (r.quantity.isZero()) side.delete(r.rate.toString());
        else side.set(r.rate.toString(), r.rate);
      }
    }
    applied++;
    const bestBid = [...b.bid.values()].reduce<Decimal | undefined>((m, r) => (m === undefined || r.gt(m) ? r : m), undefined);
    const bestAsk = [...b.ask.values()].reduce<Decimal | undefined>((m, r) => (m === undefined || r.lt(m) ? r : m), undefined);
    if (bestBid && bestAsk && bestBid.gte(bestAsk)) crossed++;
  };
  for (const e of events) {
    if (e.kind === 'snapshot') {
      books.set(e.marketSymbol, {
        bid: new Map(e.bid.map((l) => [l.rate.toString(), l.rate])),
        ask: new Map(e.ask.map((l) => [l.rate.toString(), l.rate])),
        nonce: e.sequence,
      });
      for (const d of (early.get(e.marketSymbol) ?? []).sort((a, b) => a.sequence - b.sequence)) apply(d);
      early.delete(e.marketSymbol);
    } else if (e.kind === 'orderBookDelta') {
      if (books.has(e.marketSymbol)) apply(e);
      else early.set(e.marketSymbol, [...(early.get(e.marketSymbol) ?? []), e]);
    }
  }
  return { books, crossed, gaps, applied };
}

describe('v1.1 capture reader on the real 2021 captures', () => {
  for (const { file, snapshots, deltas } of FILES) {
    it(`${file}: maps into books that are never crossed, nonces continuous`, () => {
      const { events, errors } = readV1WsCapture(text(file), file);
      expect(errors).toEqual([]);
      expect(events.filter((e) => e.kind === 'snapshot')).toHaveLength(snapshots);
      expect(events.filter((e) => e.kind === 'orderBookDelta')).toHaveLength(deltas);
      // v3 names: quote last (USD-UMA → UMA-USD).
      expect(events.every((e) => /^[A-Z0-9]+-(USD|USDT|EUR|BTC|ETH)$/.test(e.marketSymbol))).toBe(true);
      const { books, crossed, gaps, applied } = rebuild(events);
      expect(books.size).toBe(10);
      expect(gaps).toBe(0);
      expect(crossed).toBe(0);
      expect(applied).toBeGreaterThan(0);
      // The timeline the replay driver plays agrees.
      const timeline = buildReplayTimeline([events]);
      expect(timeline.markets).toHaveLength(10);
      expect(timeline.stats.gaps).toBe(0);
      expect(timeline.stats.withoutSnapshot).toBe(0);
    });
  }

  it('decodes every payload exactly as an independent decoder did (BITTREX.ws.21.0.decoded.jsonl)', () => {
    const expected = text('BITTREX.ws.21.0.decoded.jsonl').trim().split('\n').map((l) => JSON.parse(l) as { channel: string; data: unknown });
    const ours: { channel: string; data: unknown }[] = [];
    for (const line of text('BITTREX.ws.21.0').split('\n')) {
      const m = /^(\d+(?:\.\d+)?): (.*)$/s.exec(line);
      if (!m) continue;
      const f = parseClassicFrame(m[2]!);
      if (f.kind === 'result' && typeof f.result === 'string') ours.push({ channel: 'QueryExchangeState', data: inflateV1Payload(f.result) });
      if (f.kind === 'push') for (const p of f.messages) ours.push({ channel: p.method, data: inflateV1Payload(p.args[0]) });
    }
    expect(ours.map((o) => o.channel)).toEqual(expected.map((e) => e.channel));
    ours.forEach((o, i) => {
      const e = expected[i]!;
      const name = o.channel as 'uE' | 'uS' | 'QueryExchangeState';
      // Same decoded message from both sources, compared as floats: the jsonl went through floats, while rexbot
      // reads the payload text exactly (see below). And minify(expand(x)) = x on the real payload.
      const asFloats = (v: unknown) => JSON.stringify(JSON.parse(stringifyV1(v)));
      expect(asFloats(decodeV1Message(name, o.data))).toBe(asFloats(decodeV1Message(name, e.data)));
      expect(stringifyV1(minifyKeys(expandKeys(o.data)))).toBe(stringifyV1(o.data));
    });
  });

  it('keeps amounts exactly as the wire wrote them, beyond what a float holds', () => {
    const line = text('BITTREX.ws.21.0').split('\n').find((l) => l.includes('"M":"uS"'))!;
    const f = parseClassicFrame(/^[\d.]+: (.*)$/s.exec(line)![1]!);
    const uS = f.kind === 'push' ? decodeV1Message('uS', inflateV1Payload(f.messages[0]!.args[0])) : undefined;
    const dgb = uS?.Deltas.find((d) => d.MarketName === 'BTC-DGB');
    // A float would make it 194838603.59847367 (the independent decoder's output).
    expect(dgb?.Volume.toString()).toBe('194838603.59847368');
  });

  it('streams the same events through the backtest reader, with markets filtered and ignored kinds counted', async () => {
    const file = new URL('BITTREX.ws.21.0', DIR).pathname;
    const all: MarketEvent[] = [];
    const reader = openReader('bittrex-v1-ws', file, {}); // through the backtest's registry
    for await (const batch of reader.batches()) all.push(...batch);
    const direct = readV1WsCapture(text('BITTREX.ws.21.0'), file).events;
    expect(all.map((e) => `${e.kind}:${'sequence' in e ? e.sequence : ''}`)).toEqual(direct.map((e) => `${e.kind}:${'sequence' in e ? e.sequence : ''}`));
    expect(reader.summary()).toMatchObject({ events: direct.length, errors: 0, ignored: { connect: 1, sent: 40, 'snapshot-fills': 10 } });

    const only = openBittrexV1Capture(file, { markets: ['UNI-EUR'], params: { snapshotFills: true } });
    const uni: MarketEvent[] = [];
    for await (const batch of only.batches()) uni.push(...batch);
    expect(new Set(uni.map((e) => e.marketSymbol))).toEqual(new Set(['UNI-EUR']));
    const history = uni.find((e) => e.kind === 'trade');
    expect(history?.kind === 'trade' && history.trades).toHaveLength(100);
  });

  it('names file and line for a bad line, or skips it whole', () => {
    const lines = text('BITTREX.ws.21.0').split('\n');
    const target = lines.findIndex((l) => l.includes('"M":"uE"'));
    lines[target] = lines[target]!.replace(/"A":\["[^"]{8}/, '"A":["!!!!!!!!');
    const broken = lines.join('\n');
    expect(() => readV1WsCapture(broken, 'cap')).toThrow(new RegExp(`^cap:${target + 1}: `));
    const skipped = readV1WsCapture(broken, 'cap', { onBadLine: 'skip' });
    expect(skipped.errors.map((e) => e.line)).toEqual([target + 1]);
    expect(skipped.events.filter((e) => e.kind === 'orderBookDelta')).toHaveLength(292);
  });
});

describe('the replay driver plays a v1.1 capture', () => {
  it('ends with the engine book equal to the recorded USDT-BSV book (BSV-USDT in v3)', async () => {
    const base = defaultSimConfig();
    const config = defaultSimConfig({
      currencies: [...base.currencies, { symbol: 'BSV', name: 'Bitcoin SV', coinType: 'BITCOIN', status: 'ONLINE', minConfirmations: 6, txFee: dec('0.001') }],
      markets: [...base.markets, { symbol: 'BSV-USDT', baseCurrencySymbol: 'BSV', quoteCurrencySymbol: 'USDT', minTradeSize: dec('0.0001'), precision: 8, status: 'ONLINE', createdAt: new Date('2018-11-15T00:00:00Z') }],
      dustMinValueSatoshi: 1,
    });
    const clock = new VirtualClock(Date.parse('2021-04-17T16:42:00Z'));
    const engine = createSimEngine({ clock, config });
    const file = new URL('BITTREX.ws.21.0', DIR).pathname;
    const replay = new ReplayMarket(engine, clock, { v1Ws: [file], markets: ['BSV-USDT'], replayTrades: false });
    replay.start();
    await clock.advance(replay.durationMs + 1);
    expect(replay.finished).toBe(true);
    expect(replay.stats.errors).toBe(0);

    const { books } = rebuild(readV1WsCapture(text('BITTREX.ws.21.0'), file).events.filter((e) => e.marketSymbol === 'BSV-USDT'));
    const recorded = books.get('BSV-USDT')!;
    const book = engine.orderBook('BSV-USDT', 500).data;
    expect(book.bid.map((l) => l.rate.toString()).sort()).toEqual([...recorded.bid.keys()].sort());
    expect(book.ask.map((l) => l.rate.toString()).sort()).toEqual([...recorded.ask.keys()].sort());
    replay.stop();
    engine.dispose();
  });
});
