/**
 * The streaming indicators against published worked examples (StockCharts' EMA and Wilder RSI tables, to their
 * two printed decimals), hand-computable exact cases, and an independent textbook recomputation (plain numbers,
 * whole series at once) for MACD and ATR; plus the incremental contract: replacing the last value equals having
 * added the replacement, and closedCandles emits each finished candle once.
 */
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { dec, Decimal } from '../../src/core/decimal.js';
import type { Candle } from '../../src/model/index.js';
import { ATR, BollingerBands, closedCandles, EMA, MACD, RSI, SMA, VWAP } from '../../src/strategy/index.js';

const fixed2 = (d: Decimal | undefined): string | undefined => d?.toFixed(2);

// StockCharts "Moving Averages - Simple and Exponential", 10-day EMA worksheet.
const EMA_CLOSES = [22.27, 22.19, 22.08, 22.17, 22.18, 22.13, 22.23, 22.43, 22.24, 22.29, 22.15, 22.39, 22.38, 22.61, 23.36, 24.05, 23.75, 23.83, 23.95, 23.63, 23.82, 23.87, 23.65, 23.19, 23.1, 23.33, 22.68, 23.1, 22.4, 22.17];
const EMA_10 = ['22.22', '22.21', '22.24', '22.27', '22.33', '22.52', '22.80', '22.97', '23.13', '23.28', '23.34', '23.43', '23.51', '23.53', '23.47', '23.40', '23.39', '23.26', '23.23', '23.08', '22.92'];

// StockCharts "Relative Strength Index (RSI)" worksheet, 14 periods.
// The sheet prints closes to 2 dp but computes with these 4-dp values.
const RSI_CLOSES = [44.3389, 44.0902, 44.1497, 43.6124, 44.3278, 44.8264, 45.0955, 45.4245, 45.8433, 46.0826, 45.8931, 46.0328, 45.614, 46.282, 46.282, 46.0028, 46.0328, 46.4116, 46.2222, 45.6439, 46.2122, 46.2521, 45.7137, 46.4515, 45.7835, 45.3548, 44.0288, 44.1783, 44.2181, 44.5672, 43.4205, 42.6628, 43.1314];
const RSI_14 = ['70.53', '66.32', '66.55', '69.41', '66.36', '57.97', '62.93', '63.26', '56.06', '62.38', '54.71', '50.42', '39.99', '41.46', '41.87', '45.46', '37.30', '33.08', '37.77'];

describe('EMA', () => {
  it("matches StockCharts' 10-day worked example", () => {
    const ema = new EMA(10);
    const out = EMA_CLOSES.map((c) => fixed2(ema.update(String(c))));
    expect(out.slice(0, 9)).toEqual(Array(9).fill(undefined));
    expect(out.slice(9)).toEqual(EMA_10);
  });
});

describe('RSI', () => {
  it("matches StockCharts' 14-period Wilder worked example", () => {
    const rsi = new RSI(14);
    const out = RSI_CLOSES.map((c) => fixed2(rsi.update(String(c))));
    expect(out.slice(0, 14)).toEqual(Array(14).fill(undefined));
    expect(out.slice(14)).toEqual(RSI_14);
  });

  it('is 100 with no losses and 0 with no gains', () => {
    const up = new RSI(3);
    [1, 2, 3, 4].forEach((v) => up.update(v));
    expect(up.value?.toString()).toBe('100');
    const down = new RSI(3);
    [4, 3, 2, 1].forEach((v) => down.update(v));
    expect(down.value?.toString()).toBe('0');
  });

  it('replacing the last value gives what adding the replacement would have (a forming candle)', () => {
    const a = new RSI(14);
    const b = new RSI(14);
    RSI_CLOSES.forEach((c, i) => {
      a.update(String(c));
      a.update('50', true); // a trade moved the forming candle...
      a.update(String(c), true); // ...and another moved it back
      b.update(String(c));
      expect(a.value?.toString(), `at ${i}`).toBe(b.value?.toString());
    });
    expect(a.inputs).toBe(RSI_CLOSES.length);
  });
});

describe('SMA', () => {
  it('averages the window exactly', () => {
    const sma = new SMA(3);
    expect(['0.1', '0.2', '0.3', '0.4'].map((v) => sma.update(v)?.toString())).toEqual([undefined, undefined, '0.2', '0.3']);
  });
});

/** Textbook EMA over a whole series with plain numbers (SMA seed), independent of the streaming code. */
function emaSeries(values: number[], n: number): (number | undefined)[] {
  const out: (number | undefined)[] = [];
  let e: number | undefined;
  values.forEach((v, i) => {
    if (i + 1 < n) return out.push(undefined);
    e = i + 1 === n ? values.slice(0, n).reduce((a, b) => a + b, 0) / n : (v - e!) * (2 / (n + 1)) + e!;
    out.push(e);
  });
  return out;
}

describe('MACD', () => {
  it('equals EMA12 − EMA26 with an EMA9 signal, recomputed independently', () => {
    const closes = Array.from({ length: 80 }, (_, i) => 100 + 10 * Math.sin(i / 5) + (i % 7) * 0.37);
    const fast = emaSeries(closes, 12);
    const slow = emaSeries(closes, 26);
    const line = closes.map((_, i) => (slow[i] === undefined ? undefined : fast[i]! - slow[i]!));
    const defined = line.filter((v): v is number => v !== undefined);
    const signal = emaSeries(defined, 9);
    const macd = new MACD();
    closes.forEach((c, i) => {
      const v = macd.update(String(c));
      const j = i - 25; // index into the defined MACD line
      const sig = j >= 0 ? signal[j] : undefined;
      if (sig === undefined) return expect(v, `at ${i}`).toBeUndefined();
      expect(v!.macd.toNumber()).toBeCloseTo(line[i]!, 9);
      expect(v!.signal.toNumber()).toBeCloseTo(sig, 9);
      expect(v!.histogram.toNumber()).toBeCloseTo(line[i]! - sig, 9);
    });
    expect(macd.value).toBeDefined();
  });
});

describe('Bollinger bands', () => {
  it('use the population deviation: 2,4,4,4,5,5,7,9 has mean 5 and deviation 2', () => {
    const bb = new BollingerBands(8, 2);
    const v = [2, 4, 4, 4, 5, 5, 7, 9].map((x) => bb.update(x)).at(-1)!;
    expect([v.middle, v.deviation, v.upper, v.lower].map(String)).toEqual(['5', '2', '9', '1']);
    bb.update(11); // window 4,4,4,5,5,7,9,11: mean 6.125
    expect(bb.value?.middle.toString()).toBe('6.125');
  });
});

describe('ATR', () => {
  it("is Wilder's smoothing of true ranges that reach to the previous close, recomputed independently", () => {
    const bars = Array.from({ length: 40 }, (_, i) => {
      const close = 50 + 5 * Math.sin(i / 3);
      return { high: close + 1 + (i % 3) * 0.5, low: close - 1 - (i % 4) * 0.25, close: i % 5 === 0 ? close + 2.5 : close };
    });
    const tr = bars.map((b, i) => (i === 0 ? b.high - b.low : Math.max(b.high - b.low, Math.abs(b.high - bars[i - 1]!.close), Math.abs(b.low - bars[i - 1]!.close))));
    let ref: number | undefined;
    const atr = new ATR(14);
    bars.forEach((b, i) => {
      if (i === 13) ref = tr.slice(0, 14).reduce((a, x) => a + x, 0) / 14;
      else if (i > 13) ref = (ref! * 13 + tr[i]!) / 14;
      const v = atr.update({ high: String(b.high), low: String(b.low), close: String(b.close) });
      if (ref === undefined) expect(v).toBeUndefined();
      else expect(v!.toNumber()).toBeCloseTo(ref, 9);
    });
  });

  it('a gap counts from the previous close', () => {
    const atr = new ATR(2);
    atr.update({ high: 10, low: 9, close: 10 });
    expect(atr.update({ high: 14, low: 13, close: 13.5 })?.toString()).toBe('2.5'); // TRs 1 and 4
  });
});

describe('VWAP', () => {
  it('weights prices by volume, from trades and from candles (typical price), and resets', () => {
    const v = new VWAP();
    expect(v.value).toBeUndefined();
    v.addTrade({ rate: dec(100), quantity: dec(1) });
    expect(v.addTrade({ rate: dec(110), quantity: dec(3) })?.toString()).toBe('107.5');
    v.reset();
    const candle = { high: dec(12), low: dec(9), close: dec(12), volume: dec(2) };
    expect(v.addCandle(candle)?.toString()).toBe('11');
  });
});

describe('closedCandles', () => {
  const candle = (minute: number, close: number): Candle => {
    const c = dec(close);
    return { startsAt: new Date(Date.UTC(2026, 0, 1, 0, minute)), open: c, high: c, low: c, close: c, volume: dec(1), quoteVolume: c };
  };

  it('emits the history first, then each candle once as it finishes', () => {
    const series = new Subject<readonly Candle[]>();
    const seen: number[] = [];
    series.pipe(closedCandles()).subscribe((c) => seen.push(c.close.toNumber()));
    series.next([candle(0, 1), candle(1, 2), candle(2, 3)]); // 3 is forming
    series.next([candle(0, 1), candle(1, 2), candle(2, 4)]); // forming candle moved
    series.next([candle(0, 1), candle(1, 2), candle(2, 5), candle(3, 6)]); // 5 finished
    expect(seen).toEqual([1, 2, 5]);
  });
});
