/** What a backtest venue counts while it plays a recording (read by the report's assumptions). */
import type { BookSequences } from './book-sequences.js';

/** Counters of a venue. */
export interface VenueStats {
  events: number;
  /** Events of markets the venue does not list (left out). */
  unknownMarket: number;
  /** Recorded-liquidity orders placed for our marketable orders. */
  liquidityOrders: number;
  /** Fills the recording implied for our resting orders. */
  makerFills: number;
  /** A decided fill the engine matched to another of our orders than the model expected (should stay 0). */
  mismatches: number;
  /** Sequenced deltas left out: contained in the snapshot they came before or after, or duplicates. */
  deltasBeforeSnapshot: number;
  /** Sequenced deltas recorded before their market's first snapshot, newer than it, played right after it. */
  earlyDeltas: number;
  /** Sequenced deltas that skipped ahead of the previous one (the recording missed messages). */
  sequenceGaps: number;
}

/**
 * The venue's counters; the book-stream ones are read from its {@link BookSequences}. A class rather than an object
 * literal with getters: V8 keeps such a literal's properties in a dictionary, and `events` is counted on every
 * recorded event (a generic property lookup and store each time, seen as LoadIC/StoreIC calls in the venue's apply).
 */
class Counters implements VenueStats {
  events = 0;
  unknownMarket = 0;
  liquidityOrders = 0;
  makerFills = 0;
  mismatches = 0;
  readonly #seq: BookSequences;

  constructor(seq: BookSequences) {
    this.#seq = seq;
  }

  get deltasBeforeSnapshot(): number {
    return this.#seq.leftOut;
  }

  get earlyDeltas(): number {
    return this.#seq.playedLate;
  }

  get sequenceGaps(): number {
    return this.#seq.gaps;
  }
}

/** The venue's counters (see {@link Counters}). */
export function venueStats(seq: BookSequences): VenueStats {
  return new Counters(seq);
}
