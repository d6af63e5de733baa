/**
 * The recorded order book of one market, rebuilt from a snapshot and its deltas: price level -> quantity per
 * side, kept sorted best-first so the replay can ask for the top N levels after every delta without re-sorting.
 * It is what the replay account's orders should add up to; the engine's book is compared against it.
 */
import type { Decimal } from '../../core/decimal.js';
import type { OrderBookEntry } from '../../model/market.js';

/** A book side: bids (best = highest) or asks (best = lowest). */
export type RecordedSide = 'bid' | 'ask';

class SortedLevels {
  readonly #byKey = new Map<string, OrderBookEntry>();
  /** Rates best-first. */
  readonly #rates: Decimal[] = [];
  readonly #bestFirst: (a: Decimal, b: Decimal) => number;

  constructor(side: RecordedSide) {
    this.#bestFirst = side === 'bid' ? (a, b) => b.comparedTo(a) : (a, b) => a.comparedTo(b);
  }

  get size(): number {
    return this.#rates.length;
  }

  get(rate: Decimal): Decimal | undefined {
    return this.#byKey.get(rateKey(rate))?.quantity;
  }

  set(rate: Decimal, quantity: Decimal): void {
    const key = rateKey(rate);
    const existing = this.#byKey.get(key);
    if (quantity.isZero()) {
      if (!existing) return;
      this.#byKey.delete(key);
      this.#rates.splice(this.#find(rate), 1);
      return;
    }
    if (existing) {
      existing.quantity = quantity;
      return;
    }
    this.#byKey.set(key, { rate, quantity });
    this.#rates.splice(this.#find(rate), 0, rate);
  }

  top(n: number): OrderBookEntry[] {
    const out: OrderBookEntry[] = [];
    const end = Math.min(n, this.#rates.length);
    for (let i = 0; i < end; i++) {
      const e = this.#byKey.get(rateKey(this.#rates[i] as Decimal)) as OrderBookEntry;
      out.push({ rate: e.rate, quantity: e.quantity });
    }
    return out;
  }

  clear(): void {
    this.#byKey.clear();
    this.#rates.length = 0;
  }

  /** Index of `rate`, or where it would be inserted (binary search). */
  #find(rate: Decimal): number {
    let lo = 0;
    let hi = this.#rates.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#bestFirst(this.#rates[mid] as Decimal, rate) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Canonical text of a rate (`32414.61700000` and `32414.617` are the same level). */
export function rateKey(rate: Decimal): string {
  return rate.toFixed();
}

/**
 * @example
 * const book = new RecordedBook();
 * book.reset(snapshot.bid, snapshot.ask);
 * book.set('ask', dec('32601.419'), ZERO); // a delta removing a level
 * book.top('bid', 25);                     // best 25 bids
 */
export class RecordedBook {
  readonly #bid = new SortedLevels('bid');
  readonly #ask = new SortedLevels('ask');

  /** Replace everything with a snapshot's levels. */
  reset(bid: readonly OrderBookEntry[], ask: readonly OrderBookEntry[]): void {
    this.#bid.clear();
    this.#ask.clear();
    for (const l of bid) this.#bid.set(l.rate, l.quantity);
    for (const l of ask) this.#ask.set(l.rate, l.quantity);
  }

  /** Set the quantity of one level (0 removes it), as a stream delta does. */
  set(side: RecordedSide, rate: Decimal, quantity: Decimal): void {
    this.#side(side).set(rate, quantity);
  }

  /** Quantity at `rate`, undefined when there is no such level. */
  quantityAt(side: RecordedSide, rate: Decimal): Decimal | undefined {
    return this.#side(side).get(rate);
  }

  /** The best `n` levels of a side, best first (copies). */
  top(side: RecordedSide, n = Number.POSITIVE_INFINITY): OrderBookEntry[] {
    return this.#side(side).top(n);
  }

  /** Number of levels on a side. */
  size(side: RecordedSide): number {
    return this.#side(side).size;
  }

  #side(side: RecordedSide): SortedLevels {
    return side === 'bid' ? this.#bid : this.#ask;
  }
}
