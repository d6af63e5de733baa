/**
 * Turns the events of one or more capture files into the single, time-ordered, per-market consistent list the
 * replay driver plays: seed rule 4 applied to recorded data.
 *
 * A capture starts its stream subscriptions before it fetches the REST snapshots, so some deltas are older than
 * the snapshot of their market and some newer ones arrive before it. Per market: deltas before the first
 * snapshot are buffered; at the snapshot, those with `sequence <= snapshot.sequence` are dropped (the snapshot
 * already contains them) and the rest are played right after it, in sequence order; after that a delta at or
 * below the last applied sequence is a duplicate and dropped, and a jump is counted as a gap but still applied
 * (recorded data cannot be re-fetched; the next snapshot of the market, if any, repairs the book).
 */
import type { ReplayEvent, ReplayOrderBookDelta } from './replay-events.js';

/** Options of {@link buildReplayTimeline}. */
export interface TimelineOptions {
  /** Keep only these markets (case-insensitive); all by default. */
  markets?: readonly string[];
  /** Order-book stream depth to follow (the snapshots' depth); 500 by default. Other depths are dropped. */
  depth?: number;
}

/** What the timeline dropped or noticed. */
export interface TimelineStats {
  /** Deltas already contained in their market's snapshot, or duplicates. */
  staleDeltas: number;
  /** Deltas received before their market's snapshot and played right after it. */
  earlyDeltas: number;
  /** Sequence jumps (missing deltas); the delta after the jump is still applied. */
  gaps: number;
  /** Deltas of a market that never got a snapshot (nothing to apply them to). */
  withoutSnapshot: number;
  /** Deltas of another depth than {@link TimelineOptions.depth}. */
  otherDepth: number;
}

/** The playable list. `events` is sorted by `at`; per market the book events form a consistent chain. */
export interface ReplayTimeline {
  events: ReplayEvent[];
  /** Markets with at least one snapshot, sorted. */
  markets: string[];
  /** `at` of the first and last event (both 0 when empty). */
  startAt: number;
  endAt: number;
  stats: TimelineStats;
}

interface MarketChain {
  lastSequence: number | undefined;
  early: ReplayOrderBookDelta[];
}

/**
 * Merge and synchronize reader outputs.
 *
 * @example
 * const timeline = buildReplayTimeline([http.events, ws.events], { markets: ['BTC-EUR'] });
 * timeline.events[0].kind; // 'snapshot' (earlier deltas are buffered, later ones follow it)
 */
export function buildReplayTimeline(sources: readonly ReplayEvent[][], opts: TimelineOptions = {}): ReplayTimeline {
  const depth = opts.depth ?? 500;
  const keep = opts.markets ? new Set(opts.markets.map((m) => m.toUpperCase())) : undefined;
  // Array.prototype.sort is stable: events of the same millisecond keep file order (sources in the given order).
  const merged = sources.flat().filter((e) => !keep || keep.has(e.marketSymbol.toUpperCase()));
  merged.sort((a, b) => a.at - b.at);

  const stats: TimelineStats = { staleDeltas: 0, earlyDeltas: 0, gaps: 0, withoutSnapshot: 0, otherDepth: 0 };
  const chains = new Map<string, MarketChain>();
  const chainOf = (m: string): MarketChain => {
    let c = chains.get(m);
    if (!c) chains.set(m, (c = { lastSequence: undefined, early: [] }));
    return c;
  };
  const events: ReplayEvent[] = [];

  for (const e of merged) {
    if (e.kind === 'snapshot') {
      const chain = chainOf(e.marketSymbol);
      events.push(e);
      chain.lastSequence = e.sequence;
      const early = chain.early.sort((a, b) => a.sequence - b.sequence);
      chain.early = [];
      for (const d of early) {
        if (d.sequence <= (chain.lastSequence as number)) {
          stats.staleDeltas++;
          continue;
        }
        if (d.sequence > (chain.lastSequence as number) + 1) stats.gaps++;
        stats.earlyDeltas++;
        // Played at the snapshot's time: the timeline must stay ordered, and the book cannot take it earlier.
        events.push({ ...d, at: e.at });
        chain.lastSequence = d.sequence;
      }
    } else if (e.kind === 'orderBookDelta') {
      if (e.depth !== depth) {
        stats.otherDepth++;
        continue;
      }
      const chain = chainOf(e.marketSymbol);
      if (chain.lastSequence === undefined) {
        chain.early.push(e);
        continue;
      }
      if (e.sequence <= chain.lastSequence) {
        stats.staleDeltas++;
        continue;
      }
      if (e.sequence > chain.lastSequence + 1) stats.gaps++;
      chain.lastSequence = e.sequence;
      events.push(e);
    } else {
      events.push(e);
    }
  }
  for (const c of chains.values()) stats.withoutSnapshot += c.early.length;

  const markets = [...chains.entries()].filter(([, c]) => c.lastSequence !== undefined).map(([m]) => m).sort();
  const first = events[0];
  const last = events[events.length - 1];
  return { events, markets, startAt: first ? first.at : 0, endAt: last ? last.at : 0, stats };
}
