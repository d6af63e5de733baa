/**
 * A simulator that starts warm and moves (#12 item 6), all in virtual time: right after the synthetic driver
 * starts, the market already has recent trades, a 24-hour summary and candles of every interval back a day; the
 * default market trades often enough for a trade-driven strategy (a 14-period RSI is defined within the first
 * simulated minute), in bursts (per-minute counts overdispersed against Poisson), and activity is per market.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { CANDLE_INTERVALS } from '../../../src/model/enums.js';
import { SyntheticMarket } from '../../../src/sim/driver/synthetic-market.js';
import { createSimEngine } from '../../../src/sim/engine.js';
import { RSI } from '../../../src/strategy/index.js';

const DAY = 86_400_000;
const INTERVAL_MS = { MINUTE_1: 60_000, MINUTE_5: 300_000, HOUR_1: 3_600_000, DAY_1: DAY } as const;
const START = Date.UTC(2026, 10, 25, 10, 17, 30);

function setup(config: ConstructorParameters<typeof SyntheticMarket>[2]) {
  const clock = new VirtualClock(START);
  const engine = createSimEngine({ clock });
  const driver = new SyntheticMarket(engine, clock, { seed: 42, markets: ['BTC-USD', 'ETH-USD'], ...config });
  return { clock, engine, driver };
}

describe('a warm synthetic market', () => {
  it('has a day of trades, summary and candles of every interval at start, ending at the start price', () => {
    const { engine, driver } = setup({ historyHours: 24 });
    driver.start();
    const trades = engine.trades('BTC-USD').data;
    expect(trades.length).toBe(100); // what GET /trades answers
    expect(trades[0]!.executedAt.getTime()).toBeLessThan(START);
    const summary = engine.summary('BTC-USD');
    expect(summary.volume.gt(0)).toBe(true);
    expect(summary.high.gte(summary.low)).toBe(true);
    expect(engine.ticker('BTC-USD').lastTradeRate.gt(0)).toBe(true);
    // The history ends where the live market starts.
    expect(trades[0]!.rate.toString()).toBe(driver.mid('BTC-USD')!.toString());
    for (const interval of CANDLE_INTERVALS) {
      const candles = engine.candles('BTC-USD', 'TRADE', interval).data;
      expect(candles.length, interval).toBeGreaterThan(0);
      // The oldest candle kept starts within one interval of a day ago (older ones leave the retention window).
      expect(candles[0]!.startsAt.getTime(), interval).toBeLessThanOrEqual(START - DAY + INTERVAL_MS[interval]);
      expect(engine.candles('BTC-USD', 'MIDPOINT', interval).data.length, interval).toBeGreaterThan(0);
    }
    // No minute of the day without a candle.
    expect(engine.candles('BTC-USD', 'TRADE', 'MINUTE_1').data.length).toBeGreaterThanOrEqual(1440);
    expect(engine.candles('BTC-USD', 'TRADE', 'HOUR_1').data.length).toBeGreaterThanOrEqual(24);
    driver.stop();
    engine.dispose();
  });

  it('starts empty with historyHours 0 (the driver default for embedded engines)', () => {
    const { engine, driver } = setup({});
    driver.start();
    expect(engine.trades('BTC-USD').data).toEqual([]);
    driver.stop();
    engine.dispose();
  });

  it('trades often and in bursts by default; activity is configurable per market', async () => {
    const { clock, engine, driver } = setup({ perMarket: { 'ETH-USD': { takers: { ratePerMinute: 2, clustering: 0 } } } });
    const perMinute: Record<string, number[]> = { 'BTC-USD': [], 'ETH-USD': [] };
    const rsi = new RSI(14);
    let rsiAt: number | undefined;
    engine.bus.on((e) => {
      if (e.kind !== 'trade') return;
      const minute = Math.floor((clock.now() - START) / 60_000);
      const counts = perMinute[e.marketSymbol]!;
      counts[minute] = (counts[minute] ?? 0) + e.deltas.length;
      if (e.marketSymbol === 'BTC-USD') for (const t of e.deltas) if (rsi.update(t.rate) && rsiAt === undefined) rsiAt = clock.now() - START;
    });
    driver.start();
    const minutes = 30;
    await clock.advance(minutes * 60_000);
    driver.stop();
    const btc = Array.from({ length: minutes }, (_, i) => perMinute['BTC-USD']![i] ?? 0);
    const mean = btc.reduce((a, b) => a + b, 0) / minutes;
    const variance = btc.reduce((a, b) => a + (b - mean) ** 2, 0) / (minutes - 1);
    console.log(`BTC-USD: ${mean.toFixed(1)} trades a simulated minute, variance/mean ${(variance / mean).toFixed(1)}, RSI(14) defined after ${rsiAt} ms`);
    expect(mean).toBeGreaterThan(90); // at least 1.5 trades a second on average
    expect(variance / mean).toBeGreaterThan(3); // bursts: a Poisson count has variance ≈ mean
    expect(rsiAt).toBeLessThan(60_000);
    const eth = Array.from({ length: minutes }, (_, i) => perMinute['ETH-USD']![i] ?? 0).reduce((a, b) => a + b, 0) / minutes;
    expect(eth).toBeLessThan(mean / 10);
    engine.dispose();
  });
});
