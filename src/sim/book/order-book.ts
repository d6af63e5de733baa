/**
 * The order book of one market: bids and asks with price-time priority, the index of resting orders for O(1)
 * cancels, matching plans against the opposite side, snapshots at any depth and per-depth deltas.
 *
 * The book knows nothing about accounts' money or order records; the trading layer decides what rests and what
 * fills and calls {@link OrderBook.add}, {@link OrderBook.fill} and {@link OrderBook.remove}. After each operation
 * it calls {@link OrderBook.flushDeltas} once to learn what each depth's subscribers must be told.
 *
 * @example
 * const book = new OrderBook('BTC-USD');
 * book.add('o1', 'acct-a', 'SELL', dec('30000'), dec('0.5'));
 * const plan = book.plan({ accountId: 'acct-b', direction: 'BUY', quantity: dec('0.2'), takerFee: dec('0.0035') });
 * for (const f of plan.fills) book.fill(f.maker, f.quantity);
 * book.flushDeltas(); // [{ depth: 1, askDeltas: [{ rate: 30000, quantity: 0.3 }], ... }, ...]
 */
import type { Decimal } from '../../core/decimal.js';
import type { OrderDirection } from '../../model/enums.js';
import type { OrderBook as OrderBookView } from '../../model/market.js';
import { BookSide } from './book-side.js';
import { type BookDepth, type DepthDelta, DepthViews, sideView } from './depth-views.js';
import { type MatchPlan, type TakerOrder, planMatch } from './matcher.js';
import { type RestingOrder, restingOrder } from './price-level.js';

/** Bids and asks of one market. */
export class OrderBook {
  readonly marketSymbol: string;
  readonly bids = new BookSide('bid');
  readonly asks = new BookSide('ask');
  readonly #views: DepthViews;
  readonly #resting = new Map<string, { entry: RestingOrder; side: BookSide }>();

  constructor(marketSymbol: string) {
    this.marketSymbol = marketSymbol;
    this.#views = new DepthViews(this.bids, this.asks);
  }

  /** Number of resting orders. */
  get restingCount(): number {
    return this.#resting.size;
  }

  /** The side an order of `direction` rests on (bids for BUY). */
  sideOf(direction: OrderDirection): BookSide {
    return direction === 'BUY' ? this.bids : this.asks;
  }

  /** The side an order of `direction` takes from (asks for BUY). */
  oppositeOf(direction: OrderDirection): BookSide {
    return direction === 'BUY' ? this.asks : this.bids;
  }

  /** Best bid rate, if any. */
  bestBid(): Decimal | undefined {
    return this.bids.best()?.rate;
  }

  /** Best ask rate, if any. */
  bestAsk(): Decimal | undefined {
    return this.asks.best()?.rate;
  }

  /** Plan the fills of an incoming order (nothing changes). */
  plan(taker: TakerOrder): MatchPlan {
    return planMatch(this.oppositeOf(taker.direction), taker);
  }

  /** True when a limit order of `direction` at `rate` would trade immediately (what POST_ONLY refuses). */
  wouldCross(direction: OrderDirection, rate: Decimal): boolean {
    return this.oppositeOf(direction).crosses(rate);
  }

  /** Rest an order at the back of its rate's queue. */
  add(orderId: string, accountId: string, direction: OrderDirection, rate: Decimal, quantity: Decimal): RestingOrder {
    if (this.#resting.has(orderId)) throw new Error(`book: order ${orderId} already rests on ${this.marketSymbol}`);
    const entry = restingOrder(orderId, accountId, rate, quantity);
    const side = this.sideOf(direction);
    side.add(entry);
    this.#resting.set(orderId, { entry, side });
    return entry;
  }

  /** The resting entry of an order, if it rests here. */
  resting(orderId: string): RestingOrder | undefined {
    return this.#resting.get(orderId)?.entry;
  }

  /** Fill `quantity` of a resting order; it leaves the book when nothing remains. */
  fill(entry: RestingOrder, quantity: Decimal): void {
    const r = this.#resting.get(entry.orderId);
    if (!r || r.entry !== entry) throw new Error(`book: order ${entry.orderId} does not rest on ${this.marketSymbol}`);
    r.side.fill(entry, quantity);
    if (entry.level === undefined) this.#resting.delete(entry.orderId);
  }

  /** Take an order off the book (cancel). Returns its entry, or undefined when it was not resting. */
  remove(orderId: string): RestingOrder | undefined {
    const r = this.#resting.get(orderId);
    if (!r) return undefined;
    r.side.remove(r.entry);
    this.#resting.delete(orderId);
    return r.entry;
  }

  /** The aggregated book at `depth` levels per side, best first. */
  snapshot(depth: number): OrderBookView {
    return { bid: sideView(this.bids, depth), ask: sideView(this.asks, depth) };
  }

  /** Deltas of every depth whose view changed since the previous call. */
  flushDeltas(): DepthDelta[] {
    return this.#views.flush();
  }

  /** The depths whose view changed since the previous call, without their entries (see {@link DepthViews.flushChangedDepths}). */
  flushChangedDepths(): BookDepth[] {
    return this.#views.flushChangedDepths();
  }
}
