/**
 * Streaming indicators that read more than a close: Bollinger bands (a window's spread), ATR (candle ranges),
 * VWAP (prices weighted by volume), and {@link closedCandles}, the operator that turns `ctx.candles$` into one
 * emission per finished candle. Exact decimals throughout (see streaming-indicators.ts for why no library).
 */
import { defer, from, mergeMap, type OperatorFunction } from 'rxjs';
import { Decimal, ZERO } from '../core/decimal.js';
import type { Candle, Trade } from '../model/index.js';
import type { NumericInput } from './streaming-indicators.js';

const D = (v: NumericInput): Decimal => (v instanceof Decimal ? v : new Decimal(v));

/** One Bollinger reading. */
export interface BollingerValue {
  middle: Decimal;
  upper: Decimal;
  lower: Decimal;
  /** Population standard deviation of the window (what Bollinger's bands use). */
  deviation: Decimal;
}

/**
 * Bollinger bands: the simple average of the last `period` values (default 20) ± `multiplier` (default 2)
 * population standard deviations of the same window.
 *
 * @example
 * const bb = new BollingerBands(20, 2); const v = bb.update(close); if (v && close.lt(v.lower)) ...
 */
export class BollingerBands {
  private window: Decimal[] = [];
  private readonly k: Decimal;

  constructor(readonly period = 20, multiplier: NumericInput = 2) {
    if (!Number.isInteger(period) || period < 2) throw new RangeError(`Bollinger period must be an integer of at least 2, got ${period}`);
    this.k = D(multiplier);
  }

  /** Add a value (or replace the last one) and return the bands, undefined until `period` values came. */
  update(value: NumericInput, replace = false): BollingerValue | undefined {
    if (replace && this.window.length > 0) this.window[this.window.length - 1] = D(value);
    else {
      this.window.push(D(value));
      if (this.window.length > this.period) this.window.shift();
    }
    return this.value;
  }

  /** The latest bands. */
  get value(): BollingerValue | undefined {
    if (this.window.length < this.period) return undefined;
    const middle = this.window.reduce((a, v) => a.plus(v), ZERO).div(this.period);
    const variance = this.window.reduce((a, v) => a.plus(v.minus(middle).pow(2)), ZERO).div(this.period);
    const deviation = variance.sqrt();
    const width = deviation.times(this.k);
    return { middle, upper: middle.plus(width), lower: middle.minus(width), deviation };
  }
}

/** The high, low and close an ATR reads (a {@link Candle} fits). */
export interface HighLowClose {
  high: NumericInput;
  low: NumericInput;
  close: NumericInput;
}

interface AtrState {
  prevClose?: Decimal;
  count: number;
  trSum: Decimal;
  atr?: Decimal;
}

/**
 * Wilder's average true range over `period` candles (default 14). The true range is the largest of high − low,
 * |high − previous close| and |low − previous close| (high − low for the first candle); the first ATR is their
 * simple average over `period` candles, later ones (previous × (period − 1) + TR) / period.
 *
 * @example
 * const atr = new ATR(14); candles.forEach((c) => atr.update(c)); const stop = entry.minus(atr.value!.times(2));
 */
export class ATR {
  private state: AtrState = { count: 0, trSum: ZERO };
  private before: AtrState = this.state;

  constructor(readonly period = 14) {
    if (!Number.isInteger(period) || period < 1) throw new RangeError(`ATR period must be a positive integer, got ${period}`);
  }

  /** Add a candle (or replace the last one, e.g. the forming candle) and return the ATR. */
  update(candle: HighLowClose, replace = false): Decimal | undefined {
    const from = replace && this.state.count > 0 ? this.before : (this.before = this.state);
    const high = D(candle.high);
    const low = D(candle.low);
    const close = D(candle.close);
    let tr = high.minus(low);
    if (from.prevClose) tr = Decimal.max(tr, high.minus(from.prevClose).abs(), low.minus(from.prevClose).abs());
    const count = from.count + 1;
    const n = this.period;
    if (from.atr) this.state = { prevClose: close, count, trSum: from.trSum, atr: from.atr.times(n - 1).plus(tr).div(n) };
    else {
      const trSum = from.trSum.plus(tr);
      this.state = count === n ? { prevClose: close, count, trSum, atr: trSum.div(n) } : { prevClose: close, count, trSum };
    }
    return this.state.atr;
  }

  /** The latest ATR. */
  get value(): Decimal | undefined {
    return this.state.atr;
  }
}

/**
 * Volume-weighted average price: Σ price × volume / Σ volume since the start or the last {@link VWAP.reset}
 * (call it at your session boundary). Feed trades with {@link VWAP.addTrade}, candles with
 * {@link VWAP.addCandle} (typical price (high + low + close) / 3 × volume), or any price and volume.
 *
 * @example
 * const vwap = new VWAP(); ctx.trades$(m).pipe(map((t) => vwap.addTrade(t)));
 */
export class VWAP {
  private pv = ZERO;
  private volume = ZERO;

  /** Add a price traded in `volume` and return the VWAP (undefined while no volume traded). */
  update(price: NumericInput, volume: NumericInput): Decimal | undefined {
    this.pv = this.pv.plus(D(price).times(D(volume)));
    this.volume = this.volume.plus(D(volume));
    return this.value;
  }

  /** Add one trade (its rate and quantity). */
  addTrade(trade: Pick<Trade, 'rate' | 'quantity'>): Decimal | undefined {
    return this.update(trade.rate, trade.quantity);
  }

  /** Add a finished candle at its typical price. */
  addCandle(candle: Pick<Candle, 'high' | 'low' | 'close' | 'volume'>): Decimal | undefined {
    return this.update(candle.high.plus(candle.low).plus(candle.close).div(3), candle.volume);
  }

  /** Start a new session. */
  reset(): void {
    this.pv = ZERO;
    this.volume = ZERO;
  }

  /** The VWAP so far, undefined while no volume traded. */
  get value(): Decimal | undefined {
    return this.volume.isZero() ? undefined : this.pv.div(this.volume);
  }
}

/**
 * From `ctx.candles$(market, interval)` (the series, its last candle still forming) to each finished candle,
 * once, oldest first — what an indicator on closes wants. The first series emits every finished candle it
 * holds, so an indicator starts warm on the history the store already has.
 *
 * @example
 * const rsi = new RSI(14);
 * ctx.candles$(m, 'MINUTE_1').pipe(closedCandles(), map((c) => rsi.update(c.close)));
 */
export function closedCandles(): OperatorFunction<readonly Candle[], Candle> {
  return (source) =>
    defer(() => {
      let last = -Infinity; // startsAt of the newest candle emitted, per subscription
      return source.pipe(
        mergeMap((candles) => {
          const fresh = candles.slice(0, -1).filter((c) => c.startsAt.getTime() > last);
          if (fresh.length > 0) last = fresh[fresh.length - 1]!.startsAt.getTime();
          return from(fresh);
        }),
      );
    });
}
