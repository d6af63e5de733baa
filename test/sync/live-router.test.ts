/**
 * LiveRouter finds book and trade messages' streams by market (and depth); the rule is the channel's name
 * (liveChannelOf, then the stream holding that channel). Random stream sets and random messages, malformed ones
 * included, must get the same stream (or none) both ways.
 */
import { describe, expect, it } from 'vitest';
import type { StreamMessage } from '../../src/bittrex/hub/messages.js';
import { LiveRouter } from '../../src/sync/live-router.js';
import { liveChannelOf, type LiveStream } from '../../src/sync/live-streams.js';
import { Prng } from './prng.js';

const MARKETS = ['BTC-USD', 'ETH-BTC', 'A.B-C'];
const DEPTHS = [1, 25, 500];

/** A stream with only what routing reads (its channel); numbered so two streams of one channel differ. */
const stream = (channel: string, n: number): LiveStream =>
  ({ channel, marketSymbol: undefined, critical: false, sync: undefined, push: () => undefined, n }) as unknown as LiveStream;

function randomStreams(rnd: Prng): LiveStream[] {
  const out: LiveStream[] = [];
  const count = 1 + rnd.int(8);
  for (let i = 0; i < count; i++) {
    const m = rnd.pick(MARKETS);
    const channel = rnd.pick([
      `orderbook_${m}_${rnd.pick(DEPTHS)}`,
      `orderbook_${m}_${rnd.pick(DEPTHS)}`,
      `trade_${m}`,
      `candle_${m}_MINUTE_1`,
      'balance',
      'order',
      'execution',
      'conditional_order',
    ]);
    out.push(stream(channel, i));
  }
  // Sometimes a channel twice: the later stream takes it.
  if (rnd.chance(0.3) && out.length > 0) out.push(stream(rnd.pick(out).channel, 99));
  return out;
}

function randomMessage(rnd: Prng): StreamMessage {
  const name = rnd.pick(['orderBook', 'orderBook', 'trade', 'trade', 'candle', 'balance', 'order', 'execution', 'conditionalOrder', 'ticker', 'heartbeat']);
  // Well-formed values mostly; some a decoder would refuse (a depth as text, an unknown depth, no market).
  const marketSymbol = rnd.chance(0.9) ? rnd.pick(MARKETS) : rnd.pick(['XRP-USD', undefined, 'btc-usd']);
  const depth = rnd.chance(0.85) ? rnd.pick(DEPTHS) : rnd.pick(['25', 7, Number.NaN, undefined, -0, 0]);
  const data = { marketSymbol, depth, sequence: 1, interval: 'MINUTE_1', candleType: rnd.pick([undefined, 'TRADE', 'MIDPOINT']), symbol: marketSymbol };
  return { name, data } as unknown as StreamMessage;
}

describe('LiveRouter', () => {
  it('finds every message the stream its channel name finds, over random streams and messages', () => {
    let found = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const rnd = new Prng(seed);
      const streams = randomStreams(rnd);
      const router = new LiveRouter(streams);
      // The rule, written out independently: the last stream of each channel, looked up by liveChannelOf.
      const byChannel = new Map(streams.map((s) => [s.channel, s]));
      for (let i = 0; i < 200; i++) {
        const m = randomMessage(rnd);
        const channel = liveChannelOf(m);
        const expected = channel === undefined ? undefined : byChannel.get(channel);
        expect(router.streamOf(m), `seed ${seed}: ${JSON.stringify(m)}`).toBe(expected);
        expect(router.byChannelName(m)).toBe(expected);
        if (expected) found++;
      }
      for (const s of streams) expect(router.byChannel(s.channel)).toBe(byChannel.get(s.channel));
    }
    expect(found).toBeGreaterThan(5_000);
  });
});
