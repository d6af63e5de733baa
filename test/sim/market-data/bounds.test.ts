import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { CandleSeries } from '../../../src/sim/market-data/candle-series.js';
import { RECENT_WINDOW_MS } from '../../../src/sim/market-data/candle-time.js';
import { RollingSummary } from '../../../src/sim/market-data/rolling-summary.js';
import { DAY, T0 } from './harness.js';

describe('memory bounds', () => {
  it('a candle series holds at most its retention window of candles', () => {
    const s = new CandleSeries('MINUTE_1', RECENT_WINDOW_MS.MINUTE_1);
    for (let t = T0; t < T0 + 3 * DAY; t += 30_000) s.addTrade(t, dec('1'), dec('1'));
    expect(s.size).toBe(1440);
    expect(s.lastClose?.toString()).toBe('1');
  });

  it('the rolling summary holds at most one bucket per second of the window', () => {
    const s = new RollingSummary(T0);
    // Many trades per second for two days: buckets, not trades, are kept.
    for (let t = T0; t < T0 + 2 * DAY; t += 250) {
      s.add(t, dec('2'), dec('1'));
      if (t % 60_000 === 0) s.evict(t);
    }
    s.evict(T0 + 2 * DAY);
    const snap = s.snapshot('X');
    expect(snap.volume.toString()).toBe(String(4 * 86_400));
    expect(snap.quoteVolume.toString()).toBe(String(8 * 86_400));
  });

  it('high and low follow the window exactly through interleaved maxima and minima', () => {
    const s = new RollingSummary(T0, 10_000, 1000);
    const rates = [5, 9, 3, 7, 8, 1, 6, 2, 4, 10, 5, 5];
    rates.forEach((r, i) => s.add(T0 + i * 1000, dec(r), dec('1')));
    // The window at T0 + 12 s holds the buckets starting after T0 + 1 s: rates[2..].
    s.evict(T0 + 12_000);
    const snap = s.snapshot('X');
    expect([String(snap.high), String(snap.low), String(snap.volume)]).toEqual(['10', '1', '10']);
    s.evict(T0 + 16_000); // rates[6..]
    expect([String(s.snapshot('X').high), String(s.snapshot('X').low)]).toEqual(['10', '2']);
    s.evict(T0 + 20_000); // rates[10..]
    expect([String(s.snapshot('X').high), String(s.snapshot('X').low)]).toEqual(['5', '5']);
  });
});
