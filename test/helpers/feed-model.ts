/**
 * A subscriber's model of the backtest feed's order-book messages, for the feed tests (feed-view, feed-ours): the
 * messages as comparable text, a side's copy after applying deltas, and the expected top levels from scratch.
 */
import { type Decimal, ZERO } from '../../src/core/decimal.js';
import type { OrderBookMessage } from '../../src/bittrex/hub/messages.js';
import type { BookSide, RecordedBook } from '../../backtest/venue/recorded-book.js';

/** Messages as comparable text. */
export const messagesText = (ms: readonly OrderBookMessage[]): string[] =>
  ms.map((m) => `${m.depth}#${m.sequence} bid[${m.bidDeltas.map((e) => `${e.rate}:${e.quantity}`).join(' ')}] ask[${m.askDeltas.map((e) => `${e.rate}:${e.quantity}`).join(' ')}]`);

/** What a subscriber's copy of one side holds after the deltas (rate -> quantity). */
export function applyTo(model: Map<string, string>, deltas: OrderBookMessage['bidDeltas']): void {
  for (const e of deltas) {
    if (e.quantity.isZero()) model.delete(e.rate.toString());
    else model.set(e.rate.toString(), e.quantity.toString());
  }
}

/**
 * The recorded top `depth` of a side plus our quantities, from scratch (rate -> quantity), for each of `depths`:
 * the side is merged and sorted once for all of them (the feed tests check three depths a side at every step).
 */
export function expectedTops(book: RecordedBook, ours: Map<string, Decimal>, side: BookSide, depths: readonly number[]): Map<number, Map<string, string>> {
  const all = new Map<string, Decimal>();
  for (const l of book.side(side).levels()) all.set(l.rate.toString(), l.quantity);
  for (const [rate, q] of ours) all.set(rate, (all.get(rate) ?? ZERO).plus(q));
  const sign = side === 'bid' ? -1 : 1;
  const sorted = [...all].map(([r, q]) => ({ key: sign * Number(r), r, q })).sort((a, b) => a.key - b.key);
  return new Map(depths.map((depth) => [depth, new Map(sorted.slice(0, depth).map(({ r, q }) => [r, q.toString()]))]));
}
