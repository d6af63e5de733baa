/**
 * Quote-ladder reconciliation: which resting orders to keep, which to cancel and which levels to place so that
 * what rests afterwards is exactly the desired ladder, with the fewest operations.
 *
 * v3 has no amend, so an order can only be kept as it is or replaced. A resting order serves a desired level
 * exactly when side, rate and remaining quantity are equal; a level whose quantity changed is a cancel plus a
 * place. Matching equal (side, rate, quantity) triples as multisets is optimal: every resting order without a
 * partner must be cancelled and every desired level without one must be placed, in any solution, so
 * `cancels + places = |resting| + |desired| − 2·|matched|` is the least possible, and the greedy multiset
 * match maximises |matched|.
 */
import { type Decimal, deq } from '../core/decimal.js';

/** One desired level of a side. */
export interface LadderLevel {
  direction: 'BUY' | 'SELL';
  rate: Decimal;
  quantity: Decimal;
}

/** A resting (or about to rest) order of the ladder's key; `quantity` is what still rests. */
export interface RestingQuote<T = unknown> extends LadderLevel {
  /** The caller's handle (its in-flight order). */
  ref: T;
}

/** What to do: `cancel` and `place` are the difference; `keep` rests on unchanged. */
export interface LadderDiff<T = unknown> {
  keep: RestingQuote<T>[];
  cancel: RestingQuote<T>[];
  place: LadderLevel[];
}

const levelKey = (l: LadderLevel): string => `${l.direction}|${l.rate.toFixed()}|${l.quantity.toFixed()}`;

/**
 * Reconcile resting quotes with a desired ladder (both sides at once).
 *
 * @example
 * diffLadder(
 *   [{ direction: 'BUY', rate: dec('99'), quantity: dec('1'), ref: a }, { direction: 'BUY', rate: dec('98'), quantity: dec('1'), ref: b }],
 *   [{ direction: 'BUY', rate: dec('99'), quantity: dec('1') }, { direction: 'BUY', rate: dec('97'), quantity: dec('1') }],
 * ); // keep a, cancel b, place 97
 */
export function diffLadder<T>(resting: readonly RestingQuote<T>[], desired: readonly LadderLevel[]): LadderDiff<T> {
  return resting.length * desired.length <= SMALL ? diffSmall(resting, desired) : diffLadderByKey(resting, desired);
}

/** Up to this many (resting, desired) pairs, comparing them directly beats writing a text key per level. */
const SMALL = 64;

/** Equal as the level keys compare them: by value (the text of a decimal is its value), NaN equal to NaN. */
function sameValue(a: Decimal, b: Decimal): boolean {
  return a === b || deq(a, b) || (a.isNaN() && b.isNaN());
}

/**
 * {@link diffLadderByKey} for a small ladder: each desired level, in order, takes the first resting order (in
 * order) of equal side, rate and quantity not taken yet — the match the keyed lists make, without the keys.
 */
function diffSmall<T>(resting: readonly RestingQuote<T>[], desired: readonly LadderLevel[]): LadderDiff<T> {
  const taken: boolean[] = new Array<boolean>(resting.length).fill(false);
  const keep: RestingQuote<T>[] = [];
  const place: LadderLevel[] = [];
  for (const d of desired) {
    let found = -1;
    for (let i = 0; i < resting.length; i++) {
      const r = resting[i]!;
      if (!taken[i] && r.direction === d.direction && sameValue(r.rate, d.rate) && sameValue(r.quantity, d.quantity)) {
        found = i;
        break;
      }
    }
    if (found < 0) place.push(d);
    else {
      taken[found] = true;
      keep.push(resting[found]!);
    }
  }
  // The resting orders not taken, in order: the cancels a set of the kept ones would filter out, without the set.
  const cancel: RestingQuote<T>[] = [];
  for (let i = 0; i < resting.length; i++) if (!taken[i]) cancel.push(resting[i]!);
  return { keep, cancel, place };
}

/** {@link diffLadder} through a text key per level: for any size of ladder. */
export function diffLadderByKey<T>(resting: readonly RestingQuote<T>[], desired: readonly LadderLevel[]): LadderDiff<T> {
  const available = new Map<string, RestingQuote<T>[]>();
  for (const r of resting) {
    const k = levelKey(r);
    const list = available.get(k);
    if (list) list.push(r);
    else available.set(k, [r]);
  }
  const keep: RestingQuote<T>[] = [];
  const place: LadderLevel[] = [];
  for (const d of desired) {
    const match = available.get(levelKey(d))?.shift();
    if (match) keep.push(match);
    else place.push(d);
  }
  const kept = new Set(keep);
  const cancel = resting.filter((r) => !kept.has(r));
  return { keep, cancel, place };
}
