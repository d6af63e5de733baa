/**
 * The published view of one side of a {@link MarketFeed} at one depth, and the two ways it is brought up to date
 * after the recorded book changed:
 * - {@link fillRecorded} (or the feed's merge with our orders) then {@link diff}: rebuild the top levels and compare
 *   them with the view, level by level — the general path, O(depth);
 * - {@link followChange}: when exactly one level of the recorded side changed since the view was built and none of
 *   our orders rests on that side (most events), apply that one change to the view — O(1) for a quantity, one
 *   short move for a level entering or leaving. It gives the same entries in the same order as the general path
 *   (test/backtest/feed-view.test.ts compares them on random books);
 * - {@link followMerged}: the same when our orders rest on the side too (and did not change since the view was
 *   built): the view shows recorded + ours, so a recorded level may stay shown with our quantity alone, and the level
 *   that enters a full view may be ours, recorded, or both;
 * - {@link followOurs}: when only our resting quantity changed since the view was built, all at one level (a
 *   placement, a cancel, a fill): that merged level changes, enters or leaves (test/backtest/feed-ours.test.ts).
 */
import { type Decimal, ZERO } from '../../src/core/decimal.js';
import { dadd } from '../../src/core/decimal-fast.js';
import type { OrderBookEntry } from '../../src/model/market.js';
import { sameValue } from '../../src/store/order-book.js';
import type { RecordedSide } from './recorded-book.js';

/** One of our levels as the feed keeps it: its key (the double of its rate) and its entry (rate, our quantity). */
export interface Keyed {
  key: number;
  entry: OrderBookEntry;
}

/** The deltas of a side that did not change: one shared empty list (a message's lists are only read). */
export const NO_DELTAS: OrderBookEntry[] = Object.freeze([]) as unknown as OrderBookEntry[];
/** Where {@link diff} gathers a side's deltas before copying them out at their exact length (see recording-lines.ts). */
const gathered: OrderBookEntry[] = [];

/** The published view of one side at one depth: its levels best first, as parallel arrays. */
export class View {
  keys: number[] = [];
  rates: Decimal[] = [];
  quantities: Decimal[] = [];
  /** The arrays of the view before the last change, refilled by the next one (a view changes on most events). */
  spareKeys: number[] = [];
  spareRates: Decimal[] = [];
  spareQuantities: Decimal[] = [];
  /** The recorded side's and our orders' versions on that side when the view was last built (-1: never). */
  version = -1;
  oursVersion = -1;
}

/** The recorded top `depth` levels of `side` into a view's spare arrays; returns how many. */
export function fillRecorded(side: RecordedSide, view: View, depth: number): number {
  const n = Math.min(depth, side.size);
  const keys = view.spareKeys;
  const rates = view.spareRates;
  const quantities = view.spareQuantities;
  for (let r = 0; r < n; r++) {
    const l = side.atRank(r)!;
    keys[r] = l.key;
    rates[r] = l.rate;
    quantities[r] = l.quantity;
  }
  return n;
}

/**
 * Entries that turn `view` into the levels now in its spare arrays (the first `n`: the current top levels of
 * `side`, with ours added when we rest on this side, best first); updates `view`. Both are sorted best first, so
 * one merge pass finds what changed, entered (full quantity) and left (quantity 0) without maps or sorting; a
 * level whose Decimal is the very object published (recorded quantities are replaced, never mutated) is unchanged
 * without a comparison. The spare arrays become the view's and the old ones the spares: no allocation per event.
 */
export function diff(side: RecordedSide, view: View, n: number): OrderBookEntry[] {
  const keys = view.spareKeys;
  const rates = view.spareRates;
  const quantities = view.spareQuantities;
  // Setting an array's length is a runtime call: only when the view's size changed.
  if (keys.length !== n) {
    keys.length = n;
    rates.length = n;
    quantities.length = n;
  }
  let g = 0;
  const ok = view.keys;
  let i = 0;
  let j = 0;
  while (i < ok.length || j < n) {
    if (i < ok.length && j < n && ok[i] === keys[j]) {
      const q = quantities[j]!;
      const old = view.quantities[i]!;
      if (old !== q && !sameValue(old, q)) gathered[g++] = { quantity: q, rate: rates[j]! };
      i++;
      j++;
    } else if (j < n && (i >= ok.length || side.better(keys[j]!, ok[i]!))) {
      gathered[g++] = { quantity: quantities[j]!, rate: rates[j]! };
      j++;
    } else {
      gathered[g++] = { quantity: ZERO, rate: view.rates[i]! };
      i++;
    }
  }
  view.spareKeys = view.keys;
  view.spareRates = view.rates;
  view.spareQuantities = view.quantities;
  view.keys = keys;
  view.rates = rates;
  view.quantities = quantities;
  return g === 0 ? NO_DELTAS : gathered.slice(0, g);
}

/**
 * Apply the one change `side` records ({@link RecordedSide.changeKind}) to a view of its top `depth` levels that
 * was built just before it, with no order of ours on the side; returns the entries the general path would give.
 * The view then holds the top levels again (the caller sets its version).
 */
export function followChange(side: RecordedSide, view: View, depth: number): OrderBookEntry[] {
  const keys = view.keys;
  const key = side.changeKey;
  switch (side.changeKind) {
    case 'update': {
      // A level whose quantity changed: shown if it is in the view (a view short of `depth` holds every level). An
      // update moves no level, and the view holds the side's best levels in rank order: it is shown at its rank.
      const i = side.changeRank;
      if (i >= keys.length) return NO_DELTAS;
      const q = side.atRank(i)!.quantity;
      const old = view.quantities[i]!;
      view.quantities[i] = q;
      if (old === q || sameValue(old, q)) return NO_DELTAS;
      const rate = view.rates[i]!;
      return recordedList(side, q, rate) ?? [{ quantity: q, rate }];
    }
    case 'insert': {
      // A new level at `rank`: it enters the view if it ranks within `depth`, and pushes the last one out of a
      // full view. Entries best first, as the general path's merge gives them.
      const rank = side.changeRank;
      if (rank >= depth) return NO_DELTAS;
      const l = side.atRank(rank)!;
      if (keys.length < depth) {
        const list = recordedList(side, l.quantity, l.rate);
        if (list !== undefined) {
          insertLevel(view, rank, key, l.rate, l.quantity);
          return list;
        }
      }
      return insertAt(view, rank, key, l.rate, l.quantity, depth);
    }
    case 'remove': {
      // A level gone from `rank`: it leaves the view if it was in it, and the level now ranked last within `depth`
      // (if the side has one) enters.
      const rank = side.changeRank;
      if (rank >= keys.length) return NO_DELTAS;
      const rate = view.rates[rank]!;
      removeLevel(view, rank);
      if (side.size < depth) return recordedList(side, ZERO, rate) ?? [{ quantity: ZERO, rate }];
      const l = side.atRank(depth - 1)!;
      keys.push(l.key);
      view.rates.push(l.rate);
      view.quantities.push(l.quantity);
      return [
        { quantity: ZERO, rate },
        { quantity: l.quantity, rate: l.rate },
      ];
    }
  }
}

/**
 * The recorded list of one entry that made the side's last change ({@link RecordedSide.changeList}), when that entry
 * is `{ quantity, rate }` by value: the one-entry list {@link followChange} would otherwise build (the recorded
 * entry's own objects are published, as immutable as the feed's); undefined otherwise.
 */
function recordedList(side: RecordedSide, quantity: Decimal, rate: Decimal): OrderBookEntry[] | undefined {
  if (side.changeListVersion !== side.version) return undefined;
  const e = side.changeList[0]!;
  // A message's lists are only read (see NO_DELTAS): the readonly list goes out as one.
  return (e.quantity === quantity || sameValue(e.quantity, quantity)) && (e.rate === rate || sameValue(e.rate, rate)) ? (side.changeList as OrderBookEntry[]) : undefined;
}

/**
 * {@link followChange} for a view of recorded + ours (`mine`: our levels sorted best first, `ours` the same by key),
 * built just before the one recorded change and with our levels unchanged since. Gives the entries, and leaves the
 * view holding the levels, that the general path (the feed's merge, then {@link diff}) would.
 */
export function followMerged(side: RecordedSide, view: View, depth: number, mine: readonly Keyed[], ours: ReadonlyMap<number, Keyed>): OrderBookEntry[] {
  const keys = view.keys;
  const key = side.changeKey;
  const o = ours.get(key);
  switch (side.changeKind) {
    case 'update': {
      // The merged levels shown do not change, only this one's quantity (if it is shown, at its merged rank).
      const i = mergedRank(side, mine, key, side.changeRank);
      if (i >= keys.length) return NO_DELTAS;
      const l = side.get(key)!;
      if (o) return requantify(view, i, l.rate, l.quantity.plus(o.entry.quantity));
      // None of ours at this level: its entry is the recorded one, published as it came (as followChange does).
      return requantify(view, i, l.rate, l.quantity, side);
    }
    case 'insert': {
      const l = side.get(key)!;
      if (o) {
        // Shown with our quantity alone until now: the recorded quantity joins it.
        const i = mergedRank(side, mine, key, side.changeRank);
        return i >= keys.length ? NO_DELTAS : requantify(view, i, l.rate, l.quantity.plus(o.entry.quantity));
      }
      // A level new to the merged book.
      const rank = mergedRank(side, mine, key, side.changeRank);
      if (rank >= depth) return NO_DELTAS;
      // Entering a view that is not full pushes nothing out: its one entry is the recorded one (as in followChange).
      if (keys.length < depth) {
        const list = recordedList(side, l.quantity, l.rate);
        if (list !== undefined) {
          insertLevel(view, rank, key, l.rate, l.quantity);
          return list;
        }
      }
      return insertAt(view, rank, key, l.rate, l.quantity, depth);
    }
    case 'remove': {
      // `changeRank` is the rank the recorded level was removed from.
      const i = mergedRank(side, mine, key, side.changeRank);
      if (i >= keys.length) return NO_DELTAS;
      // Ours stays shown there, alone.
      if (o) return requantify(view, i, o.entry.rate, o.entry.quantity);
      return removeMerged(side, view, i, mine);
    }
  }
}

/**
 * Follow a change of our resting quantity at the one level `key` (one or more changes there, none elsewhere) on a
 * view built just before it, with the recorded side unchanged since: that merged level's quantity changes, or it
 * enters the view (pushing the last one out of a full view), or it leaves it (the next merged level entering).
 * `mine` and `ours` are our levels after the change. Gives the entries, and leaves the view holding the levels,
 * that the general path (the feed's merge, then {@link diff}) would.
 */
export function followOurs(side: RecordedSide, view: View, depth: number, key: number, mine: readonly Keyed[], ours: ReadonlyMap<number, Keyed>): OrderBookEntry[] {
  const keys = view.keys;
  const l = side.get(key);
  const o = ours.get(key);
  // Every other level is as it was, so the level's merged rank is the same before and after the change.
  const rank = mergedRank(side, mine, key, side.rankOf(key));
  const shown = rank < keys.length && keys[rank] === key;
  if (!l && !o) return shown ? removeMerged(side, view, rank, mine) : NO_DELTAS;
  const rate = l ? l.rate : o!.entry.rate;
  const quantity = l && o ? dadd(l.quantity, o.entry.quantity) : l ? l.quantity : o!.entry.quantity;
  if (shown) return requantify(view, rank, rate, quantity);
  // Not shown before: beyond a full view it stays unseen; within `depth` it is new to the merged book and enters.
  if (rank >= depth) return NO_DELTAS;
  return insertAt(view, rank, key, rate, quantity, depth);
}

/**
 * The rank in the merged book (recorded + ours) of the level `key`, whose recorded rank (the recorded levels better
 * than it) is `rank`: that plus our levels alone (no recorded level at their price) better than it. A view of the
 * merged book shows its top levels in rank order, so a level it shows is at that index: no scan of the view's keys.
 */
function mergedRank(side: RecordedSide, mine: readonly Keyed[], key: number, rank: number): number {
  for (let j = 0; j < mine.length; j++) {
    const m = mine[j]!;
    if (!side.better(m.key, key)) break; // best first: none after it is better either
    if (!side.get(m.key)) rank++;
  }
  return rank;
}

/**
 * The merged level shown at `i` left the merged book (neither a recorded level nor ours remains at its price): its
 * removal, then the merged level after the last one shown entering, when there is one.
 */
function removeMerged(side: RecordedSide, view: View, i: number, mine: readonly Keyed[]): OrderBookEntry[] {
  const keys = view.keys;
  const rate = view.rates[i]!;
  const last = keys[keys.length - 1]!;
  removeLevel(view, i);
  // The merged level after the last one shown enters (there is one only if the view was full): the better of the
  // first recorded level and the first of ours beyond it, or both at one price. The recorded levels shown are
  // the best ones: as many as the view holds now less our levels shown alone.
  let alone = 0;
  let next: Keyed | undefined;
  for (const m of mine) {
    if (side.better(last, m.key)) next ??= m;
    else if (!side.get(m.key)) alone++;
  }
  const l = side.atRank(keys.length - alone);
  const gone: OrderBookEntry = { quantity: ZERO, rate };
  let entering: OrderBookEntry;
  if (l && (next === undefined || side.better(l.key, next.key))) {
    keys.push(l.key);
    entering = { quantity: l.quantity, rate: l.rate };
  } else if (l && next!.key === l.key) {
    keys.push(l.key);
    entering = { quantity: l.quantity.plus(next!.entry.quantity), rate: l.rate };
  } else if (next) {
    keys.push(next.key);
    entering = { quantity: next.entry.quantity, rate: next.entry.rate };
  } else {
    return [gone];
  }
  view.rates.push(entering.rate);
  view.quantities.push(entering.quantity);
  return [gone, entering];
}

/**
 * A level entering the view at `rank` (within `depth`): its entry, and when that pushes the last shown level out of
 * a full view, that level's removal after it (best first, as the general path's merge gives them).
 */
function insertAt(view: View, rank: number, key: number, rate: Decimal, quantity: Decimal, depth: number): OrderBookEntry[] {
  const keys = view.keys;
  insertLevel(view, rank, key, rate, quantity);
  if (keys.length <= depth) return [{ quantity, rate }];
  keys.pop();
  view.quantities.pop();
  const left = view.rates.pop()!;
  return [
    { quantity, rate },
    { quantity: ZERO, rate: left },
  ];
}

/**
 * Levels of a view moved by a level entering or leaving it are moved by a loop up to this many, by `splice` beyond:
 * a splice is a builtin call per array (three per change) and allocates the list of what it removed, while levels
 * come and go near the top of the book, where the move is as long as the view is short.
 */
const SHORT_MOVE = 32;

/** A level entering the view's arrays at `at` (the levels from `at` on move down one). */
function insertLevel(view: View, at: number, key: number, rate: Decimal, quantity: Decimal): void {
  const keys = view.keys;
  const rates = view.rates;
  const quantities = view.quantities;
  const n = keys.length;
  if (n - at > SHORT_MOVE) {
    keys.splice(at, 0, key);
    rates.splice(at, 0, rate);
    quantities.splice(at, 0, quantity);
    return;
  }
  // One more slot at the end, then the levels from `at` on move into it.
  keys.push(key);
  rates.push(rate);
  quantities.push(quantity);
  for (let i = n; i > at; i--) {
    keys[i] = keys[i - 1]!;
    rates[i] = rates[i - 1]!;
    quantities[i] = quantities[i - 1]!;
  }
  keys[at] = key;
  rates[at] = rate;
  quantities[at] = quantity;
}

/** The level at `at` leaving the view's arrays (the levels after it move up one). */
function removeLevel(view: View, at: number): void {
  const keys = view.keys;
  const rates = view.rates;
  const quantities = view.quantities;
  const n = keys.length;
  if (n - at > SHORT_MOVE) {
    keys.splice(at, 1);
    rates.splice(at, 1);
    quantities.splice(at, 1);
    return;
  }
  for (let i = at + 1; i < n; i++) {
    keys[i - 1] = keys[i]!;
    rates[i - 1] = rates[i]!;
    quantities[i - 1] = quantities[i]!;
  }
  keys.pop();
  rates.pop();
  quantities.pop();
}

/**
 * The level shown at `i` now holds `quantity` (rate `rate`): its entry, unless the quantity is the same. With
 * `recorded` (the level is the recorded side's alone, none of ours there), the side's recorded one-entry list when it
 * is that entry (see {@link recordedList}): a market maker's usual event, with no list and entry of its own.
 */
function requantify(view: View, i: number, rate: Decimal, quantity: Decimal, recorded?: RecordedSide): OrderBookEntry[] {
  const old = view.quantities[i]!;
  view.rates[i] = rate;
  view.quantities[i] = quantity;
  if (old === quantity || sameValue(old, quantity)) return NO_DELTAS;
  return (recorded && recordedList(recorded, quantity, rate)) ?? [{ quantity, rate }];
}
