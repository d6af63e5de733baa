/**
 * One side of an order book (bids or asks): price levels kept sorted from worst to best, so the best level is the
 * last element (taking or emptying it is O(1)), a level is found by exact rate in O(1) through a map and inserted
 * in O(log n) + a short move near the top of the book, where new orders mostly arrive; the level of any rank is
 * O(1), which the depth views need.
 *
 * Every change records the level's state before the first change since the last {@link BookSide.takeDirty},
 * so per-depth deltas can be computed from what actually changed instead of diffing whole views.
 */
import { type Decimal, ZERO, dgt, dgte, dlt, dlte } from '../../core/decimal.js';
import { formatFixed } from '../../core/decimal-format.js';
import { orderingKey } from '../../core/ordering-key.js';
import { PriceLevel, type RestingOrder } from './price-level.js';

/** Which side: bids (buy orders, best = highest) or asks (sell orders, best = lowest). */
export type SideName = 'bid' | 'ask';

/** A rate with its canonical key (`toFixed()`) and double approximation, for fast ordering. */
export interface RankedRate {
  readonly key: string;
  readonly rate: Decimal;
  /** `rate.toNumber()` (as {@link orderingKey} works it out). */
  readonly approx: number;
}

/** A level's state before the changes of the current operation. */
export interface DirtyMark {
  readonly key: string;
  readonly rate: Decimal;
  /** `rate` as a double, for fast ordering (see {@link BookSide.betterThan}). */
  readonly approx: number;
  /** Whether the level existed before the operation. */
  readonly existedBefore: boolean;
  /** Its total before the operation (zero when it did not exist). */
  readonly totalBefore: Decimal;
}

/** Bids or asks of one market. */
export class BookSide {
  readonly name: SideName;
  /** Levels sorted worst -> best. */
  readonly #levels: PriceLevel[] = [];
  readonly #byKey = new Map<string, PriceLevel>();
  #dirty = new Map<string, DirtyMark>();

  constructor(name: SideName) {
    this.name = name;
  }

  /** Number of price levels. */
  get size(): number {
    return this.#levels.length;
  }

  /** True when rate `a` is strictly better than `b` on this side (higher for bids, lower for asks). */
  better(a: Decimal, b: Decimal): boolean {
    return this.name === 'bid' ? dgt(a, b) : dlt(a, b);
  }

  /**
   * {@link better} for rates that come with their double approximation (levels, dirty marks): the doubles decide
   * whenever they differ (toNumber is monotonic), the exact comparison only breaks ties.
   */
  betterThan(a: RankedRate, b: RankedRate): boolean {
    if (a.approx !== b.approx) return this.name === 'bid' ? a.approx > b.approx : a.approx < b.approx;
    // Equal doubles are nearly always the same rate (a level compared with its own mark or boundary): equal
    // canonical keys settle that without an exact comparison, which would allocate.
    if (a.key === b.key) return false;
    return this.better(a.rate, b.rate);
  }

  /** True when an order at `rate` on the opposite side would trade with this side's best level. */
  crosses(rate: Decimal): boolean {
    const best = this.best();
    if (!best) return false;
    return this.name === 'bid' ? dgte(best.rate, rate) : dlte(best.rate, rate);
  }

  /** The best level, if any. */
  best(): PriceLevel | undefined {
    return this.#levels[this.#levels.length - 1];
  }

  /** The level of rank `rank` (0 = best), if any. */
  atRank(rank: number): PriceLevel | undefined {
    return this.#levels[this.#levels.length - 1 - rank];
  }

  /** The level at exactly `key` (a rate's `toFixed()`), if any. */
  get(key: string): PriceLevel | undefined {
    return this.#byKey.get(key);
  }

  /** Put `o` at the back of its rate's queue, creating the level when needed. */
  add(o: RestingOrder): void {
    const key = formatFixed(o.rate);
    let level = this.#byKey.get(key);
    this.#mark(key, o.rate, level);
    if (!level) {
      level = new PriceLevel(o.rate);
      this.#byKey.set(key, level);
      this.#levels.splice(this.#insertionIndex(level), 0, level);
    }
    level.append(o);
  }

  /** Take `o` off the book (cancel or complete fill), removing its level when it empties. */
  remove(o: RestingOrder): void {
    const level = o.level;
    if (!level) return;
    this.#mark(level.key, level.rate, level);
    level.unlink(o);
    if (level.count === 0) {
      this.#byKey.delete(level.key);
      const i = this.#indexOf(level);
      if (i === this.#levels.length - 1) this.#levels.pop();
      else this.#levels.splice(i, 1);
    }
  }

  /** Fill `quantity` of `o`; it leaves the book when nothing remains. */
  fill(o: RestingOrder, quantity: Decimal): void {
    const level = o.level;
    if (!level) throw new Error(`book: fill of order ${o.orderId} that is not resting`);
    const c = quantity.cmp(o.remaining);
    if (c > 0) throw new Error(`book: fill ${quantity.toFixed()} exceeds remaining ${o.remaining.toFixed()} of ${o.orderId}`);
    if (c === 0) {
      this.remove(o);
      o.remaining = ZERO;
      return;
    }
    this.#mark(level.key, level.rate, level);
    level.reduce(o, quantity);
  }

  /** Levels from best to worse, lazily. */
  *fromBest(): IterableIterator<PriceLevel> {
    for (let i = this.#levels.length - 1; i >= 0; i--) yield this.#levels[i]!;
  }

  /** The levels changed since the last call, with their state before; clears the record. */
  takeDirty(): Map<string, DirtyMark> {
    const d = this.#dirty;
    if (d.size > 0) this.#dirty = new Map();
    return d;
  }

  #mark(key: string, rate: Decimal, level: PriceLevel | undefined): void {
    if (this.#dirty.has(key)) return;
    this.#dirty.set(key, {
      key,
      rate,
      approx: level ? level.approx : orderingKey(rate),
      existedBefore: level !== undefined,
      totalBefore: level ? level.total : ZERO,
    });
  }

  /** Compare two levels in storage order (negative when `a` is worse than `b`). */
  #cmp(a: PriceLevel, b: PriceLevel): number {
    // The double comparison is exact whenever the doubles differ (toNumber is monotonic); equal doubles of
    // distinct rates (16+ significant digits) fall back to the exact decimal comparison.
    const c = a.approx !== b.approx ? (a.approx < b.approx ? -1 : 1) : a.rate.cmp(b.rate);
    return this.name === 'bid' ? c : -c;
  }

  #insertionIndex(level: PriceLevel): number {
    const levels = this.#levels;
    // Fast path: most new levels are at or near the top of the book.
    const n = levels.length;
    if (n === 0 || this.#cmp(levels[n - 1]!, level) < 0) return n;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#cmp(levels[mid]!, level) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #indexOf(level: PriceLevel): number {
    const levels = this.#levels;
    let lo = 0;
    let hi = levels.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.#cmp(levels[mid]!, level);
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    throw new Error(`book: level ${level.key} not found on ${this.name} side`);
  }
}
