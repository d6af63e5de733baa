/**
 * Which result shapes the simulator's v1.1 answers take where the service and its document disagree.
 *
 * WIRE: the seed and the official v1.1 document declare getticker, getorder and getdepositaddress as arrays and
 * getorderbook as an array holding one `{buy, sell}` of `{quantity, rate}`. The service answered differently,
 * and the clients of the time were written against the service:
 * - getticker → one object `{Bid, Ask, Last}` (bots read `result.Last`);
 * - getorder → one object (bittrex-node's `order()` passes `[result]` to its date parser and returns item 0);
 * - getdepositaddress → one object `{Currency, Address}`;
 * - getorderbook → `{buy, sell}` for type=both and a bare array for buy or sell, levels spelled `{Quantity, Rate}`
 *   (ccxt's v1.1 parser: `parseOrderBook(…, 'buy', 'sell', 'Rate', 'Quantity')`, wrapping a single side itself).
 * The issue says to do what the original did where clients and the document disagree, so `service` is the
 * default; `document` answers exactly the declared shapes. rexbot's own client reads both.
 */
import type { V1OrderBook } from '../../wire/v1/rest-types.js';

/** `service` (default): what the service answered; `document`: what the seed and official document declare. */
export type V1ResultShapes = 'service' | 'document';

/** A single result: the object itself (service) or an array holding it (document). */
export function single<T>(shapes: V1ResultShapes, value: T): T | T[] {
  return shapes === 'document' ? [value] : value;
}

/** The getorderbook result for `type` in the chosen shapes. */
export function bookResult(shapes: V1ResultShapes, book: V1OrderBook, type: 'buy' | 'sell' | 'both'): unknown {
  if (shapes === 'document') return [book];
  const side = (levels: V1OrderBook['buy']) => levels.map((l) => ({ Quantity: l.quantity, Rate: l.rate }));
  if (type === 'buy') return side(book.buy);
  if (type === 'sell') return side(book.sell);
  return { buy: side(book.buy), sell: side(book.sell) };
}
