/**
 * The recorded stream's own rule 4, per market, as the simulator's replay applies it to the same recording
 * (src/sim/driver/replay-timeline.ts), so a backtest and a bot watching the replayed simulator see the same books:
 *
 * - a sequenced delta (sequence > 0) received before the market's first snapshot waits; when the snapshot comes,
 *   the waiting deltas it already contains (`sequence <= snapshot.sequence`) are left out and the newer ones are
 *   played right after it, in sequence order (a capture subscribes to the stream before it fetches the snapshot,
 *   so both kinds occur);
 * - after that, a delta at or below the last applied sequence is stale and left out; a jump is counted as a gap
 *   but applied (recorded data cannot be re-fetched; a later snapshot repairs the book);
 * - unsequenced deltas (0) always apply.
 *
 * Unlike the simulator, which loads a capture whole, a backtest streams: at most {@link EARLY_LIMIT} deltas wait
 * per market (the oldest go first, counted as left out), so a market whose snapshot never comes cannot hold
 * memory without bound.
 */
import type { ReplayOrderBookDelta, ReplaySnapshot } from '../../src/sim/driver/replay-events.js';

/** Deltas that may wait for their market's first snapshot, per market. */
export const EARLY_LIMIT = 100_000;

/** What {@link BookSequences.accept} says about one book event. */
export type SequenceVerdict = 'apply' | 'stale' | 'early';

/** Per-market sequence state of a recorded book stream (see the module note). */
export class BookSequences {
  /** The last applied sequence per market that had its snapshot: a box changed in place (one lookup per delta). */
  readonly #seq = new Map<string, { last: number }>();
  /** The market of the last delta accepted, and its box (boxes are never replaced): most deltas are of one market. */
  #lastMarket = '';
  #lastBox: { last: number } | undefined;
  readonly #early = new Map<string, ReplayOrderBookDelta[]>();
  readonly #released: ReplayOrderBookDelta[] = [];
  /** Deltas left out so far, including those still waiting for a snapshot (released ones are taken back off). */
  leftOut = 0;
  /** Deltas that arrived before their market's first snapshot and were played right after it. */
  playedLate = 0;
  /** Accepted deltas that skipped ahead of the one before (the recording missed messages). */
  gaps = 0;

  /**
   * `apply`; `stale` for a delta contained in the book already; `early` for a sequenced delta before the market's
   * first snapshot (kept: {@link release} hands it back after the snapshot if the snapshot does not contain it).
   */
  accept(e: ReplaySnapshot | ReplayOrderBookDelta): SequenceVerdict {
    if (e.kind === 'snapshot') {
      this.#snapshot(e.marketSymbol, e.sequence);
      return 'apply';
    }
    if (e.sequence <= 0) return 'apply';
    let box = this.#lastBox;
    if (box === undefined || e.marketSymbol !== this.#lastMarket) {
      box = this.#seq.get(e.marketSymbol);
      if (box === undefined) {
        this.#wait(e);
        return 'early';
      }
      this.#lastMarket = e.marketSymbol;
      this.#lastBox = box;
    }
    const seq = box.last;
    if (e.sequence <= seq) {
      this.leftOut++;
      return 'stale';
    }
    if (seq > 0 && e.sequence > seq + 1) this.gaps++;
    box.last = e.sequence;
    return 'apply';
  }

  /** The waiting deltas the last snapshot released, in sequence order; the list is emptied. */
  release(): ReplayOrderBookDelta[] {
    return this.#released.splice(0);
  }

  #wait(d: ReplayOrderBookDelta): void {
    let list = this.#early.get(d.marketSymbol);
    if (!list) this.#early.set(d.marketSymbol, (list = []));
    if (list.length >= EARLY_LIMIT) list.shift(); // the oldest is the likeliest to be in the snapshot anyway
    this.leftOut++;
    list.push(d);
  }

  #snapshot(market: string, sequence: number): void {
    let box = this.#seq.get(market);
    if (box === undefined) this.#seq.set(market, (box = { last: sequence }));
    else box.last = sequence;
    const waiting = this.#early.get(market);
    if (!waiting) return;
    this.#early.delete(market);
    let last = sequence;
    for (const d of waiting.sort((a, b) => a.sequence - b.sequence)) {
      if (d.sequence <= last) continue; // contained in the snapshot (or a duplicate): stays left out
      if (last > 0 && d.sequence > last + 1) this.gaps++;
      last = d.sequence;
      this.leftOut--;
      this.playedLate++;
      this.#released.push(d);
    }
    box.last = last;
  }
}
