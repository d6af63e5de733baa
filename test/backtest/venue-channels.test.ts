/**
 * The venue names the channel of each message it publishes (its feeds name the book and trade channels once,
 * instead of the gateway working it out per message), and the gateway queues a message for the bot by that name.
 * On a random run — book snapshots and deltas, trades, candles, our orders placed and cancelled through the gateway
 * with a random market-data latency — every publication's channel must be what channelOf (the general rule) says,
 * and the bot must get exactly the publications of its channels, in publication order, never before they were
 * published, with the answers to its commands among them — also while some of its channels are dropped and taken
 * again (the gateway remembers its last answers about channels, and must forget them then).
 */
import { describe, expect, it } from 'vitest';
import type { StreamMessage } from '../../src/bittrex/hub/messages.js';
import { dec } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import type { MarketEvent } from '../../backtest/readers/reader.js';
import { channelOf } from '../../backtest/venue/message-channels.js';
import { ev, M, T0, venueHarness } from './venue-harness.js';

const SUBSCRIBED = ['orderbook_BTC-USD_25', 'orderbook_BTC-USD_1', 'trade_BTC-USD', 'candle_BTC-USD_MINUTE_1', 'order', 'execution'];

describe('venue channels and gateway delivery', () => {
  for (const seed of [1, 2, 3]) {
    it(`every publication names channelOf's channel; the bot gets its channels' messages in order, seed ${seed}`, async () => {
      const random = mulberry32(seed);
      const h = venueHarness({ latency: { marketData: { kind: 'uniform', min: 0, max: 6, seed } } });
      // The channels subscribed as each message is published: two of them are dropped and taken again during the run.
      const subscribed = new Set(SUBSCRIBED);
      const published: Array<{ m: StreamMessage; channel: string; at: number; wanted: boolean }> = [];
      h.venue.subscribe((m, channel) => published.push({ m, channel, at: h.clock.now(), wanted: subscribed.has(channel) }));
      await h.gateway.streams.subscribe([...SUBSCRIBED, 'orderbook_BTC-USD_500']);
      // Followed (its views are kept) but not listened to: its messages are published and not queued.
      await h.gateway.streams.unsubscribe(['orderbook_BTC-USD_500']);
      const delivered: Array<{ m: StreamMessage; at: number }> = [];
      const sub = h.gateway.streams.messages$.subscribe((m) => delivered.push({ m, at: h.clock.now() }));
      const answers: string[] = [];
      const open: string[] = [];
      const level = () => [String(100 + Math.floor(random() * 10) * (random() < 0.5 ? 1 : -1)), random() < 0.25 ? '0' : String(1 + Math.floor(random() * 9))] as [string, string];
      let at = T0;
      await h.play(ev.snapshot(at, [['99', '5'], ['98', '5']], [['101', '5'], ['102', '5']]));
      for (let step = 0; step < 600; step++) {
        at += Math.floor(random() * 4);
        const roll = random();
        let e: MarketEvent;
        if (roll < 0.6) {
          const bid = Array.from({ length: Math.floor(random() * 3) }, level).filter(([r]) => Number(r) < 100);
          const ask = Array.from({ length: Math.floor(random() * 3) }, level).filter(([r]) => Number(r) > 100);
          e = ev.delta(at, bid, ask);
        } else if (roll < 0.85) {
          e = ev.trade(at, random() < 0.5 ? 'BUY' : 'SELL', String(96 + Math.floor(random() * 9)), '0.5');
        } else if (roll < 0.9) {
          const c = dec(String(95 + Math.floor(random() * 10)));
          e = {
            kind: 'candle',
            at,
            marketSymbol: M,
            interval: 'MINUTE_1',
            final: random() < 0.5,
            candle: { startsAt: new Date(at - 60_000), open: c, high: c, low: c, close: c, volume: dec('1'), quoteVolume: c },
            source: { file: 'test', line: 1 },
          };
        } else {
          e = ev.snapshot(at, [['99', String(1 + Math.floor(random() * 5))], ['97', '2']], [['101', '3'], ['103', String(1 + Math.floor(random() * 5))]]);
        }
        await h.play(e);
        if (random() < 0.05) {
          const c = random() < 0.5 ? 'trade_BTC-USD' : 'orderbook_BTC-USD_1';
          if (subscribed.delete(c)) await h.gateway.streams.unsubscribe([c]);
          else {
            subscribed.add(c);
            await h.gateway.streams.subscribe([c]);
          }
        }
        if (random() < 0.08) {
          const buy = random() < 0.5;
          const rate = buy ? String(96 + Math.floor(random() * 5)) : String(100 + Math.floor(random() * 5));
          void h.gateway.placeOrder({ marketSymbol: M, direction: buy ? 'BUY' : 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('1'), limit: dec(rate) }).then(
            (o) => {
              answers.push(`placed ${o.id}`);
              open.push(o.id);
            },
            (err: Error) => answers.push(`refused ${err.message}`),
          );
        }
        if (random() < 0.04 && open.length > 0) {
          const id = open.splice(Math.floor(random() * open.length), 1)[0]!;
          void h.gateway.cancelOrder(id).then(
            () => answers.push(`cancelled ${id}`),
            (err: Error) => answers.push(`not cancelled ${err.message}`),
          );
        }
      }
      await h.clock.advanceTo(at + 1_000);
      sub.unsubscribe();

      for (const p of published) expect(p.channel).toBe(channelOf(p.m));
      const names = new Set(published.map((p) => p.m.name));
      for (const name of ['orderBook', 'trade', 'candle', 'order', 'balance', 'execution']) expect(names).toContain(name);
      const want = published.filter((p) => p.wanted);
      expect(published.some((p) => !p.wanted && SUBSCRIBED.includes(p.channel))).toBe(true);
      expect(want.length).toBeLessThan(published.length);
      expect(delivered.map((d) => d.m)).toEqual(want.map((p) => p.m));
      delivered.forEach((d, i) => {
        expect(d.m).toBe(want[i]!.m);
        expect(d.at).toBeGreaterThanOrEqual(want[i]!.at);
        if (i > 0) expect(d.at).toBeGreaterThanOrEqual(delivered[i - 1]!.at);
      });
      expect(answers.some((a) => a.startsWith('placed'))).toBe(true);
      expect(answers.some((a) => a.startsWith('cancelled'))).toBe(true);
    });
  }
});
