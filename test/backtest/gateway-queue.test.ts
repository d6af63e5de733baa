/**
 * The backtest gateway's delivery queue (a ring in parallel arrays that grows when full) against its rule, written
 * plainly: every message of a subscribed channel reaches the bot at max(the last one's time, its publication time +
 * a latency draw), in publication order. The latency here is long next to the gaps between events, so hundreds wait
 * at once (the ring grows, and wraps around as it drains), and short at times (it empties).
 */
import { describe, expect, it } from 'vitest';
import type { StreamMessage } from '../../src/bittrex/hub/messages.js';
import { mulberry32 } from '../../src/core/prng.js';
import { createLatency } from '../../backtest/venue/latency.js';
import { ev, T0, venueHarness } from './venue-harness.js';

describe('backtest gateway delivery queue', () => {
  for (const seed of [1, 2]) {
    it(`delivers each message at its due time and in order while hundreds wait, seed ${seed}`, async () => {
      const random = mulberry32(seed);
      const latency = { kind: 'uniform', min: 0, max: 400, seed } as const;
      const h = venueHarness({ latency: { marketData: latency } });
      const draws = createLatency(latency, '.', 'md');
      const published: Array<{ m: StreamMessage; at: number }> = [];
      h.venue.subscribe((m, channel) => {
        if (channel === 'orderbook_BTC-USD_25' || channel === 'trade_BTC-USD') published.push({ m, at: h.clock.now() });
      });
      await h.gateway.streams.subscribe(['orderbook_BTC-USD_25', 'trade_BTC-USD']);
      const delivered: Array<{ m: StreamMessage; at: number }> = [];
      const sub = h.gateway.streams.messages$.subscribe((m) => delivered.push({ m, at: h.clock.now() }));
      let at = T0;
      await h.play(ev.snapshot(at, [['99', '5']], [['101', '5']]));
      for (let step = 0; step < 3000; step++) {
        // Mostly dense (hundreds queued), now and then a pause longer than any latency (the queue empties).
        at += random() < 0.01 ? 1000 : Math.floor(random() * 3);
        const e = random() < 0.7
          ? ev.delta(at, [[String(90 + Math.floor(random() * 9)), String(Math.floor(random() * 5))]], [])
          : ev.trade(at, 'BUY', '100', '0.5');
        await h.play(e);
      }
      await h.clock.advanceTo(at + 1_000);
      sub.unsubscribe();

      let last = 0;
      const want = published.map((p) => {
        last = Math.max(last, p.at + draws.next());
        return { m: p.m, at: last };
      });
      expect(published.length).toBeGreaterThan(2500);
      expect(delivered.length).toBe(want.length);
      delivered.forEach((d, i) => {
        expect(d.m).toBe(want[i]!.m);
        expect(d.at).toBe(want[i]!.at);
      });
    });
  }
});
