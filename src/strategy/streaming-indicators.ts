/**
 * Streaming indicators on exact decimals: moving averages and oscillators that update one value at a time, so a
 * strategy feeds them from `ctx.trades$` (each trade once) or from finished candles (see {@link closedCandles})
 * without recomputing the whole series.
 *
 * Why not a library: `trading-signals` has the right streaming `update()` API, but its maintained line (v7+)
 * computes with JavaScript numbers, and the big.js line (v6) is no longer developed and would bring a second
 * decimal library beside decimal.js. rexbot's rule is exact money in one decimal type, and these formulas are
 * short, so they are written here on the project's {@link Decimal} and tested against published values.
 *
 * Every indicator has `update(value, replace?)`: `replace: true` replaces the last value instead of adding one
 * (a candle that is still forming changes with every trade), and `value` is undefined until enough values came.
 */
import { Decimal, ZERO } from '../core/decimal.js';

/** A value that can be read as a Decimal. */
export type NumericInput = Decimal | string | number;

const D = (v: NumericInput): Decimal => (v instanceof Decimal ? v : new Decimal(v));

function checkPeriod(name: string, period: number): void {
  if (!Number.isInteger(period) || period < 1) throw new RangeError(`${name} period must be a positive integer, got ${period}`);
}

/**
 * The shared machinery: immutable state stepped by one input, with the state before the last step kept so the
 * last input can be replaced.
 */
abstract class Streaming<I, S, O> {
  private state: S;
  private before: S;
  private count = 0;

  protected constructor(initial: S) {
    this.state = initial;
    this.before = initial;
  }

  protected abstract step(state: S, input: I): S;
  protected abstract output(state: S): O | undefined;

  /** Add `input` (or, with `replace`, replace the last input by it) and return the new value. */
  protected push(input: I, replace: boolean): O | undefined {
    if (replace && this.count > 0) {
      this.state = this.step(this.before, input);
    } else {
      this.before = this.state;
      this.state = this.step(this.state, input);
      this.count++;
    }
    return this.output(this.state);
  }

  /** The current value, undefined until enough inputs came. */
  get value(): O | undefined {
    return this.output(this.state);
  }

  /** How many inputs were added (replacements do not count). */
  get inputs(): number {
    return this.count;
  }
}

/**
 * Simple moving average over the last `period` values.
 *
 * @example
 * const sma = new SMA(3); ['1', '2', '3', '4'].forEach((v) => sma.update(v)); sma.value?.toString(); // '3'
 */
export class SMA extends Streaming<Decimal, { window: readonly Decimal[]; sum: Decimal }, Decimal> {
  constructor(readonly period: number) {
    checkPeriod('SMA', period);
    super({ window: [], sum: ZERO });
  }
  update(value: NumericInput, replace = false): Decimal | undefined {
    return this.push(D(value), replace);
  }
  protected step(s: { window: readonly Decimal[]; sum: Decimal }, v: Decimal) {
    const window = [...s.window, v];
    let sum = s.sum.plus(v);
    if (window.length > this.period) sum = sum.minus(window.shift()!);
    return { window, sum };
  }
  protected output(s: { window: readonly Decimal[]; sum: Decimal }): Decimal | undefined {
    return s.window.length === this.period ? s.sum.div(this.period) : undefined;
  }
}

interface EmaState {
  seen: number;
  seedSum: Decimal;
  ema?: Decimal;
}

/**
 * Exponential moving average with weight 2 / (period + 1), seeded with the simple average of the first `period`
 * values (the textbook and TA-Lib convention); defined from the `period`-th value on.
 *
 * @example
 * const ema = new EMA(10); closes.forEach((c) => ema.update(c)); ema.value; // Decimal
 */
export class EMA extends Streaming<Decimal, EmaState, Decimal> {
  private readonly k: Decimal;
  constructor(readonly period: number) {
    checkPeriod('EMA', period);
    super({ seen: 0, seedSum: ZERO });
    this.k = new Decimal(2).div(period + 1);
  }
  update(value: NumericInput, replace = false): Decimal | undefined {
    return this.push(D(value), replace);
  }
  protected step(s: EmaState, v: Decimal): EmaState {
    const seen = s.seen + 1;
    if (s.ema) return { seen, seedSum: s.seedSum, ema: v.minus(s.ema).times(this.k).plus(s.ema) };
    const seedSum = s.seedSum.plus(v);
    return seen === this.period ? { seen, seedSum, ema: seedSum.div(this.period) } : { seen, seedSum };
  }
  protected output(s: EmaState): Decimal | undefined {
    return s.ema;
  }
}

interface WilderState {
  prev?: Decimal;
  changes: number;
  gainSum: Decimal;
  lossSum: Decimal;
  avgGain?: Decimal;
  avgLoss?: Decimal;
}

/**
 * Wilder's relative strength index (0-100) over `period` changes (default 14): the first average gain and loss
 * are simple averages of the first `period` changes, later ones are smoothed as (previous × (period − 1) +
 * current) / period. Defined from the (period + 1)-th value on; 100 when there was no loss.
 *
 * @example
 * const rsi = new RSI(14);
 * ctx.trades$(market).pipe(map((t) => rsi.update(t.rate)), filter((v) => v !== undefined && v.lt(30)));
 */
export class RSI extends Streaming<Decimal, WilderState, Decimal> {
  constructor(readonly period = 14) {
    checkPeriod('RSI', period);
    super({ changes: 0, gainSum: ZERO, lossSum: ZERO });
  }
  update(value: NumericInput, replace = false): Decimal | undefined {
    return this.push(D(value), replace);
  }
  protected step(s: WilderState, v: Decimal): WilderState {
    if (!s.prev) return { ...s, prev: v };
    const change = v.minus(s.prev);
    const gain = change.gt(0) ? change : ZERO;
    const loss = change.lt(0) ? change.neg() : ZERO;
    const n = this.period;
    if (s.avgGain && s.avgLoss) {
      return {
        ...s,
        prev: v,
        changes: s.changes + 1,
        avgGain: s.avgGain.times(n - 1).plus(gain).div(n),
        avgLoss: s.avgLoss.times(n - 1).plus(loss).div(n),
      };
    }
    const changes = s.changes + 1;
    const gainSum = s.gainSum.plus(gain);
    const lossSum = s.lossSum.plus(loss);
    if (changes < n) return { prev: v, changes, gainSum, lossSum };
    return { prev: v, changes, gainSum, lossSum, avgGain: gainSum.div(n), avgLoss: lossSum.div(n) };
  }
  protected output(s: WilderState): Decimal | undefined {
    if (!s.avgGain || !s.avgLoss) return undefined;
    if (s.avgLoss.isZero()) return new Decimal(100);
    return new Decimal(100).minus(new Decimal(100).div(s.avgGain.div(s.avgLoss).plus(1)));
  }
}

/** One MACD reading: the line, its signal line and their difference. */
export interface MacdValue {
  macd: Decimal;
  signal: Decimal;
  histogram: Decimal;
}

/**
 * MACD: EMA(fast) − EMA(slow) of the values, its EMA(signal) as the signal line, and the histogram
 * (macd − signal). Defaults 12, 26, 9. Defined once the signal line is (slow + signal − 1 values).
 *
 * @example
 * const macd = new MACD(); const v = macd.update(close); if (v?.histogram.gt(0)) ...
 */
export class MACD {
  private readonly fastEma: EMA;
  private readonly slowEma: EMA;
  private readonly signalEma: EMA;
  private current: MacdValue | undefined;

  constructor(readonly fast = 12, readonly slow = 26, readonly signal = 9) {
    if (!(fast < slow)) throw new RangeError(`MACD fast period (${fast}) must be smaller than slow (${slow})`);
    this.fastEma = new EMA(fast);
    this.slowEma = new EMA(slow);
    this.signalEma = new EMA(signal);
  }

  /** Add a value (or replace the last one) and return the reading, undefined until the signal line exists. */
  update(value: NumericInput, replace = false): MacdValue | undefined {
    const f = this.fastEma.update(value, replace);
    const s = this.slowEma.update(value, replace);
    if (!f || !s) return (this.current = undefined);
    const macd = f.minus(s);
    // The signal EMA got an input at the last value exactly when the slow EMA was defined there (definedness
    // depends only on the count), so a replacement replaces its last input too.
    const sig = this.signalEma.update(macd, replace && this.signalEma.inputs > 0);
    this.current = sig ? { macd, signal: sig, histogram: macd.minus(sig) } : undefined;
    return this.current;
  }

  /** The latest reading. */
  get value(): MacdValue | undefined {
    return this.current;
  }
}
