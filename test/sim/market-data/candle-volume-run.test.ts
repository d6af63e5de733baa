/**
 * TRADE candles get their volumes from a run summed once for all intervals (VolumeRun) and added when the run
 * ends or a candle is read: every candle read over REST and every candle event must still carry exactly the sums
 * of its own trades, whether candle events are wanted (each publication brings the run up to date) or not (the
 * run spans many orders and interval boundaries), across reads, boundaries and multi-trade orders.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { type Decimal, ZERO, dec } from '../../../src/core/decimal.js';
import { CANDLE_INTERVALS, type CandleInterval } from '../../../src/model/enums.js';
import type { Candle, Trade } from '../../../src/model/market.js';
import { Catalog } from '../../../src/sim/catalog.js';
import { defaultSimConfig } from '../../../src/sim/config.js';
import { type SimEvent, SimEventBus } from '../../../src/sim/events.js';
import { candleStart } from '../../../src/sim/market-data/candle-time.js';
import { MarketData } from '../../../src/sim/market-data/market-data.js';
import { SequenceCounters } from '../../../src/sim/sequences.js';
import { T0, mkTrade } from './harness.js';

/** The candle of `interval` starting at `start`, from the trades themselves. */
function reference(trades: readonly Trade[], interval: CandleInterval, start: number): Omit<Candle, 'startsAt'> | undefined {
  const mine = trades.filter((t) => candleStart(interval, t.executedAt.getTime()) === start);
  if (mine.length === 0) return undefined;
  let high = mine[0]!.rate;
  let low = mine[0]!.rate;
  let volume: Decimal = ZERO;
  let quoteVolume: Decimal = ZERO;
  for (const t of mine) {
    if (t.rate.gt(high)) high = t.rate;
    if (t.rate.lt(low)) low = t.rate;
    volume = volume.plus(t.quantity);
    quoteVolume = quoteVolume.plus(t.quantity.times(t.rate));
  }
  return { open: mine[0]!.rate, high, low, close: mine[mine.length - 1]!.rate, volume, quoteVolume };
}

const text = (c: Omit<Candle, 'startsAt'>) => [c.open, c.high, c.low, c.close, c.volume, c.quoteVolume].map((d) => d.toFixed());

describe('TRADE candle volumes summed once per run', () => {
  for (const wanted of [false, true]) {
    it(`every candle read or published carries its trades' sums (candle events ${wanted ? 'wanted' : 'not wanted'})`, async () => {
      const clock = new VirtualClock(T0);
      const bus = new SimEventBus();
      const seen: SimEvent[] = [];
      bus.on((e) => seen.push(e), (kind) => kind !== 'candle' || wanted);
      const md = new MarketData({ clock, bus, sequences: new SequenceCounters(), catalog: new Catalog(defaultSimConfig()) });
      let seed = 5;
      const rnd = (n: number) => {
        seed = (seed * 48271) % 2147483647;
        return seed % n;
      };
      const trades: Trade[] = [];
      let published = 0;
      for (let step = 0; step < 700; step++) {
        const k = rnd(10);
        if (k < 3) await clock.advance(rnd(5) === 0 ? rnd(3 * 3_600_000) : rnd(90_000));
        const batch = Array.from({ length: 1 + rnd(3) }, () =>
          mkTrade(clock.now(), dec(`${29_000 + rnd(2000)}.${rnd(100)}`), dec(`0.${String(1 + rnd(99_999_999)).padStart(8, '0')}`)),
        );
        const from = seen.length;
        md.recordTrades('BTC-USD', batch);
        trades.push(...batch);
        // Each candle event carries its candle as it stands after the trades so far.
        for (const e of seen.slice(from)) {
          if (e.kind !== 'candle' || e.candleType !== 'TRADE') continue;
          published++;
          expect(text(e.delta), `event ${e.interval} ${e.delta.startsAt.toISOString()}`).toEqual(text(reference(trades, e.interval, e.delta.startsAt.getTime())!));
        }
        if (rnd(7) === 0) {
          for (const interval of CANDLE_INTERVALS) {
            for (const c of md.candles('BTC-USD', 'TRADE', interval).data) {
              expect(text(c), `read ${interval} ${c.startsAt.toISOString()}`).toEqual(text(reference(trades, interval, c.startsAt.getTime())!));
            }
          }
        }
      }
      if (wanted) expect(published).toBeGreaterThan(700);
      else expect(published).toBe(0);
    });
  }
});
