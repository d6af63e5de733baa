/**
 * Aggregated views of a book at the stream depths (1, 25, 500) and the deltas between successive views.
 *
 * Seed rule 1: an orderbook delta entry with quantity 0 means no liquidity remains at that rate OR the rate left
 * the subscribed depth; a rate that enters the depth (because better levels went away) appears with its full
 * quantity. Each depth has its own view, its own deltas and its own sequence, and a depth whose view did not
 * change publishes nothing.
 *
 * Instead of diffing whole views after every operation, a view is described by its boundary: the rate of its
 * last (worst) level when it is full, or "not full" (every level is in view). Levels whose quantity did not
 * change can only enter or leave the view between the old and the new boundary, so an update costs
 * O(changed levels + levels crossing the boundary), not O(depth).
 */
import { type Decimal, ZERO, deq } from '../../core/decimal.js';
import type { OrderBookEntry } from '../../model/market.js';
import type { BookSide, DirtyMark, RankedRate } from './book-side.js';

/** The stream depths. */
export const BOOK_DEPTHS = [1, 25, 500] as const;
/** A stream depth. */
export type BookDepth = (typeof BOOK_DEPTHS)[number];

/** The changes of one depth's view in one operation. */
export interface DepthDelta {
  depth: BookDepth;
  bidDeltas: OrderBookEntry[];
  askDeltas: OrderBookEntry[];
}

/** The top `depth` levels of a side, best first. */
export function sideView(side: BookSide, depth: number): OrderBookEntry[] {
  const out: OrderBookEntry[] = [];
  for (const level of side.fromBest()) {
    if (out.length >= depth) break;
    out.push({ quantity: level.total, rate: level.rate });
  }
  return out;
}

/**
 * Tracks the published boundary of every depth view of both sides and turns the changed levels of an operation
 * into per-depth deltas.
 */
export class DepthViews {
  readonly #bids: BookSide;
  readonly #asks: BookSide;
  /** Worst level of each published view, or undefined while the view holds every level of the side. */
  readonly #bidWorst = new Map<BookDepth, Boundary | undefined>();
  readonly #askWorst = new Map<BookDepth, Boundary | undefined>();

  constructor(bids: BookSide, asks: BookSide) {
    this.#bids = bids;
    this.#asks = asks;
    for (const d of BOOK_DEPTHS) {
      this.#bidWorst.set(d, worstInView(bids, d));
      this.#askWorst.set(d, worstInView(asks, d));
    }
  }

  /**
   * Consume the changes recorded on both sides since the last call and return the deltas of every depth whose
   * view changed (entries best first), updating the published boundaries.
   */
  flush(): DepthDelta[] {
    const out: DepthDelta[] = [];
    this.#flush(true, (depth, bidDeltas, askDeltas) => out.push({ depth, bidDeltas, askDeltas }));
    return out;
  }

  /**
   * Like {@link flush}, but only say which depths changed (in the same order): for a caller that numbers the
   * changes and has nobody to send the entries to. Builds no entry.
   */
  flushChangedDepths(): BookDepth[] {
    const out: BookDepth[] = [];
    this.#flush(false, (depth) => out.push(depth));
    return out;
  }

  /** Consume the changes; `changed` gets each changed depth, with its entries when `entries` (else empty lists). */
  #flush(entries: boolean, changed: (depth: BookDepth, bidDeltas: OrderBookEntry[], askDeltas: OrderBookEntry[]) => void): void {
    const bidDirty = this.#bids.takeDirty();
    const askDirty = this.#asks.takeDirty();
    if (bidDirty.size === 0 && askDirty.size === 0) return;
    for (const depth of BOOK_DEPTHS) {
      // A side with no changed level has an unchanged view at every depth.
      const bidRanked = entries ? [] : undefined;
      const askRanked = entries ? [] : undefined;
      const bidChanged = bidDirty.size > 0 && sideDeltas(this.#bids, depth, this.#bidWorst.get(depth), bidDirty, bidRanked);
      const askChanged = askDirty.size > 0 && sideDeltas(this.#asks, depth, this.#askWorst.get(depth), askDirty, askRanked);
      this.#bidWorst.set(depth, worstInView(this.#bids, depth));
      this.#askWorst.set(depth, worstInView(this.#asks, depth));
      if (bidChanged || askChanged) changed(depth, entriesOf(this.#bids, bidRanked), entriesOf(this.#asks, askRanked));
    }
  }
}

/** A view's worst level (its rate, key and double approximation, for fast comparisons). */
type Boundary = RankedRate;

function worstInView(side: BookSide, depth: number): Boundary | undefined {
  if (side.size < depth) return undefined;
  // The level itself: its rate, key and approximation never change, so it can stand for the boundary.
  return side.atRank(depth - 1)!;
}

/**
 * Deltas of one side at one depth, given the old boundary and the levels that changed: pushed to `out` (unsorted),
 * or, without `out`, only whether there is any (stopping at the first). True when there is at least one.
 */
function sideDeltas(
  side: BookSide,
  depth: number,
  oldWorst: Boundary | undefined,
  dirty: ReadonlyMap<string, DirtyMark>,
  out: RankedEntry[] | undefined,
): boolean {
  let any = false;
  const n = side.size;
  const newWorst = worstInView(side, depth);
  // A level was in the old view iff it existed and is at least as good as the old boundary; likewise now.
  // (Written inline rather than as closures: this runs after every operation.)
  for (const m of dirty.values()) {
    const level = side.get(m.key);
    const wasIn = m.existedBefore && (oldWorst === undefined || !side.betterThan(oldWorst, m));
    const isIn = level !== undefined && (newWorst === undefined || !side.betterThan(newWorst, m));
    if (isIn) {
      if (!wasIn || !deq(level.total, m.totalBefore)) {
        if (!out) return true;
        any = true;
        out.push({ quantity: level.total, level });
      }
    } else if (wasIn) {
      if (!out) return true;
      any = true;
      out.push({ quantity: ZERO, level: m });
    }
  }
  // Unchanged levels that entered the view: in the new view but worse than the old boundary.
  if (oldWorst !== undefined) {
    for (let r = Math.min(depth, n) - 1; r >= 0; r--) {
      const level = side.atRank(r)!;
      if (!side.betterThan(oldWorst, level)) break;
      if (!dirty.has(level.key)) {
        if (!out) return true;
        any = true;
        out.push({ quantity: level.total, level });
      }
    }
  }
  // Unchanged levels that left the view: beyond the new depth but at least as good as the old boundary.
  for (let r = depth; r < n; r++) {
    const level = side.atRank(r)!;
    if (oldWorst !== undefined && side.betterThan(oldWorst, level)) break;
    if (!dirty.has(level.key)) {
      if (!out) return true;
      any = true;
      out.push({ quantity: ZERO, level });
    }
  }
  return any;
}

/** The published entries of `ranked`, best first (none without `ranked`). */
function entriesOf(side: BookSide, ranked: RankedEntry[] | undefined): OrderBookEntry[] {
  if (ranked === undefined || ranked.length === 0) return [];
  // Entries are distinct rates, so the order is strict; betterThan decides on doubles nearly always.
  if (ranked.length > 1) ranked.sort((a, b) => (side.betterThan(a.level, b.level) ? -1 : 1));
  return ranked.map((e) => ({ quantity: e.quantity, rate: e.level.rate }));
}

/** A delta entry before publication, with its level's ranking data. */
interface RankedEntry {
  quantity: Decimal;
  level: RankedRate;
}
