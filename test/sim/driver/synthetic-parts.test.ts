/** The pure parts of the synthetic market: PRNG, start prices, price walk, maker ladder, configuration. */
import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { defaultSimConfig } from '../../../src/sim/config.js';
import { type LadderLevel, gridStep, ladderLevels } from '../../../src/sim/driver/maker-ladder.js';
import { PriceWalk } from '../../../src/sim/driver/price-walk.js';
import { Prng } from '../../../src/sim/driver/prng.js';
import { startPriceFor } from '../../../src/sim/driver/start-prices.js';
import { marketSettings, resolveSyntheticConfig } from '../../../src/sim/driver/synthetic-config.js';

const market = (symbol: string) => {
  const m = defaultSimConfig().markets.find((x) => x.symbol === symbol);
  if (!m) throw new Error(symbol);
  return m;
};

describe('Prng', () => {
  it('is a pure function of its seed, and forks are independent but reproducible', () => {
    const a = new Prng('seed');
    const b = new Prng('seed');
    const xs = Array.from({ length: 50 }, () => a.next());
    expect(Array.from({ length: 50 }, () => b.next())).toEqual(xs);
    expect(new Prng('other').next()).not.toBe(xs[0]);
    expect(new Prng('seed').fork('x').next()).toBe(new Prng('seed').fork('x').next());
    expect(new Prng('seed').fork('x').next()).not.toBe(new Prng('seed').fork('y').next());
  });

  it('draws in range with the expected means', () => {
    const r = new Prng(1);
    const n = 20_000;
    let u = 0;
    let e = 0;
    let z = 0;
    let z2 = 0;
    let outOfRange = 0;
    for (let i = 0; i < n; i++) {
      const x = r.next();
      if (!(x >= 0 && x < 1)) outOfRange++;
      u += x;
      e += r.exponential(4);
      const g = r.normal();
      z += g;
      z2 += g * g;
      const k = r.intBetween(3, 5);
      if (k < 3 || k > 5 || !Number.isInteger(k)) outOfRange++;
    }
    expect(outOfRange).toBe(0);
    expect(u / n).toBeCloseTo(0.5, 1);
    expect(e / n).toBeCloseTo(0.25, 1);
    expect(z / n).toBeCloseTo(0, 1);
    expect(z2 / n).toBeCloseTo(1, 1);
  });
});

describe('startPriceFor', () => {
  it('uses the table, then a cross of USD values, then the fallback, at the market precision', () => {
    expect(startPriceFor(market('BTC-USD')).toFixed()).toBe('30000');
    expect(startPriceFor(market('ETH-BTC')).toFixed()).toBe('0.065');
    const ltcUsd = { ...market('BTC-USD'), symbol: 'LTC-USD', baseCurrencySymbol: 'LTC' };
    expect(startPriceFor(ltcUsd).toFixed()).toBe('140');
    const odd = { ...market('BTC-USD'), symbol: 'FOO-BAR', baseCurrencySymbol: 'FOO', quoteCurrencySymbol: 'BAR', precision: 8 };
    expect(startPriceFor(odd).toFixed()).toBe('1');
    expect(startPriceFor(market('BTC-USD'), '31000.12345').toFixed()).toBe('31000.123');
  });

  it('never starts below a hundred price ticks', () => {
    const tiny = { ...market('ETH-BTC'), precision: 2 };
    expect(startPriceFor(tiny).toFixed()).toBe('1');
  });
});

describe('PriceWalk', () => {
  const params = { anchor: dec('30000'), volatilityPerSqrtSecond: 0.001, anchorPullPerSecond: 0, precision: 3 };

  it('moves, stays positive and on the tick, and repeats for the same seed', () => {
    const path = (seed: string) => {
      const w = new PriceWalk(params, new Prng(seed));
      return Array.from({ length: 120 }, () => {
        w.advance(500);
        return w.mid();
      });
    };
    const p1 = path('s');
    expect(p1.map(String)).toEqual(path('s').map(String));
    expect(new Set(p1.map(String)).size).toBeGreaterThan(100);
    for (const m of p1) {
      expect(m.gt(0)).toBe(true);
      expect(m.decimalPlaces()).toBeLessThanOrEqual(3);
    }
  });

  it('is pulled back towards its anchor', () => {
    const w = new PriceWalk({ ...params, volatilityPerSqrtSecond: 0, anchorPullPerSecond: 0.5 }, new Prng(1));
    expect(w.mid().toFixed()).toBe('30000');
    // No noise and the log mid already at the anchor: nothing moves.
    w.advance(10_000);
    expect(w.mid().toFixed()).toBe('30000');
  });
});

describe('ladderLevels', () => {
  const rates = (q: LadderLevel[], d: 'BUY' | 'SELL') => q.filter((x) => x.direction === d).map((x) => x.rate.toFixed());

  it('places bids below and asks above the mid, on a grid of nice steps', () => {
    const q = ladderLevels({ mid: dec('100'), precision: 2, halfSpreadBps: 10, levelSpacingBps: 5, levels: 3 });
    expect(rates(q, 'BUY')).toEqual(['99.9', '99.85', '99.8']);
    expect(rates(q, 'SELL')).toEqual(['100.1', '100.15', '100.2']);
    expect(gridStep(dec('12'), dec('0.001')).toFixed()).toBe('20');
    expect(gridStep(dec('0.000026'), dec('0.00000001')).toFixed()).toBe('0.00005');
    expect(gridStep(dec('0.0001'), dec('0.01')).toFixed()).toBe('0.01');
  });

  it('keeps most levels when the mid moves less than a step (cheap re-quotes)', () => {
    const a = ladderLevels({ mid: dec('30000'), precision: 3, halfSpreadBps: 5, levelSpacingBps: 4, levels: 10 });
    const b = ladderLevels({ mid: dec('30003.5'), precision: 3, halfSpreadBps: 5, levelSpacingBps: 4, levels: 10 });
    const keys = (q: LadderLevel[]) => new Set(q.map((x) => `${x.direction}${x.rate.toFixed()}`));
    const kept = [...keys(b)].filter((k) => keys(a).has(k));
    expect(kept.length).toBeGreaterThanOrEqual(18);
  });

  it('stays a tick apart and uncrossed when the spread is below one tick', () => {
    const q = ladderLevels({ mid: dec('0.00000071'), precision: 8, halfSpreadBps: 5, levelSpacingBps: 5, levels: 4 });
    expect(rates(q, 'BUY')).toEqual(['0.0000007', '0.00000069', '0.00000068', '0.00000067']);
    expect(rates(q, 'SELL')).toEqual(['0.00000072', '0.00000073', '0.00000074', '0.00000075']);
    const zero = ladderLevels({ mid: dec('5'), precision: 0, halfSpreadBps: 0, levelSpacingBps: 0, levels: 1 });
    expect([rates(zero, 'BUY'), rates(zero, 'SELL')]).toEqual([['4'], ['6']]);
  });

  it('drops bids at or below zero', () => {
    const q = ladderLevels({ mid: dec('0.02'), precision: 2, halfSpreadBps: 10, levelSpacingBps: 5, levels: 3 });
    expect(rates(q, 'BUY')).toEqual(['0.01']);
    expect(rates(q, 'SELL')).toEqual(['0.03', '0.04', '0.05']);
  });

  it('never crosses, for any mid and precision', () => {
    const r = new Prng('ladder');
    let bad = 0;
    for (let i = 0; i < 300; i++) {
      const precision = r.intBetween(0, 8);
      const mid = dec(r.uniform(0.5, 50_000).toFixed(precision));
      if (mid.lte(0)) continue;
      const q = ladderLevels({ mid, precision, halfSpreadBps: r.uniform(0, 20), levelSpacingBps: r.uniform(0, 10), levels: 5 });
      const bids = q.filter((x) => x.direction === 'BUY').map((x) => x.rate);
      const asks = q.filter((x) => x.direction === 'SELL').map((x) => x.rate);
      for (let k = 1; k < bids.length; k++) if (!bids[k]!.lt(bids[k - 1]!)) bad++;
      for (let k = 1; k < asks.length; k++) if (!asks[k]!.gt(asks[k - 1]!)) bad++;
      if (bids[0] && !(bids[0].lt(mid) && asks[0]!.gt(mid))) bad++;
      for (const x of q) if (x.rate.decimalPlaces() > precision) bad++;
    }
    expect(bad).toBe(0);
  });
});

describe('synthetic configuration', () => {
  it('fills defaults field by field and applies per-market overrides', () => {
    const cfg = resolveSyntheticConfig({ seed: 9, takers: { ratePerMinute: 60 }, perMarket: { 'ETH-BTC': { makers: { levels: 3 }, volatilityPerSqrtSecond: 0.001 } } });
    expect(cfg.takers).toEqual({ ratePerMinute: 60, clustering: 0.7, clusterDecayMs: 20_000, lots: [15, 80], limitShare: 0.25, limitSlippageBps: 15 });
    expect(cfg.makers.levels).toBe(10);
    const eth = marketSettings(cfg, 'ETH-BTC');
    expect(eth.makers.levels).toBe(3);
    expect(eth.makers.count).toBe(3);
    expect(eth.volatilityPerSqrtSecond).toBe(0.001);
    expect(marketSettings(cfg, 'BTC-USD').volatilityPerSqrtSecond).toBe(0.0002);
  });

  it('refuses nonsense with the field named', () => {
    expect(() => resolveSyntheticConfig({ tickMs: 0 })).toThrow(/tickMs/);
    expect(() => resolveSyntheticConfig({ makers: { levelLots: [5, 2] } })).toThrow(/makers\.levelLots/);
    expect(() => resolveSyntheticConfig({ takers: { limitShare: 2 } })).toThrow(/limitShare/);
    expect(() => resolveSyntheticConfig({ takers: { clustering: 1 } })).toThrow(/takers\.clustering/);
  });
});
