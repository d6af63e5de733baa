/**
 * The venue remembers the market of the last event (and its book sequences the last market's state), since the next
 * event is most often of the same one. Against no such memory: a recording of two markets interleaved at random,
 * with events of a market the venue does not list among them, and sequenced deltas that come early, stale, in order
 * and after gaps, played by one venue of both markets and by one venue per market (each sees its market's events
 * only). They must publish the same messages per market and count the same.
 */
import { describe, expect, it } from 'vitest';
import type { StreamMessage } from '../../src/bittrex/hub/messages.js';
import { VirtualClock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import { createSimEngine } from '../../src/sim/engine.js';
import type { MarketEvent } from '../../backtest/readers/reader.js';
import { BacktestVenue } from '../../backtest/venue/backtest-venue.js';
import { queueModel } from '../../backtest/venue/queue-model.js';

const T0 = Date.parse('2024-01-01T00:00:00Z');
const src = { file: 'test', line: 1 };
const MARKETS = ['BTC-USD', 'ETH-USD'];

function venueOf(markets: string[]) {
  const clock = new VirtualClock(T0);
  const engine = createSimEngine({ clock });
  const account = engine.createParticipant({ USD: dec('1000000'), BTC: dec('10'), ETH: dec('10') });
  const venue = new BacktestVenue({ engine, clock, accountId: account, markets, queueModel: queueModel('pessimistic') });
  for (const m of markets) for (const d of [1, 25] as const) venue.feed(m)!.follow(d);
  const published: StreamMessage[] = [];
  venue.subscribe((m) => published.push(m));
  return { clock, venue, published };
}

/** Text of a message, enough to tell any two apart. */
const text = (m: StreamMessage): string => {
  if (m.name === 'orderBook') return `${m.data.marketSymbol} ${m.data.depth}#${m.data.sequence} ${m.data.bidDeltas.map((e) => `${e.rate}:${e.quantity}`).join(',')} | ${m.data.askDeltas.map((e) => `${e.rate}:${e.quantity}`).join(',')}`;
  if (m.name === 'trade') return `${m.data.marketSymbol} trade#${m.data.sequence} ${m.data.deltas.map((t) => t.id).join(',')}`;
  return m.name;
};

const marketOf = (m: StreamMessage): string => (m.data as { marketSymbol: string }).marketSymbol;

describe('venue: the market of the last event, remembered', () => {
  for (const seed of [1, 2, 3]) {
    it(`interleaved markets publish and count as one venue per market, seed ${seed}`, () => {
      const random = mulberry32(seed);
      const seq: Record<string, number> = { 'BTC-USD': 0, 'ETH-USD': 0, 'XRP-USD': 0 };
      const events: MarketEvent[] = [];
      for (let i = 0; i < 4000; i++) {
        const at = T0 + i;
        const roll = random();
        // Fresh strings, as a reader makes them (not the venue's own).
        const market = [...(roll < 0.05 ? 'XRP-USD' : MARKETS[random() < 0.7 ? 0 : 1]!)].join('');
        const kind = random();
        const level = () => ({ rate: dec(String(100 + Math.floor(random() * 10) * (random() < 0.5 ? 1 : -1))), quantity: dec(random() < 0.3 ? '0' : String(1 + Math.floor(random() * 9))) });
        if (kind < 0.03) {
          seq[market] = seq[market]! + Math.floor(random() * 3);
          events.push({ kind: 'snapshot', at, marketSymbol: market, sequence: seq[market]!, bid: [{ rate: dec('99'), quantity: dec('1') }], ask: [{ rate: dec('101'), quantity: dec('1') }], source: src });
        } else if (kind < 0.8) {
          // In order mostly; sometimes stale (a step back) or after a gap; sometimes unsequenced.
          const r = random();
          const s = r < 0.1 ? 0 : r < 0.2 ? Math.max(1, seq[market]! - 1) : (seq[market] = seq[market]! + (r < 0.3 ? 3 : 1));
          const bid = Array.from({ length: Math.floor(random() * 3) }, level).filter((e) => e.rate.lt(100));
          const ask = Array.from({ length: Math.floor(random() * 3) }, level).filter((e) => e.rate.gt(100));
          events.push({ kind: 'orderBookDelta', at, marketSymbol: market, depth: 500, sequence: s, bidDeltas: bid, askDeltas: ask, source: src });
        } else {
          const rate = dec(String(95 + Math.floor(random() * 10)));
          events.push({ kind: 'trade', at, marketSymbol: market, sequence: 0, trades: [{ id: `t${i}`, executedAt: new Date(at), quantity: dec('0.5'), rate, takerSide: random() < 0.5 ? 'BUY' : 'SELL' }], source: src });
        }
      }
      const both = venueOf(MARKETS);
      const apart = MARKETS.map((m) => venueOf([m]));
      for (const e of events) {
        both.clock.set(e.at);
        both.venue.apply(e);
        const i = MARKETS.indexOf(e.marketSymbol);
        if (i >= 0) {
          apart[i]!.clock.set(e.at);
          apart[i]!.venue.apply(e);
        }
      }
      MARKETS.forEach((m, i) => {
        const mine = both.published.filter((p) => marketOf(p) === m).map(text);
        expect(mine).toEqual(apart[i]!.published.map(text));
        expect(mine.length).toBeGreaterThan(500);
      });
      const s = both.venue.stats;
      const sum = (k: 'events' | 'deltasBeforeSnapshot' | 'earlyDeltas' | 'sequenceGaps') => apart.reduce((a, v) => a + v.venue.stats[k], 0);
      expect([s.events, s.deltasBeforeSnapshot, s.earlyDeltas, s.sequenceGaps]).toEqual([sum('events'), sum('deltasBeforeSnapshot'), sum('earlyDeltas'), sum('sequenceGaps')]);
      expect(s.unknownMarket).toBe(events.filter((e) => e.marketSymbol === 'XRP-USD').length);
      expect(s.deltasBeforeSnapshot).toBeGreaterThan(50);
      expect(s.sequenceGaps).toBeGreaterThan(50);
    });
  }
});
