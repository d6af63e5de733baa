/**
 * The equity curve of a portfolio: points (time, equity) recorded whenever the portfolio is marked to market,
 * the running peak, the maximum drawdown since start, and the equity at the open of the current UTC day.
 *
 * Peak and maximum drawdown are updated incrementally as points arrive, so trimming old points (the list is
 * bounded) never changes them.
 */
import { type Decimal, deq, dgt, ZERO } from '../core/decimal.js';
import { dsub } from '../core/decimal-fast.js';

/** Milliseconds in a UTC day. */
export const DAY_MS = 86_400_000;

/** UTC day number (days since the epoch) of an epoch-ms time. */
export function utcDay(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** One point of the curve. Equity is PnL-based: realized + unrealized, zero at start. */
export interface EquityPoint {
  at: number;
  equity: Decimal;
}

/**
 * What a restart needs to carry the curve on exactly as if the process had never stopped: the last point, the
 * peak, the maximum drawdown and the day-open equity of its UTC day (see {@link EquityCurve.restore}).
 */
export interface EquityCurveState {
  /** Time and equity of the last point recorded. */
  at: number;
  equity: Decimal;
  peak: Decimal;
  maxDrawdown: Decimal;
  /** UTC day of `dayOpen`. */
  day: number;
  dayOpen: Decimal;
}

/**
 * Points, peak, drawdown and day-open equity.
 *
 * @example
 * const curve = new EquityCurve(0);
 * curve.record(1_000, dec('5'));
 * curve.record(2_000, dec('-3'));
 * curve.maxDrawdown.toString(); // '8'
 */
export class EquityCurve {
  readonly #maxPoints: number;
  /** Points from `#head` on are the curve; those before it are dropped ones not yet spliced away. */
  #points: EquityPoint[] = [];
  #head = 0;
  #peak: Decimal = ZERO;
  #maxDrawdown: Decimal = ZERO;
  #day: number;
  #dayOpen: Decimal = ZERO;
  /**
   * The equity object the last {@link EquityCurve.record} folded into the peak and the maximum drawdown (undefined
   * after a restore or rebase): recording it again cannot move either (the peak only grows, from values recorded
   * since, and none was), so those comparisons are skipped. Marks are mostly the same valuation again.
   */
  #settled: Decimal | undefined;

  /** Starts at equity zero at `startMs`; keeps at most `maxPoints` points (oldest dropped first). */
  constructor(startMs: number, maxPoints = 10_000) {
    this.#maxPoints = Math.max(2, maxPoints);
    this.#day = utcDay(startMs);
    this.#points.push({ at: startMs, equity: ZERO });
  }

  /** The last point recorded. */
  get last(): EquityPoint {
    return this.#points[this.#points.length - 1]!;
  }

  /** Highest equity seen. */
  get peak(): Decimal {
    return this.#peak;
  }

  /** Current drawdown: peak − last equity (≥ 0). */
  get drawdown(): Decimal {
    return this.#peak.minus(this.last.equity);
  }

  /** Largest peak-to-trough fall since start (≥ 0). */
  get maxDrawdown(): Decimal {
    return this.#maxDrawdown;
  }

  /** The recorded points, oldest first. */
  points(): readonly EquityPoint[] {
    this.#compact();
    return this.#points;
  }

  /**
   * Equity at the open of the UTC day of `now`: the last equity recorded before that day began (a day the
   * curve started in opens at zero). Days are only ever asked about going forward.
   */
  dayOpen(now: number): Decimal {
    return utcDay(now) === this.#day ? this.#dayOpen : this.last.equity;
  }

  /** The state a restart restores with {@link EquityCurve.restore}. */
  state(): EquityCurveState {
    const last = this.last;
    return { at: last.at, equity: last.equity, peak: this.#peak, maxDrawdown: this.#maxDrawdown, day: this.#day, dayOpen: this.#dayOpen };
  }

  /**
   * Carry on from a saved {@link EquityCurveState}: the points become its last point alone; peak, maximum drawdown
   * and day open are the saved ones. A restart on a later UTC day opens that day at the saved last equity — the
   * equity last seen before the day began, as {@link EquityCurve.record} would have had it.
   */
  restore(s: EquityCurveState): void {
    this.#points = [{ at: s.at, equity: s.equity }];
    this.#head = 0;
    this.#settled = undefined;
    this.#peak = s.peak;
    this.#maxDrawdown = s.maxDrawdown;
    this.#day = s.day;
    this.#dayOpen = s.dayOpen;
  }

  /**
   * Start again from `equity` at `at`, with no history: it is the day open, the peak and the last point. For a
   * restart that has positions (and their realized PnL) but no saved state — their PnL was made before now, so
   * it must count neither as today's nor as a fall from a peak of zero.
   */
  rebase(at: number, equity: Decimal): void {
    this.#points = [{ at, equity }];
    this.#head = 0;
    this.#settled = undefined;
    this.#peak = equity;
    this.#maxDrawdown = ZERO;
    this.#day = utcDay(at);
    this.#dayOpen = equity;
  }

  /**
   * Record equity at `at`. A point equal to the previous one in equity is not stored again (marks come every
   * second; flat stretches would otherwise fill the buffer), but day rollover, peak and drawdown still update.
   * Returns the point for `at` either way.
   */
  record(at: number, equity: Decimal): EquityPoint {
    const day = utcDay(at);
    if (day !== this.#day) {
      // The day opens at the equity of the last point before it, i.e. before this one is added.
      this.#dayOpen = this.last.equity;
      this.#day = day;
    }
    if (equity !== this.#settled) {
      if (dgt(equity, this.#peak)) this.#peak = equity;
      const dd = dsub(this.#peak, equity);
      if (dgt(dd, this.#maxDrawdown)) this.#maxDrawdown = dd;
      this.#settled = equity;
    }
    const last = this.last;
    const point = { at: Math.max(at, last.at), equity };
    if (last.equity === equity || deq(last.equity, equity)) return point;
    this.#points.push(point);
    // Dropping the oldest point moves the head; the array is spliced only once a whole buffer's worth is dropped,
    // since a splice per point would move every point kept, at each mark once the curve is full.
    if (this.#points.length - this.#head > this.#maxPoints) {
      this.#head = this.#points.length - this.#maxPoints;
      if (this.#head >= this.#maxPoints) this.#compact();
    }
    return point;
  }

  #compact(): void {
    if (this.#head === 0) return;
    this.#points.splice(0, this.#head);
    this.#head = 0;
  }
}
