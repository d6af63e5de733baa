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

export /** The venue's counters; the book-stream ones are read from its {@link BookSequences}. */
function venueStats(seq: BookSequences): VenueStats {
  return {
    events: 0,
    unknownMarket: 0,
    liquidityOrders: 0,
    makerFills: 0,
    mismatches: 0,
    get deltasBeforeSnapshot() {
      return seq.leftOut;
    },
    get earlyDeltas() {
      return seq.playedLate;
    },
    get sequenceGaps() {
      return seq.gaps;
    },
  };
}
