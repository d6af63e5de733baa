/**
 * A local order book for one (market, depth): snapshot + deltas, fast best bid/ask, top-N and the full ladder.
 *
 * Users read exact {@link Decimal}s. Levels are ORDERED by a double (`orderingKey`), which is the correctly
 * rounded value of the exact rate: rounding to nearest is monotonic, so the double never orders two rates the
 * wrong way round, and the rare rates that round to the same double (more than ~15 significant digits) are
 * told apart by an exact comparison. Each side is a sorted array with the BEST level LAST, because deltas
 * cluster at the top of the book and inserting or removing near the end of an array moves few elements
 * (`npm run bench -- --only book-apply`: ~4 M level updates/s at depth 500 on the 2-core machine, 1.1-2 M/s
 * while its cores were shared with other test runs; target ≥ 1 M/s).
 */
import type { Decimal } from '../core/decimal.js';
import { WireFormatError } from '../core/errors.js';
import { type DecimalParts, orderingKey } from '../core/ordering-key.js';
import type { OrderBook as OrderBookSnapshot, OrderBookEntry } from '../model/market.js';

/** Book levels, best first on both sides. Entries are shared, immutable values: never mutate them. */
export interface OrderBookLadder {
  bid: readonly OrderBookEntry[];
  ask: readonly OrderBookEntry[];
}

/** What readers of a book may use (the store hands this out; only synchronizers write). */
export interface ReadonlyOrderBook {
  readonly marketSymbol: string;
  readonly depth: number;
  /** Sequence of the last snapshot or delta applied, when the writer gave one. */
  readonly sequence: number | undefined;
  /** Number of bid levels. */
  readonly bidCount: number;
  /** Number of ask levels. */
  readonly askCount: number;
  /** Highest bid, or undefined when there are no bids. */
  bestBid(): OrderBookEntry | undefined;
  /** Lowest ask, or undefined when there are no asks. */
  bestAsk(): OrderBookEntry | undefined;
  /** The best `n` levels of each side, best first. */
  top(n: number): OrderBookLadder;
  /** Every level of both sides, best first. */
  ladder(): OrderBookLadder;
  /** Quantity resting at exactly `rate` on `side`, or undefined. */
  quantityAt(side: 'bid' | 'ask', rate: Decimal): Decimal | undefined;
  /** True when the best bid is at or above the best ask (a correct book never is). */
  crossed(): boolean;
}

// decimal.js's representation (core/ordering-key.ts), read directly on the hot path because the methods (`cmp`,
// `isZero`, ...) coerce their argument into a new Decimal or go through strings, which the `book-apply` bench
// showed to dominate. Normalised: equal finite values have equal fields.
const parts = (x: Decimal): DecimalParts => x as unknown as DecimalParts;

/** Exact equality of two finite decimals without allocating (`a.eq(b)` coerces `b` into a new Decimal). */
export function sameValue(a: Decimal, b: Decimal): boolean {
  const x = parts(a);
  const y = parts(b);
  if (x.e !== y.e || x.s !== y.s) return false;
  const xd = x.d!;
  const yd = y.d!;
  if (xd.length !== yd.length) return false;
  for (let i = 0; i < xd.length; i++) if (xd[i] !== yd[i]) return false;
  return true;
}

/** Zero (either sign). */
const isZero = (x: Decimal): boolean => parts(x).d?.[0] === 0;
/** Finite and not below zero. */
const isNonNegative = (x: Decimal): boolean => parts(x).d !== null && (parts(x).s > 0 || isZero(x));
/** Finite and above zero. */
const isPositive = (x: Decimal): boolean => parts(x).d !== null && parts(x).s > 0 && !isZero(x);

export { orderingKey } from '../core/ordering-key.js';

/**
 * One side. `keys[i]` is `sign * orderingKey(rate)`, ascending, so for bids (sign +1) the highest rate is last
 * and for asks (sign -1) the lowest rate is last: the best level is always at the end.
 */
class BookSide {
  keys: number[] = [];
  levels: OrderBookEntry[] = [];
  constructor(readonly sign: 1 | -1) {}

  get size(): number {
    return this.keys.length;
  }

  best(): OrderBookEntry | undefined {
    return this.levels[this.levels.length - 1];
  }

  /** Index of `rate` when present (>= 0), else -(insertion index) - 1. */
  find(key: number, rate: Decimal): number {
    const keys = this.keys;
    // The first index whose key is >= `key`. Deltas cluster at the top of the book, which is the end of the
    // array: probe back from the end 1, 2, 4, ... places until a key below `key` bounds the range (everything
    // from hi on is >= key, everything before lo is < key), then bisect the range. A level at or next to the top
    // costs a probe or two instead of ~9 bisection steps at depth 500; a deep one at most twice the steps.
    let lo = 0;
    let hi = keys.length;
    for (let step = 1; ; step *= 2) {
      const i = hi - step;
      if (i < 0) break;
      if (keys[i]! < key) {
        lo = i + 1;
        break;
      }
      hi = i;
    }
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    // Equal keys: nearly always one level with exactly this rate; otherwise rates too close for a double,
    // kept in exact order among themselves.
    while (lo < keys.length && keys[lo] === key) {
      const here = this.levels[lo]!.rate;
      if (sameValue(here, rate)) return lo;
      if (this.sign * here.cmp(rate) > 0) break;
      lo++;
    }
    return -lo - 1;
  }

  /**
   * Apply one delta entry. The entry itself becomes the level (no copy per delta): entries are immutable values, as
   * every producer of stream messages makes them (decoders, the backtest feed, the sims' depth views).
   */
  set(entry: OrderBookEntry): void {
    const rate = entry.rate;
    const key = this.sign * orderingKey(rate);
    const i = this.find(key, rate);
    if (isZero(entry.quantity)) {
      if (i >= 0) this.removeAt(i);
      // Removing an unknown level is normal: the rate may have left the subscribed depth before we saw it.
      return;
    }
    if (i >= 0) this.levels[i] = entry;
    else this.insertAt(-i - 1, key, entry);
  }

  // Hand-written shifts: cheaper than Array#splice (no result array) and the moves are short near the top.
  private insertAt(at: number, key: number, level: OrderBookEntry): void {
    const keys = this.keys;
    const levels = this.levels;
    let j = keys.length;
    keys.push(key);
    levels.push(level);
    for (; j > at; j--) {
      keys[j] = keys[j - 1]!;
      levels[j] = levels[j - 1]!;
    }
    keys[at] = key;
    levels[at] = level;
  }

  private removeAt(at: number): void {
    const keys = this.keys;
    const levels = this.levels;
    const last = keys.length - 1;
    for (let j = at; j < last; j++) {
      keys[j] = keys[j + 1]!;
      levels[j] = levels[j + 1]!;
    }
    keys.pop();
    levels.pop();
  }

  load(entries: readonly OrderBookEntry[]): void {
    const rows: { key: number; level: OrderBookEntry }[] = [];
    for (const e of entries) {
      if (!isZero(e.quantity)) rows.push({ key: this.sign * orderingKey(e.rate), level: { quantity: e.quantity, rate: e.rate } });
    }
    rows.sort((a, b) => a.key - b.key || this.sign * a.level.rate.cmp(b.level.rate));
    this.keys = [];
    this.levels = [];
    for (const r of rows) {
      const n = this.levels.length;
      // A snapshot listing one rate twice keeps the later entry, as applying it as deltas would.
      if (n > 0 && this.keys[n - 1] === r.key && sameValue(this.levels[n - 1]!.rate, r.level.rate)) this.levels[n - 1] = r.level;
      else {
        this.keys.push(r.key);
        this.levels.push(r.level);
      }
    }
  }

  /** Best `n` levels, best first. */
  topN(n: number): OrderBookEntry[] {
    const levels = this.levels;
    const count = Math.max(0, Math.min(n, levels.length));
    const out = new Array<OrderBookEntry>(count);
    for (let i = 0; i < count; i++) out[i] = levels[levels.length - 1 - i]!;
    return out;
  }

  quantityAt(rate: Decimal): Decimal | undefined {
    const i = this.find(this.sign * orderingKey(rate), rate);
    return i >= 0 ? this.levels[i]!.quantity : undefined;
  }
}

/** Whether every entry passes {@link checkDeltas}. */
function deltasValid(entries: readonly OrderBookEntry[]): boolean {
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (!isNonNegative(e.quantity) || !isPositive(e.rate)) return false;
  }
  return true;
}

function checkDeltas(entries: readonly OrderBookEntry[], side: string, where: string): void {
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (!isNonNegative(e.quantity)) throw new WireFormatError(where, `${side}[${i}].quantity`, `is not a finite quantity ≥ 0: ${e.quantity}`);
    if (!isPositive(e.rate)) throw new WireFormatError(where, `${side}[${i}].rate`, `is not a finite rate > 0: ${e.rate}`);
  }
}

/**
 * The book of one market at one depth. Writers: {@link OrderBookState.reset} from a REST snapshot, then
 * {@link OrderBookState.applyDeltas} per stream message (quantity 0 removes a level, any other quantity
 * replaces it). Readers get exact values through {@link ReadonlyOrderBook}.
 *
 * @example
 * const book = new OrderBookState('BTC-USD', 25);
 * book.reset({ bid: [{ rate: dec('100'), quantity: dec('1') }], ask: [{ rate: dec('101'), quantity: dec('2') }] }, 41);
 * book.applyDeltas([{ rate: dec('100.5'), quantity: dec('3') }], [], 42);
 * book.bestBid()?.rate.toString() // '100.5'
 */
export class OrderBookState implements ReadonlyOrderBook {
  readonly #bid = new BookSide(1);
  readonly #ask = new BookSide(-1);
  #sequence: number | undefined;

  constructor(
    readonly marketSymbol: string,
    readonly depth: number,
  ) {}

  get sequence(): number | undefined {
    return this.#sequence;
  }
  get bidCount(): number {
    return this.#bid.size;
  }
  get askCount(): number {
    return this.#ask.size;
  }

  /** Replace the whole book with a snapshot (either side in any order; zero quantities are skipped). */
  reset(snapshot: OrderBookSnapshot, sequence?: number): void {
    const where = `order book ${this.marketSymbol}/${this.depth} snapshot`;
    checkDeltas(snapshot.bid, 'bid', where);
    checkDeltas(snapshot.ask, 'ask', where);
    this.#bid.load(snapshot.bid);
    this.#ask.load(snapshot.ask);
    this.#sequence = sequence;
  }

  /**
   * Apply one message's deltas. Every entry is checked before any is applied, so a bad entry leaves the book
   * exactly as it was (and throws {@link WireFormatError}).
   */
  applyDeltas(bidDeltas: readonly OrderBookEntry[], askDeltas: readonly OrderBookEntry[], sequence?: number): void {
    // The error's text is only made for a bad entry: this runs for every stream message.
    if (!deltasValid(bidDeltas) || !deltasValid(askDeltas)) {
      const where = `order book ${this.marketSymbol}/${this.depth}`;
      checkDeltas(bidDeltas, 'bidDeltas', where);
      checkDeltas(askDeltas, 'askDeltas', where);
    }
    for (let i = 0; i < bidDeltas.length; i++) this.#bid.set(bidDeltas[i]!);
    for (let i = 0; i < askDeltas.length; i++) this.#ask.set(askDeltas[i]!);
    if (sequence !== undefined) this.#sequence = sequence;
  }

  /** Remove every level (e.g. while a resync is pending and the old book must not be read as current). */
  clear(): void {
    this.#bid.load([]);
    this.#ask.load([]);
    this.#sequence = undefined;
  }

  bestBid(): OrderBookEntry | undefined {
    return this.#bid.best();
  }

  bestAsk(): OrderBookEntry | undefined {
    return this.#ask.best();
  }

  top(n: number): OrderBookLadder {
    return { bid: this.#bid.topN(n), ask: this.#ask.topN(n) };
  }

  ladder(): OrderBookLadder {
    return { bid: this.#bid.topN(this.#bid.size), ask: this.#ask.topN(this.#ask.size) };
  }

  quantityAt(side: 'bid' | 'ask', rate: Decimal): Decimal | undefined {
    return (side === 'bid' ? this.#bid : this.#ask).quantityAt(rate);
  }

  crossed(): boolean {
    const b = this.#bid.best();
    const a = this.#ask.best();
    return b !== undefined && a !== undefined && b.rate.gte(a.rate);
  }
}

/**
 * Compare two books level by level (rates and quantities exactly, both sides, best first). Returns undefined
 * when equal, else a description of the first difference (for test failure messages).
 *
 * @example
 * expect(bookDifference(synced, reference)).toBeUndefined();
 */
export function bookDifference(a: ReadonlyOrderBook | OrderBookLadder, b: ReadonlyOrderBook | OrderBookLadder): string | undefined {
  const la = 'ladder' in a ? a.ladder() : a;
  const lb = 'ladder' in b ? b.ladder() : b;
  for (const side of ['bid', 'ask'] as const) {
    const x = la[side];
    const y = lb[side];
    const n = Math.max(x.length, y.length);
    for (let i = 0; i < n; i++) {
      const p = x[i];
      const q = y[i];
      if (!p || !q) return `${side}[${i}]: ${p ? `${p.quantity}@${p.rate}` : 'missing'} vs ${q ? `${q.quantity}@${q.rate}` : 'missing'}`;
      if (!p.rate.eq(q.rate) || !p.quantity.eq(q.quantity)) return `${side}[${i}]: ${p.quantity}@${p.rate} vs ${q.quantity}@${q.rate}`;
    }
  }
  return undefined;
}

/** True when two books hold exactly the same levels. */
export function booksEqual(a: ReadonlyOrderBook | OrderBookLadder, b: ReadonlyOrderBook | OrderBookLadder): boolean {
  return bookDifference(a, b) === undefined;
}
