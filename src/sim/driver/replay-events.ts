/**
 * What a recorded capture turns into: a time-ordered list of market events, each stamped with the time it was
 * received (`at`, epoch ms) and the line it came from. Readers produce them; the timeline orders and
 * synchronizes them; the replay driver applies them to the engine.
 */
import type { OrderBookEntry, Ticker, Trade } from '../../model/market.js';
import type { LineRef, ReplayFormatError } from './replay-error.js';

/** A REST order-book snapshot with the `Sequence` header it came with. */
export interface ReplaySnapshot {
  kind: 'snapshot';
  at: number;
  marketSymbol: string;
  sequence: number;
  /** The depth asked for (`?depth=N`), when the source says it; the matching `orderBook` stream has this depth. */
  depth?: number;
  /** Best (highest) first. */
  bid: OrderBookEntry[];
  /** Best (lowest) first. */
  ask: OrderBookEntry[];
  source: LineRef;
}

/** An `orderBook` stream message: new quantities at some rates (0 removes the level). */
export interface ReplayOrderBookDelta {
  kind: 'orderBookDelta';
  at: number;
  marketSymbol: string;
  depth: number;
  sequence: number;
  bidDeltas: OrderBookEntry[];
  askDeltas: OrderBookEntry[];
  source: LineRef;
}

/** A `ticker` stream message. */
export interface ReplayTicker {
  kind: 'ticker';
  at: number;
  marketSymbol: string;
  ticker: Ticker;
  source: LineRef;
}

/** A `trade` stream message: trades of one market. */
export interface ReplayTrade {
  kind: 'trade';
  at: number;
  marketSymbol: string;
  sequence: number;
  trades: Trade[];
  source: LineRef;
}

/** One recorded market event. */
export type ReplayEvent = ReplaySnapshot | ReplayOrderBookDelta | ReplayTicker | ReplayTrade;

/** What a reader returns: the events in file order, the bad lines it skipped, and what it ignored by kind. */
export interface ReaderResult {
  events: ReplayEvent[];
  /** Bad lines skipped (only with `onBadLine: 'skip'`). */
  errors: ReplayFormatError[];
  /** Well-formed content the replay has no use for (connect lines, sent frames, candles, ...), counted by kind. */
  ignored: Record<string, number>;
}

/** Convert a recorded `<seconds>.<fraction>` timestamp to epoch milliseconds (rounded). */
export function recordedSecondsToMs(text: string): number | undefined {
  if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
  const [whole, frac = ''] = text.split('.') as [string, string?];
  // Integer arithmetic on the digits, so no float rounding moves an event across a millisecond.
  const ms = Number(whole) * 1000 + Number((frac + '000').slice(0, 3));
  const rest = frac.slice(3);
  return rest.length > 0 && Number(rest[0]) >= 5 ? ms + 1 : ms;
}
