/**
 * The recorded-liquidity account of the backtest venue: the participant that stands for the recording's side of
 * every trade we make, so the simulator engine settles our orders (fees, precision, minTradeSize, dust) exactly as
 * it settles any other (see backtest-venue.ts's module note).
 * - A marketable order of ours: {@link RecordedLiquidity.offer} places the recorded opposite levels it can reach,
 *   less what we consumed, as resting orders for the moment of the placement; {@link RecordedLiquidity.withdraw}
 *   then cancels what is left of them and marks what our order took as consumed.
 * - A resting order of ours that the recording fills: {@link RecordedLiquidity.execute} sends an
 *   IMMEDIATE_OR_CANCEL order at our price for the decided quantity, which the engine matches against ours.
 */
import { type Decimal, dgt, dlte, ZERO } from '../../src/core/decimal.js';
import { orderingKey } from '../../src/store/order-book.js';
import type { NewOrder } from '../../src/model/order.js';
import type { SimEngine } from '../../src/sim/engine.js';
import type { BookSide, RecordedSide } from './recorded-book.js';
import type { FillDecision, RestingQueues } from './resting-queues.js';
import type { VenueStats } from './venue-stats.js';

/** Funds enough to stand for any recorded liquidity (it never runs out: the recording is the market). */
const BIG: Decimal = ZERO.plus('1e15');

/** A recorded level offered to one placement: the liquidity order's id and the level's key. */
export interface Offered {
  id: string;
  key: number;
}

/** The account and the three ways it trades with ours. */
export class RecordedLiquidity {
  readonly #engine: SimEngine;
  /** Our account: the one whose resting orders {@link execute} fills. */
  readonly #ours: string;
  readonly #stats: VenueStats;
  /** The liquidity account's id. */
  readonly id: string;

  constructor(engine: SimEngine, ours: string, markets: readonly string[], stats: VenueStats) {
    this.#engine = engine;
    this.#ours = ours;
    this.#stats = stats;
    const funding: Record<string, Decimal> = {};
    for (const m of markets) {
      const market = engine.catalog.market(m);
      funding[market.baseCurrencySymbol] = BIG;
      funding[market.quoteCurrencySymbol] = BIG;
    }
    this.id = engine.createParticipant(funding);
  }

  /**
   * Place, for the moment of one placement, the recorded opposite levels `n` can reach (less what we consumed) as
   * resting orders of the liquidity account; enough of them to fill `n` whole. `barClose` set: the market trades
   * on bars (no book), and the whole order is offered at that close.
   */
  offer(symbol: string, book: RecordedSide, side: BookSide, n: NewOrder, barClose: Decimal | undefined): Offered[] {
    const placed: Offered[] = [];
    if (n.timeInForce === 'POST_ONLY_GOOD_TIL_CANCELLED' && n.limit === undefined) return placed;
    if (barClose !== undefined) return this.#offerBar(symbol, side, barClose, n);
    const limit = n.limit === undefined ? undefined : orderingKey(n.limit);
    let quantity = ZERO;
    let quote = ZERO;
    const direction = side === 'ask' ? 'SELL' : 'BUY';
    for (const l of book.levels()) {
      if (limit !== undefined && book.better(limit, l.key)) break;
      const available = l.quantity.minus(l.consumed);
      if (dlte(available, ZERO)) continue;
      const o = this.#engine.placeOrder(
        this.id,
        { marketSymbol: symbol, direction, type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: available, limit: l.rate },
        { recordedLiquidity: true },
      );
      this.#stats.liquidityOrders++;
      placed.push({ id: o.id, key: l.key });
      quantity = quantity.plus(available);
      quote = quote.plus(available.mul(l.rate));
      if (n.quantity !== undefined ? quantity.gte(n.quantity) : n.ceiling !== undefined && quote.gte(n.ceiling)) break;
    }
    return placed;
  }

  /** Bar mode: the whole order offered at the last close, if it is marketable there (bars carry no depth). */
  #offerBar(symbol: string, side: BookSide, close: Decimal, n: NewOrder): Offered[] {
    if (n.limit !== undefined && (side === 'ask' ? n.limit.lt(close) : n.limit.gt(close))) return [];
    const quantity = n.quantity ?? n.ceiling!.div(close).mul('1.01').toDecimalPlaces(8, 0);
    const o = this.#engine.placeOrder(
      this.id,
      { marketSymbol: symbol, direction: side === 'ask' ? 'SELL' : 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity, limit: close },
      { recordedLiquidity: true },
    );
    this.#stats.liquidityOrders++;
    return [{ id: o.id, key: orderingKey(close) }];
  }

  /** Take back what our order left of the offered liquidity, and mark what it took as consumed. */
  withdraw(placed: readonly Offered[], book: RecordedSide): void {
    for (const p of placed) {
      let o = this.#engine.getOrder(this.id, p.id);
      if (o.status === 'OPEN') o = this.#engine.cancelOrder(this.id, p.id);
      const level = book.get(p.key);
      if (level && dgt(o.fillQuantity, ZERO)) level.consumed = level.consumed.plus(o.fillQuantity);
    }
  }

  /** Execute decided fills of our resting orders in `queues`: the liquidity account takes them at our price. */
  execute(symbol: string, queues: RestingQueues, decisions: readonly FillDecision[]): void {
    if (decisions.length === 0) return;
    for (const d of decisions) {
      const before = this.#engine.getOrder(this.#ours, d.order.id);
      if (before.status !== 'OPEN') {
        queues.remove(d.order.id);
        continue;
      }
      const remaining = before.quantity!.minus(before.fillQuantity);
      const quantity = d.quantity.gt(remaining) ? remaining : d.quantity;
      this.#engine.placeOrder(
        this.id,
        {
          marketSymbol: symbol,
          direction: d.order.side === 'bid' ? 'SELL' : 'BUY',
          type: 'LIMIT',
          timeInForce: 'IMMEDIATE_OR_CANCEL',
          quantity,
          limit: d.order.rate,
        },
        { recordedLiquidity: true },
      );
      this.#stats.makerFills++;
      const after = this.#engine.getOrder(this.#ours, d.order.id);
      if (!after.fillQuantity.minus(before.fillQuantity).eq(quantity)) this.#stats.mismatches++;
      if (after.status === 'OPEN') d.order.remaining = after.quantity!.minus(after.fillQuantity);
      else queues.remove(d.order.id);
    }
  }
}
