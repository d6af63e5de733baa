/**
 * The rolling 24-hour statistics behind a MarketSummary: high, low, base volume, quote volume and the percent
 * change of the rate over the window.
 *
 * Trades are aggregated into one-second buckets, which bounds memory at 86 400 buckets per market whatever the
 * trade rate, and keeps every update O(1) amortised: running sums for the volumes, and monotonic deques for the
 * window's high and low. The resolution is the only approximation: a trade leaves the summary when the second it
 * happened in ends 24 h later, i.e. between 24 h and 24 h + 1 s after it (the service itself documented
 * one-second precision for its date filters).
 */
import { type Decimal, ZERO, deq, dgt, dgte, dlt, dlte } from '../../core/decimal.js';
import { dadd } from '../../core/decimal-fast.js';
import type { Candle, MarketSummary } from '../../model/market.js';

/** 24 hours. */
export const SUMMARY_WINDOW_MS = 86_400_000;
/** Bucket width. */
export const SUMMARY_RESOLUTION_MS = 1000;

/** One second of trades, aggregated as a candle is (start in epoch ms). */
type Bucket = Omit<Candle, 'startsAt'> & { start: number };

/**
 * The 24-hour window of one market.
 *
 * @example
 * const s = new RollingSummary(clock.now());
 * s.add(clock.now(), dec('100'), dec('2'));
 * s.snapshot('BTC-USD').quoteVolume // 200
 */
export class RollingSummary {
  readonly #windowMs: number;
  readonly #resolutionMs: number;
  // Deques as arrays with a head index: eviction advances the head, compaction happens in bulk.
  #buckets: Bucket[] = [];
  #head = 0;
  #maxQ: Bucket[] = [];
  #maxHead = 0;
  #minQ: Bucket[] = [];
  #minHead = 0;
  #volume: Decimal = ZERO;
  #quoteVolume: Decimal = ZERO;
  #updatedAt: number;
  /** The last percent changes computed (see #percentChange), newest first. */
  readonly #changeMemo: Array<{ open: Decimal; close: Decimal; value: Decimal }> = [];

  /** `createdAt` is reported as updatedAt until the first change. */
  constructor(createdAt: number, windowMs = SUMMARY_WINDOW_MS, resolutionMs = SUMMARY_RESOLUTION_MS) {
    this.#updatedAt = createdAt;
    this.#windowMs = windowMs;
    this.#resolutionMs = resolutionMs;
  }

  /**
   * Add one trade. Trades must come in time order; a trade stamped before the newest bucket (which the engine
   * never produces, its clock only moves forward) is counted in the newest bucket rather than reordering history.
   */
  add(at: number, rate: Decimal, quantity: Decimal, quote: Decimal = quantity.times(rate)): void {
    const start = Math.max(Math.floor(at / this.#resolutionMs) * this.#resolutionMs, this.#last()?.start ?? -Infinity);
    let b = this.#last();
    if (!b || b.start !== start) {
      b = { start, open: rate, high: rate, low: rate, close: rate, volume: ZERO, quoteVolume: ZERO };
      this.#buckets.push(b);
      this.#pushMax(b);
      this.#pushMin(b);
    } else {
      b.close = rate;
      if (dgt(rate, b.high)) {
        b.high = rate;
        this.#pushMax(b);
      }
      if (dlt(rate, b.low)) {
        b.low = rate;
        this.#pushMin(b);
      }
    }
    b.volume = dadd(b.volume, quantity);
    b.quoteVolume = dadd(b.quoteVolume, quote);
    this.#volume = dadd(this.#volume, quantity);
    this.#quoteVolume = dadd(this.#quoteVolume, quote);
    this.#updatedAt = at;
  }

  /** Drop the buckets that left the window at `now`. Returns true when anything was dropped. */
  evict(now: number): boolean {
    let changed = false;
    while (this.#head < this.#buckets.length) {
      const b = this.#buckets[this.#head]!;
      if (b.start + this.#resolutionMs > now - this.#windowMs) break;
      this.#head++;
      this.#volume = this.#volume.minus(b.volume);
      this.#quoteVolume = this.#quoteVolume.minus(b.quoteVolume);
      if (this.#maxQ[this.#maxHead] === b) this.#maxHead++;
      if (this.#minQ[this.#minHead] === b) this.#minHead++;
      changed = true;
    }
    if (changed) {
      this.#updatedAt = now;
      this.#compact();
    }
    return changed;
  }

  /** When the oldest bucket leaves the window (epoch ms), or undefined when the window is empty. */
  nextExpiryAt(): number | undefined {
    const b = this.#buckets[this.#head];
    return b ? b.start + this.#resolutionMs + this.#windowMs : undefined;
  }

  /**
   * The summary as the service reports it. High and low are zero when the window holds no trade; percentChange
   * is `(last - first) / first * 100` over the window's trades, rounded to 8 decimals (what the wire carries),
   * and left out when the window is empty — there is no rate to change from.
   */
  snapshot(symbol: string): MarketSummary {
    const first = this.#buckets[this.#head];
    const last = this.#last();
    const s: MarketSummary = {
      symbol,
      high: this.#maxQ[this.#maxHead]?.high ?? ZERO,
      low: this.#minQ[this.#minHead]?.low ?? ZERO,
      volume: this.#volume,
      quoteVolume: this.#quoteVolume,
      updatedAt: new Date(this.#updatedAt),
    };
    if (first && last) s.percentChange = this.#percentChange(first.open, last.close);
    return s;
  }

  /**
   * `(close - open) / open * 100` to 8 decimals, remembered for the last two (open, close) pairs: a summary is
   * published after every burst of trades, the window's first rate rarely moves, and the last one often returns to a
   * recent value (trading back and forth across the spread), while the division is decimal.js's costliest step.
   */
  #percentChange(open: Decimal, close: Decimal): Decimal {
    const memo = this.#changeMemo;
    for (const m of memo) if (deq(m.open, open) && deq(m.close, close)) return m.value;
    const value = close.minus(open).div(open).times(100).toDecimalPlaces(8);
    memo.unshift({ open, close, value });
    if (memo.length > 2) memo.pop();
    return value;
  }

  #last(): Bucket | undefined {
    return this.#head < this.#buckets.length ? this.#buckets[this.#buckets.length - 1] : undefined;
  }

  // The max deque holds buckets with strictly decreasing highs; a bucket whose high grew re-enters at the back
  // after removing everything it now dominates (itself included, since it is the newest).
  #pushMax(b: Bucket): void {
    while (this.#maxQ.length > this.#maxHead && dlte(this.#maxQ[this.#maxQ.length - 1]!.high, b.high)) this.#maxQ.pop();
    this.#maxQ.push(b);
  }

  #pushMin(b: Bucket): void {
    while (this.#minQ.length > this.#minHead && dgte(this.#minQ[this.#minQ.length - 1]!.low, b.low)) this.#minQ.pop();
    this.#minQ.push(b);
  }

  #compact(): void {
    if (this.#head > 1024 && this.#head * 2 > this.#buckets.length) {
      this.#buckets = this.#buckets.slice(this.#head);
      this.#head = 0;
    }
    if (this.#maxHead > 1024 && this.#maxHead * 2 > this.#maxQ.length) {
      this.#maxQ = this.#maxQ.slice(this.#maxHead);
      this.#maxHead = 0;
    }
    if (this.#minHead > 1024 && this.#minHead * 2 > this.#minQ.length) {
      this.#minQ = this.#minQ.slice(this.#minHead);
      this.#minHead = 0;
    }
  }
}
