/**
 * The recorded order book of one market as the backtest venue holds it: price level -> recorded quantity, plus
 * the part of each level our own marketable orders consumed.
 *
 * The recorded quantity is the market and is never changed by us. What we took stays taken: a level offers
 * `quantity - consumed`. When the recording later lowers the level (trades, cancellations) the consumed part can
 * only shrink with it (`consumed = min(consumed, quantity)`: what others took after us came out of what was
 * left, and a vanished level owes us nothing); when the recording raises it, the new quantity joins behind and
 * is available. Levels are keyed by the double of their rate (exact enough to tell apart every rate with at most
 * 15 significant digits, which every market's precision allows) and kept sorted best first. The key is made by
 * `orderingKey`, the same double as `toNumber()` without going through a string (the hot path of every event).
 */
import { type Decimal, ZERO } from '../../src/core/decimal.js';
import type { OrderBookEntry } from '../../src/model/market.js';
import { orderingKey, sameValue } from '../../src/store/order-book.js';

/** One recorded level. */
export interface Level {
  readonly rate: Decimal;
  readonly key: number;
  quantity: Decimal;
  /** What our orders took from this level and the recording does not know about. */
  consumed: Decimal;
}

/** A change of one level's recorded quantity. */
export interface LevelChange {
  side: BookSide;
  key: number;
  rate: Decimal;
  before: Decimal;
  after: Decimal;
}

/** Which levels a caller follows (the venue's resting queues: the levels where our orders rest). */
export interface LevelWatch {
  watches(side: BookSide, key: number): boolean;
}

/** `bid` (best = highest) or `ask` (best = lowest). */
export type BookSide = 'bid' | 'ask';

/**
 * Ranks moved by a level entering or leaving a side are moved by a loop up to this many, by `copyWithin` beyond: a
 * typed array's copyWithin is a call into the runtime costing as much as moving a few dozen numbers, and levels come
 * and go near the top of the book, where the move is as long as the side is short.
 */
const SHORT_MOVE = 32;

/** One side, sorted best first. */
export class RecordedSide {
  readonly side: BookSide;
  /**
   * The levels, each in a slot it keeps for its life: the ranked order lives in typed arrays, so a level entering or
   * leaving moves numbers (a memmove) rather than object references (which V8 moves with a write barrier each: the
   * splice of a Level[] was most of the cost of applying a recorded delta).
   */
  readonly #pool: Array<Level | undefined> = [];
  readonly #freeSlots: number[] = [];
  /** Keys, best first (the first #size). */
  #keys = new Float64Array(64);
  /** The slot of the level at each rank: a rank is an index, not a map lookup (the feed reads the top). */
  #ranked = new Int32Array(64);
  #size = 0;
  readonly #desc: boolean;
  /** Bumped by every change of a level's quantity or of the levels present: a view built at a version still holds. */
  version = 0;
  /**
   * The last change made by {@link set}, for a view built just before it (see feed-view.ts): it took the side from
   * version `changedFrom` to `changedFrom + 1`, and was a quantity `update` of the level `changeKey`, or that level's
   * `insert` at, or `remove` from, `changeRank`. -1 after {@link clear} (no single change to follow).
   */
  changedFrom = -1;
  changeKind: 'update' | 'insert' | 'remove' = 'update';
  changeKey = 0;
  /** The rank of the level the last change updated or inserted, or removed it from (an update moves no level). */
  changeRank = 0;
  /**
   * The recorded list of one entry that made the last change ({@link RecordedBook.update}), while `version` is still
   * `changeListVersion`: the feed publishes that very list when its message would hold the same one entry (most
   * events), instead of an entry and a list of its own.
   */
  changeList: readonly OrderBookEntry[] = [];
  changeListVersion = -1;

  constructor(side: BookSide) {
    this.side = side;
    this.#desc = side === 'bid';
  }

  get size(): number {
    return this.#size;
  }

  /** The level of `key`: found by its rank (a binary search of the ranked keys; no map to keep beside them). */
  get(key: number): Level | undefined {
    const at = this.#find(key);
    return at < this.#size && this.#keys[at] === key ? this.#pool[this.#ranked[at]!] : undefined;
  }

  /** How many levels are better than `key` (its rank if present, else where it would go). */
  rankOf(key: number): number {
    return this.#find(key);
  }

  /** The level at `rank` (0 = best). */
  atRank(rank: number): Level | undefined {
    return rank >= 0 && rank < this.#size ? this.#pool[this.#ranked[rank]!] : undefined;
  }

  best(): Level | undefined {
    return this.atRank(0);
  }

  /** True when `a` is a better price than `b` on this side. */
  better(a: number, b: number): boolean {
    return this.#desc ? a > b : a < b;
  }

  /** Set a level's recorded quantity (0 removes it); returns its quantity before. */
  set(rate: Decimal, quantity: Decimal, key: number = orderingKey(rate)): Decimal {
    // One binary search finds the level (its rank) or where it would go.
    const at = this.#find(key);
    const slot = at < this.#size && this.#keys[at] === key ? this.#ranked[at]! : -1;
    const level = slot < 0 ? undefined : this.#pool[slot]!;
    if (quantity.isZero()) {
      if (!level) return ZERO;
      this.#changed('remove', key, at);
      this.#pool[slot] = undefined;
      this.#freeSlots.push(slot);
      const n = this.#size--;
      if (n - at <= SHORT_MOVE) {
        const keys = this.#keys;
        const ranked = this.#ranked;
        for (let i = at + 1; i < n; i++) {
          keys[i - 1] = keys[i]!;
          ranked[i - 1] = ranked[i]!;
        }
      } else {
        this.#keys.copyWithin(at, at + 1, n);
        this.#ranked.copyWithin(at, at + 1, n);
      }
      return level.quantity;
    }
    if (level) {
      this.#changed('update', key, at);
      const before = level.quantity;
      level.quantity = quantity;
      // `gt` allocates; a zero consumed (the usual case) exceeds only a negative quantity.
      if (level.consumed.isZero() ? quantity.isNegative() : level.consumed.gt(quantity)) level.consumed = quantity;
      return before;
    }
    const added: Level = { rate, key, quantity, consumed: ZERO };
    this.#changed('insert', key, at);
    const free = this.#freeSlots.pop() ?? this.#pool.length;
    this.#pool[free] = added;
    const n = this.#size++;
    if (n === this.#keys.length) this.#grow();
    const keys = this.#keys;
    const ranked = this.#ranked;
    if (n - at <= SHORT_MOVE) {
      for (let i = n; i > at; i--) {
        keys[i] = keys[i - 1]!;
        ranked[i] = ranked[i - 1]!;
      }
    } else {
      keys.copyWithin(at + 1, at, n);
      ranked.copyWithin(at + 1, at, n);
    }
    keys[at] = key;
    ranked[at] = free;
    return ZERO;
  }

  clear(): void {
    this.version++;
    this.changedFrom = -1;
    this.#pool.length = 0;
    this.#freeSlots.length = 0;
    this.#size = 0;
  }

  /** Twice the room for ranks. */
  #grow(): void {
    const keys = new Float64Array(this.#keys.length * 2);
    keys.set(this.#keys);
    this.#keys = keys;
    const ranked = new Int32Array(this.#ranked.length * 2);
    ranked.set(this.#ranked);
    this.#ranked = ranked;
  }

  /** The best `n` levels as stream entries (recorded quantities). */
  top(n: number): OrderBookEntry[] {
    const out: OrderBookEntry[] = [];
    const end = Math.min(n, this.#size);
    for (let i = 0; i < end; i++) {
      const l = this.atRank(i)!;
      out.push({ rate: l.rate, quantity: l.quantity });
    }
    return out;
  }

  /** Every level, best first (live objects; do not change them, nor the side while iterating). */
  *levels(): IterableIterator<Level> {
    for (let r = 0; r < this.#size; r++) yield this.atRank(r)!;
  }

  /** Bump the version and note the change (see {@link changedFrom}). */
  #changed(kind: 'update' | 'insert' | 'remove', key: number, rank: number): void {
    this.changedFrom = this.version++;
    this.changeKind = kind;
    this.changeKey = key;
    this.changeRank = rank;
  }

  /** Index of `key`, or where it would be inserted. */
  #find(key: number): number {
    let lo = 0;
    let hi = this.#size;
    const desc = this.#desc;
    const keys = this.#keys;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const k = keys[mid]!;
      if (desc ? k > key : k < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * {@link RecordedBook.update} of one side; a list of one entry that changed the side is noted as the side's
 * {@link RecordedSide.changeList}.
 */
function updateSide(side: RecordedSide, deltas: readonly OrderBookEntry[]): boolean {
  // An indexed loop: a reader hands out one shared frozen empty list, and a for-of over lists of two elements kinds
  // allocated an iterator and a result per step.
  let changed = false;
  const version = side.version;
  for (let i = 0; i < deltas.length; i++) {
    const e = deltas[i]!;
    if (!sameValue(side.set(e.rate, e.quantity, orderingKey(e.rate)), e.quantity)) changed = true;
  }
  if (deltas.length === 1 && side.version === version + 1) {
    side.changeList = deltas;
    side.changeListVersion = side.version;
  }
  return changed;
}

/** Both sides of one market's recorded book. */
export class RecordedBook {
  readonly bid = new RecordedSide('bid');
  readonly ask = new RecordedSide('ask');

  side(s: BookSide): RecordedSide {
    return s === 'bid' ? this.bid : this.ask;
  }

  /** Replace the book with a snapshot; returns every level whose quantity changed. */
  reset(bid: readonly OrderBookEntry[], ask: readonly OrderBookEntry[]): LevelChange[] {
    const changes: LevelChange[] = [];
    for (const s of ['bid', 'ask'] as const) {
      const side = this.side(s);
      const next = new Map<number, OrderBookEntry>();
      for (const e of s === 'bid' ? bid : ask) if (!e.quantity.isZero()) next.set(orderingKey(e.rate), e);
      const gone: Level[] = [];
      for (const l of side.levels()) if (!next.has(l.key)) gone.push(l);
      for (const l of gone) changes.push({ side: s, key: l.key, rate: l.rate, before: side.set(l.rate, ZERO), after: ZERO });
      for (const e of next.values()) {
        const before = side.set(e.rate, e.quantity);
        if (!sameValue(before, e.quantity)) changes.push({ side: s, key: orderingKey(e.rate), rate: e.rate, before, after: e.quantity });
      }
    }
    return changes;
  }

  /**
   * Apply stream deltas as {@link apply} does, only saying whether a level's quantity changed: what the venue needs
   * when none of our orders rests in this market (no queue to update), without a change object per level.
   */
  update(bidDeltas: readonly OrderBookEntry[], askDeltas: readonly OrderBookEntry[]): boolean {
    const bid = updateSide(this.bid, bidDeltas);
    const ask = updateSide(this.ask, askDeltas);
    return bid || ask;
  }

  /**
   * {@link apply}'s changes of the levels `watch` follows only (no object for the others), or undefined when no
   * level's quantity changed at all: what the venue needs while our orders rest in this market, where most
   * deltas change levels we are not at.
   */
  applyWatched(bidDeltas: readonly OrderBookEntry[], askDeltas: readonly OrderBookEntry[], watch: LevelWatch): LevelChange[] | undefined {
    let changes: LevelChange[] | undefined;
    for (let i = 0; i < bidDeltas.length; i++) {
      const e = bidDeltas[i]!;
      const key = orderingKey(e.rate);
      const before = this.bid.set(e.rate, e.quantity, key);
      if (sameValue(before, e.quantity)) continue;
      changes ??= [];
      if (watch.watches('bid', key)) changes.push({ side: 'bid', key, rate: e.rate, before, after: e.quantity });
    }
    for (let i = 0; i < askDeltas.length; i++) {
      const e = askDeltas[i]!;
      const key = orderingKey(e.rate);
      const before = this.ask.set(e.rate, e.quantity, key);
      if (sameValue(before, e.quantity)) continue;
      changes ??= [];
      if (watch.watches('ask', key)) changes.push({ side: 'ask', key, rate: e.rate, before, after: e.quantity });
    }
    return changes;
  }

  /** Apply stream deltas; returns the levels whose quantity changed. */
  apply(bidDeltas: readonly OrderBookEntry[], askDeltas: readonly OrderBookEntry[]): LevelChange[] {
    const changes: LevelChange[] = [];
    for (const e of bidDeltas) {
      const key = orderingKey(e.rate);
      const before = this.bid.set(e.rate, e.quantity, key);
      if (!sameValue(before, e.quantity)) changes.push({ side: 'bid', key, rate: e.rate, before, after: e.quantity });
    }
    for (const e of askDeltas) {
      const key = orderingKey(e.rate);
      const before = this.ask.set(e.rate, e.quantity, key);
      if (!sameValue(before, e.quantity)) changes.push({ side: 'ask', key, rate: e.rate, before, after: e.quantity });
    }
    return changes;
  }
}
