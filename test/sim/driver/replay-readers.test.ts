/**
 * Replay readers over the real 2021 capture (test/fixtures/v3-capture, test/fixtures/v3-replay; cryptofeed
 * licence): hub frames and REST snapshots become events, the timeline applies seed rule 4 per market, and bad
 * lines are reported with file and line.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { encodePayload } from '../../../src/bittrex/hub/codec.js';
import { type Decimal, ZERO, dec } from '../../../src/core/decimal.js';
import { RecordedBook } from '../../../src/sim/driver/recorded-book.js';
import { ReplayFormatError } from '../../../src/sim/driver/replay-error.js';
import { type ReplayEvent, recordedSecondsToMs } from '../../../src/sim/driver/replay-events.js';
import { readHttpCapture } from '../../../src/sim/driver/replay-http-reader.js';
import { loadReplayFiles, replayFromTexts } from '../../../src/sim/driver/replay-load.js';
import { buildReplayTimeline } from '../../../src/sim/driver/replay-timeline.js';
import { readWsCapture } from '../../../src/sim/driver/replay-ws-reader.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures');
const WS = join(fixtures, 'v3-capture/BITTREX.ws.1.0');
const HTTP = join(fixtures, 'v3-replay/BITTREX.http.0.0');
const wsText = readFileSync(WS, 'utf8');
const httpText = readFileSync(HTTP, 'utf8');

const kinds = (events: ReplayEvent[]) => {
  const out: Record<string, number> = {};
  for (const e of events) out[e.kind] = (out[e.kind] ?? 0) + 1;
  return out;
};

describe('readWsCapture (BITTREX.ws.1.0)', () => {
  const r = readWsCapture(wsText, 'BITTREX.ws.1.0');

  it('decodes every orderBook and ticker message of the capture and counts what it does not use', () => {
    expect(kinds(r.events)).toEqual({ orderBookDelta: 1015, ticker: 162 });
    expect(r.errors).toEqual([]);
    expect(r.ignored.candle).toBe(20);
    expect(r.ignored.sent).toBeGreaterThan(0);
    expect(r.ignored.connect).toBe(1);
  });

  it('keeps exact decimals, the receive time and the source line', () => {
    const first = r.events.find((e) => e.kind === 'orderBookDelta' && e.marketSymbol === 'BTC-EUR');
    expect(first?.kind).toBe('orderBookDelta');
    if (first?.kind !== 'orderBookDelta') return;
    expect(first.depth).toBe(500);
    expect(first.at).toBeGreaterThanOrEqual(Date.parse('2021-06-14T01:53:38Z'));
    expect(first.source.file).toBe('BITTREX.ws.1.0');
    expect(wsText.split('\n')[first.source.line - 1]).toMatch(/^\d+\.\d+: \{"C"/);
    const all = [...first.bidDeltas, ...first.askDeltas];
    expect(all.length).toBeGreaterThan(0);
    for (const l of all) expect(l.rate.decimalPlaces()).toBeLessThanOrEqual(8);
  });

  it('turns a trade message into a trade event', () => {
    const payload = encodePayload({
      sequence: 5,
      marketSymbol: 'BTC-EUR',
      deltas: [{ id: 'a0d5a4e5-5a9c-4a46-9c36-8f4f0a9d2a11', executedAt: '2021-06-14T01:54:00.123Z', quantity: '0.01000000', rate: '32450.00000000', takerSide: 'BUY' }],
    });
    const line = `1623635640.5: {"C":"x","M":[{"H":"C3","M":"trade","A":["${payload}"]}]}`;
    const out = readWsCapture(line, 'mem');
    expect(out.events).toHaveLength(1);
    const e = out.events[0];
    expect(e?.kind).toBe('trade');
    if (e?.kind !== 'trade') return;
    expect(e.at).toBe(1_623_635_640_500);
    expect(e.sequence).toBe(5);
    expect(e.trades[0]?.rate.toFixed()).toBe('32450');
    expect(e.trades[0]?.takerSide).toBe('BUY');
  });
});

describe('readHttpCapture (BITTREX.http.0.0)', () => {
  const r = readHttpCapture(httpText, 'BITTREX.http.0.0');

  it('reads the 8 order-book snapshots with their Sequence header', () => {
    expect(r.errors).toEqual([]);
    const snaps = r.events.filter((e) => e.kind === 'snapshot');
    expect(snaps.map((s) => s.marketSymbol)).toEqual(['BTC-EUR', 'DAWN-BTC', 'KSM-USDT', 'REPV2-ETH', 'SUKU-BTC', 'SOLVE-USD', 'CRV-ETH', 'FTC-BTC']);
    const btc = snaps[0];
    if (btc?.kind !== 'snapshot') throw new Error('no snapshot');
    expect(btc.sequence).toBe(3209228);
    expect(btc.bid).toHaveLength(500);
    expect(btc.ask).toHaveLength(500);
    expect(btc.bid[0]?.rate.toFixed()).toBe('32414.617');
    expect(btc.at).toBe(1_623_635_619_189);
  });
});

describe('buildReplayTimeline', () => {
  const { timeline } = loadReplayFiles({ ws: [WS], http: [HTTP] });

  it('orders events by time and starts each market book with its snapshot', () => {
    for (let i = 1; i < timeline.events.length; i++) {
      expect(timeline.events[i]!.at).toBeGreaterThanOrEqual(timeline.events[i - 1]!.at);
    }
    expect(timeline.markets).toEqual(['BTC-EUR', 'CRV-ETH', 'DAWN-BTC', 'FTC-BTC', 'KSM-USDT', 'REPV2-ETH', 'SOLVE-USD', 'SUKU-BTC']);
    const seen = new Set<string>();
    for (const e of timeline.events) {
      if (e.kind === 'snapshot') seen.add(e.marketSymbol);
      if (e.kind === 'orderBookDelta') expect(seen.has(e.marketSymbol)).toBe(true);
    }
  });

  it('drops deltas contained in the snapshot and plays a gap-free chain after it (998 of 1,015 deltas)', () => {
    const deltas = timeline.events.filter((e) => e.kind === 'orderBookDelta');
    expect(deltas).toHaveLength(998);
    expect(timeline.stats).toMatchObject({ staleDeltas: 17, gaps: 0, withoutSnapshot: 0, otherDepth: 0 });
    const last = new Map<string, number>();
    for (const e of timeline.events) {
      if (e.kind === 'snapshot') last.set(e.marketSymbol, e.sequence);
      if (e.kind === 'orderBookDelta') {
        expect(e.sequence).toBe((last.get(e.marketSymbol) ?? -1) + 1);
        last.set(e.marketSymbol, e.sequence);
      }
    }
  });

  it('rebuilds books that are never crossed', () => {
    const books = new Map<string, RecordedBook>();
    for (const e of timeline.events) {
      if (e.kind === 'snapshot') {
        const b = new RecordedBook();
        b.reset(e.bid, e.ask);
        books.set(e.marketSymbol, b);
      } else if (e.kind === 'orderBookDelta') {
        const b = books.get(e.marketSymbol)!;
        for (const d of e.bidDeltas) b.set('bid', d.rate, d.quantity);
        for (const d of e.askDeltas) b.set('ask', d.rate, d.quantity);
        const bid = b.top('bid', 1)[0]?.rate;
        const ask = b.top('ask', 1)[0]?.rate;
        if (bid && ask) expect(bid.lt(ask)).toBe(true);
      }
    }
  });

  it('keeps only the requested markets, and can be built from in-memory text', () => {
    const only = buildReplayTimeline([readHttpCapture(httpText, 'h').events, readWsCapture(wsText, 'w').events], { markets: ['btc-eur'] });
    expect(new Set(only.events.map((e) => e.marketSymbol))).toEqual(new Set(['BTC-EUR']));
    const fromText = replayFromTexts({ ws: [{ file: 'w', text: wsText }], http: [{ file: 'h', text: httpText }] }, { markets: ['BTC-EUR'] });
    expect(fromText.timeline.events.length).toBe(only.events.length);
  });
});

describe('RecordedBook', () => {
  it('keeps levels sorted best-first, treats equal decimals as one level and removes on 0', () => {
    const b = new RecordedBook();
    b.reset([{ rate: dec('10'), quantity: dec('1') }], [{ rate: dec('12'), quantity: dec('1') }]);
    b.set('bid', dec('11.00000000'), dec('2'));
    b.set('bid', dec('9.5'), dec('3'));
    b.set('bid', dec('11'), dec('4'));
    b.set('ask', dec('12.0'), ZERO);
    b.set('ask', dec('13'), dec('5'));
    const show = (l: Array<{ rate: Decimal; quantity: Decimal }>) => l.map((x) => `${x.rate.toFixed()}x${x.quantity.toFixed()}`);
    expect(show(b.top('bid'))).toEqual(['11x4', '10x1', '9.5x3']);
    expect(show(b.top('bid', 2))).toEqual(['11x4', '10x1']);
    expect(show(b.top('ask'))).toEqual(['13x5']);
    expect(b.quantityAt('ask', dec('12'))).toBeUndefined();
  });
});

describe('bad lines', () => {
  const good = wsText.split('\n').slice(0, 40);
  const badPayload = '1623635619.5: {"C":"x","M":[{"H":"C3","M":"orderBook","A":["%%%not-base64%%%"]}]}';
  const badDecimal = `1623635619.6: {"C":"x","M":[{"H":"C3","M":"orderBook","A":["${encodePayload({ marketSymbol: 'BTC-EUR', depth: 500, sequence: 9, bidDeltas: [{ quantity: 'abc', rate: '1' }], askDeltas: [] })}"]}]}`;
  const text = [...good.slice(0, 20), badPayload, ...good.slice(20), badDecimal].join('\n');

  it('fail (default): throws a ReplayFormatError naming file and line', () => {
    let err: unknown;
    try {
      readWsCapture(text, 'capture.ws');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ReplayFormatError);
    expect((err as ReplayFormatError).file).toBe('capture.ws');
    expect((err as ReplayFormatError).line).toBe(21);
    expect((err as Error).message).toMatch(/^capture\.ws:21: .*base64/);
  });

  it('skip: reports each bad line (with the field at fault) and uses every other line', () => {
    const reported: ReplayFormatError[] = [];
    const r = readWsCapture(text, 'capture.ws', { onBadLine: 'skip', onError: (e) => reported.push(e) });
    expect(r.errors.map((e) => e.line)).toEqual([21, 42]);
    expect(reported).toEqual(r.errors);
    expect(r.errors[1]?.message).toMatch(/^capture\.ws:42: .*bidDeltas\[0\]\.quantity is not a decimal/);
    const clean = readWsCapture(good.join('\n'), 'capture.ws');
    expect(r.events.length).toBe(clean.events.length);
  });

  it('rejects lines of an unknown shape and bad timestamps', () => {
    expect(() => readWsCapture('hello world', 'f')).toThrow(/^f:1: is neither/);
    expect(() => readWsCapture('\n\n12x: {}', 'f')).toThrow(/^f:3: /);
  });

  it('http: a snapshot without a Sequence header, with a bad level or bad JSON is reported with file:line', () => {
    const lines = httpText.split('\n').filter((l) => l.length > 0);
    const noSeq = (lines[1] as string).replace('"Sequence": "1192052", ', '');
    const badLevel = (lines[2] as string).replace('"quantity":"', '"quantity":"-');
    const badJson = (lines[3] as string).replace(': {"bid"', ': {"bid"]');
    const t = [lines[0], noSeq, badLevel, badJson, lines[4]].join('\n');
    expect(() => readHttpCapture(t, 'snap.http')).toThrow(/^snap\.http:2: header has no valid Sequence/);
    const r = readHttpCapture(t, 'snap.http', { onBadLine: 'skip' });
    expect(r.errors.map((e) => e.message.slice(0, 12))).toEqual(['snap.http:2:', 'snap.http:3:', 'snap.http:4:']);
    expect(r.errors[1]?.reason).toMatch(/orderbook: bid\[0\]\.quantity is negative: "-/);
    expect(r.errors[2]?.reason).toMatch(/body is not JSON/);
    expect(r.events.map((e) => e.marketSymbol)).toEqual(['BTC-EUR', 'SUKU-BTC']);
  });

  it('a file with a bad line fails loading by default, naming the path', () => {
    expect(() => replayFromTexts({ ws: [{ file: '/data/x.ws', text }] })).toThrow(/^\/data\/x\.ws:21: /);
  });
});

describe('recordedSecondsToMs', () => {
  it('converts recorded seconds exactly, rounding the fourth decimal', () => {
    expect(recordedSecondsToMs('1623635618.9820852')).toBe(1_623_635_618_982);
    expect(recordedSecondsToMs('1623635618.9825')).toBe(1_623_635_618_983);
    expect(recordedSecondsToMs('1623635618')).toBe(1_623_635_618_000);
    expect(recordedSecondsToMs('1623635618.5')).toBe(1_623_635_618_500);
    expect(recordedSecondsToMs('x')).toBeUndefined();
  });
});
