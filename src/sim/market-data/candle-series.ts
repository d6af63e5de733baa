/**
 * The candles of one market for one candle type and interval, kept for a bounded retention.
 *
 * Only intervals with activity get a candle (seed: "Intervals without trading activity are omitted"): for TRADE
 * candles a trade, for MIDPOINT candles an observed midpoint of best bid and ask. The series also remembers the
 * last close, which the candle stream carries forward in the placeholder it sends at the start of every interval
 * (recorded v3 traffic: a 0-volume candle whose open, high, low and close are the previous close).
 */
import { type Decimal, ZERO, deq, dgt, dlt, dmax, dmin } from '../../core/decimal.js';
import { dsum } from '../../core/decimal-fast.js';
import type { CandleInterval } from '../../model/enums.js';
import type { Candle } from '../../model/market.js';
import { candleStart, oldestStartInWindow } from './candle-time.js';

/** A candle being built, its start kept as epoch ms (a Date is made only when a candle is handed out). */
type Slot = Omit<Candle, 'startsAt'> & { start: number };

/**
 * A candle of a series as it stands, without building the {@link Candle} (see {@link CandleSeries.foldTrade}):
 * its state only changes while it is the series' newest candle.
 */
export type CandleSlot = Readonly<Slot>;

/**
 * One candle series. Candles are appended in time order (the engine's clock only moves forward) and dropped once
 * they fall out of the retention window, so memory is bounded by `retentionMs / interval` candles.
 *
 * @example
 * const s = new CandleSeries('MINUTE_1', RECENT_WINDOW_MS.MINUTE_1);
 * s.addTrade(t, dec('100'), dec('2'));
 * s.range(0, Infinity) // [{ startsAt, open: 100, high: 100, low: 100, close: 100, volume: 2, quoteVolume: 200 }]
 */
export class CandleSeries {
  readonly interval: CandleInterval;
  readonly #retentionMs: number;
  #slots: Slot[] = [];
  #head = 0;
  #lastClose: Decimal | undefined;

  constructor(interval: CandleInterval, retentionMs: number) {
    this.interval = interval;
    this.#retentionMs = retentionMs;
  }

  /** Close of the newest candle ever recorded (kept after the candle itself left the retention window). */
  get lastClose(): Decimal | undefined {
    return this.#lastClose;
  }

  /** Fold one trade into the candle of its interval (`quote` = quantity × rate, when the caller has it); returns that candle's new state. */
  addTrade(at: number, rate: Decimal, quantity: Decimal, quote: Decimal = quantity.times(rate)): Candle {
    return toCandle(this.foldTrade(at, rate, quantity, quote));
  }

  /**
   * {@link addTrade} without building the candle: the slot it updated, for a caller that publishes the candle
   * only when someone listens ({@link candleOf} builds it). Two calls return the same slot exactly when their
   * trades fell in the same candle.
   */
  foldTrade(at: number, rate: Decimal, quantity: Decimal, quote: Decimal = quantity.times(rate)): CandleSlot {
    const slot = this.#foldRate(at, rate);
    slot.volume = slot.volume.plus(quantity);
    slot.quoteVolume = slot.quoteVolume.plus(quote);
    return slot;
  }

  /**
   * The rate part of {@link foldTrade} (open, high, low, close), for a caller that adds the trade's volumes to the
   * slot itself later, with {@link addVolumes} (see {@link VolumeRun}).
   */
  foldTradeRate(at: number, rate: Decimal): CandleSlot {
    return this.#foldRate(at, rate);
  }

  #foldRate(at: number, rate: Decimal): Slot {
    const slot = this.#slotFor(at, rate, rate);
    // A rate equal to the bound keeps the bound's object, as dmax/dmin would (same value either way).
    if (dgt(rate, slot.high)) slot.high = rate;
    else if (dlt(rate, slot.low)) slot.low = rate;
    slot.close = rate;
    this.#lastClose = rate;
    return slot;
  }

  /**
   * Fold one midpoint observation into its candle. `prevailing` is the midpoint in force just before this one
   * (undefined when the book was one-sided): a new candle opens at it, because a midpoint is a level that exists
   * continuously, unlike a trade price. Returns the candle when it was created or changed, undefined otherwise.
   */
  addMidpoint(at: number, mid: Decimal, prevailing: Decimal | undefined): Candle | undefined {
    const slot = this.foldMidpoint(at, mid, prevailing);
    return slot && toCandle(slot);
  }

  /**
   * {@link addMidpoint} without building the candle: the slot it created or changed, undefined when it changed
   * nothing (for seeding history, where nobody listens and a day of trades would build ~30k candles a market).
   */
  foldMidpoint(at: number, mid: Decimal, prevailing: Decimal | undefined): CandleSlot | undefined {
    const start = this.#startFor(at);
    const last = this.#last();
    if (last && last.start === start) {
      if (deq(last.close, mid)) return undefined;
      last.high = dmax(last.high, mid);
      last.low = dmin(last.low, mid);
      last.close = mid;
      this.#lastClose = mid;
      return last;
    }
    const open = prevailing ?? mid;
    const slot = this.#slotFor(at, open, open);
    slot.high = dmax(open, mid);
    slot.low = dmin(open, mid);
    slot.close = mid;
    this.#lastClose = mid;
    return slot;
  }

  /**
   * What the stream sends at the start of the interval beginning at `start`: the candle if activity already
   * created it, else a 0-volume placeholder at the last close; undefined when the series never had activity.
   */
  candleAt(start: number): Candle | undefined {
    const last = this.#last();
    if (last && last.start === start) return toCandle(last);
    if (this.#lastClose === undefined) return undefined;
    const c = this.#lastClose;
    return { startsAt: new Date(start), open: c, high: c, low: c, close: c, volume: ZERO, quoteVolume: ZERO };
  }

  /** Candles with `from <= startsAt < to`, oldest first. */
  range(from: number, to: number): Candle[] {
    const out: Candle[] = [];
    for (let i = this.#lowerBound(from); i < this.#slots.length; i++) {
      const s = this.#slots[i]!;
      if (s.start >= to) break;
      out.push(toCandle(s));
    }
    return out;
  }

  /** Drop candles older than the retention window at `now`. */
  prune(now: number): void {
    const oldest = oldestStartInWindow(this.interval, now, this.#retentionMs);
    while (this.#head < this.#slots.length && this.#slots[this.#head]!.start < oldest) this.#head++;
    if (this.#head > 256 && this.#head * 2 > this.#slots.length) {
      this.#slots = this.#slots.slice(this.#head);
      this.#head = 0;
    }
  }

  /** Number of candles held (for tests of the memory bound). */
  get size(): number {
    return this.#slots.length - this.#head;
  }

  #startFor(at: number): number {
    // Never reopen an older interval: a late-stamped event counts in the newest candle (see addTrade callers).
    return Math.max(candleStart(this.interval, at), this.#last()?.start ?? -Infinity);
  }

  #slotFor(at: number, open: Decimal, first: Decimal): Slot {
    const start = this.#startFor(at);
    const last = this.#last();
    if (last && last.start === start) return last;
    const slot: Slot = { start, open, high: first, low: first, close: first, volume: ZERO, quoteVolume: ZERO };
    this.#slots.push(slot);
    this.prune(at);
    return slot;
  }

  #last(): Slot | undefined {
    return this.#head < this.#slots.length ? this.#slots[this.#slots.length - 1] : undefined;
  }

  #lowerBound(from: number): number {
    let lo = this.#head;
    let hi = this.#slots.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#slots[mid]!.start < from) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Add volumes to a slot's candle (the volume part of {@link CandleSeries.foldTrade}). */
export function addVolumes(slot: CandleSlot, volume: Decimal, quoteVolume: Decimal): void {
  const s = slot as Slot;
  s.volume = dsum(s.volume, volume);
  s.quoteVolume = dsum(s.quoteVolume, quoteVolume);
}

/**
 * The volumes of one market's trades not yet added to its TRADE candles, one per interval. Every trade goes into
 * one candle of each interval, the same four candles until one of them ends: so the trades' volumes are summed
 * once here, instead of once per interval, and added to the four candles when the run ends (a trade falls into
 * another candle of some interval) or when anyone reads them ({@link flush}). Exact: decimal sums do not depend
 * on grouping (they are far below the 40 significant digits where rounding would start).
 */
export class VolumeRun {
  /** The candles the run belongs to, by interval index; empty when the run is. */
  #slots: readonly CandleSlot[] = [];
  #volume: Decimal = ZERO;
  #quoteVolume: Decimal = ZERO;

  /** Add one trade that went into `slots` (one per interval, in a fixed order; kept, not copied); ends the run first if they differ. */
  add(slots: readonly CandleSlot[], volume: Decimal, quoteVolume: Decimal): void {
    const run = this.#slots;
    if (run.length > 0) {
      for (let i = 0; i < slots.length; i++) {
        if (run[i] !== slots[i]) {
          this.flush();
          break;
        }
      }
    }
    if (this.#slots.length === 0) this.#slots = slots;
    this.#volume = dsum(this.#volume, volume);
    this.#quoteVolume = dsum(this.#quoteVolume, quoteVolume);
  }

  /** Add what the run holds to its candles (before any of them is read). */
  flush(): void {
    if (this.#slots.length === 0) return;
    for (const slot of this.#slots) addVolumes(slot, this.#volume, this.#quoteVolume);
    this.#slots = [];
    this.#volume = ZERO;
    this.#quoteVolume = ZERO;
  }
}

/** The {@link Candle} of a slot as it stands now. */
export function candleOf(s: CandleSlot): Candle {
  return toCandle(s);
}

function toCandle(s: CandleSlot): Candle {
  return {
    startsAt: new Date(s.start),
    open: s.open,
    high: s.high,
    low: s.low,
    close: s.close,
    volume: s.volume,
    quoteVolume: s.quoteVolume,
  };
}
