/**
 * Our resting orders in the recorded queues of one market, and when the recording says they fill. Decisions only:
 * the venue executes each one through the simulator engine (see backtest-venue.ts), which settles it.
 *
 * Rules (the report lists them as assumptions):
 * - An order that comes to rest joins the queue behind the recorded quantity at its price at that moment (minus
 *   what our own orders consumed there); our orders at one price share one queue, first come first served.
 * - A recorded trade at our price, taker on the other side, eats the queue in order: the recorded quantity ahead
 *   of our first order, then that order, then what is recorded between it and our next order, and so on. A trade
 *   is used once: two of our orders never fill from the same traded quantity.
 * - A trade at a worse price than ours (a trade through our price) fills our orders at that price fully.
 * - A recorded decrease of our level is first explained by the trades just seen at that price; what no trade
 *   explains is a cancellation, split between ahead of and behind each of our orders by the queue model.
 *   Increases join behind us. The quantity ahead never exceeds the level.
 * - Recordings do not order a trade and the book change it causes reliably. A trade at our price that arrives
 *   within {@link EXPLAIN_WINDOW_MS} after a decrease taken for a cancellation explains that decrease instead: the
 *   cancellation's effect on our place is undone (for the matched quantity) before the trade eats the queue, so
 *   the same quantity never moves us up twice, whichever of the two the recording shows first.
 * - The recorded opposite side crossing our price (offering liquidity at or through it that we have not
 *   consumed) fills us fully at our price, consuming that liquidity.
 */
import { type Decimal, dgt, dlte, ZERO } from '../../src/core/decimal.js';
import { orderingKey } from '../../src/store/order-book.js';
import type { Trade } from '../../src/model/market.js';
import type { QueueModel } from './queue-model.js';
import type { BookSide, LevelChange, LevelWatch, RecordedBook } from './recorded-book.js';

/** How long after a decrease of our level a trade at that price may still explain it, ms of recorded time. */
export const EXPLAIN_WINDOW_MS = 100;

/** One of our resting orders as the queue model sees it. */
export interface QueuedOrder {
  readonly id: string;
  readonly side: BookSide;
  readonly rate: Decimal;
  readonly key: number;
  /** What is left to fill, as the model expects it (the venue corrects it from the engine after each fill). */
  remaining: Decimal;
  /** Recorded quantity ahead of this order. */
  ahead: Decimal;
  /** What the last cancellation at this level moved it up by (undone if a trade turns out to explain it). */
  lastMovedUp?: Decimal | undefined;
}

/** Why an order fills. */
export type FillReason = 'queue' | 'trade-through' | 'cross' | 'bar';

/** One fill the recording implies. */
export interface FillDecision {
  order: QueuedOrder;
  quantity: Decimal;
  reason: FillReason;
}

interface OurLevel {
  side: BookSide;
  key: number;
  orders: QueuedOrder[];
  /** Traded quantity at this price not yet matched by a recorded decrease of the level. */
  explained: Decimal;
  /** The last decrease taken for a cancellation, not yet explained by a trade, and when it was seen. */
  cancelled: Decimal;
  cancelledAt: number;
}

/** Counters of the queue model's work, for the report and tests. */
export interface QueueStats {
  queueFills: number;
  tradeThroughFills: number;
  crossFills: number;
  /** Unexplained decreases at our levels (cancellations) processed. */
  cancellations: number;
}

/** Both sides, in the order {@link RestingQueues.crossings} visits them (one list, not a literal per call). */
const SIDES: readonly BookSide[] = ['bid', 'ask'];

/** Our resting orders of one market in the recorded queues. */
export class RestingQueues implements LevelWatch {
  readonly #book: RecordedBook;
  readonly #model: QueueModel;
  readonly #levels = { bid: new Map<number, OurLevel>(), ask: new Map<number, OurLevel>() };
  readonly #byId = new Map<string, QueuedOrder>();
  readonly stats: QueueStats = { queueFills: 0, tradeThroughFills: 0, crossFills: 0, cancellations: 0 };

  constructor(book: RecordedBook, model: QueueModel) {
    this.#book = book;
    this.#model = model;
  }

  get size(): number {
    return this.#byId.size;
  }

  get(id: string): QueuedOrder | undefined {
    return this.#byId.get(id);
  }

  /** Whether one of our orders rests at this level (only those levels' changes move a queue). */
  watches(side: BookSide, key: number): boolean {
    return this.#levels[side].has(key);
  }

  /** An order comes to rest: behind what is recorded (and not consumed by us) at its price now. */
  add(id: string, side: BookSide, rate: Decimal, remaining: Decimal): QueuedOrder {
    const key = orderingKey(rate);
    const recorded = this.#book.side(side).get(key);
    const ahead = recorded ? recorded.quantity.minus(recorded.consumed) : ZERO;
    const order: QueuedOrder = { id, side, rate, key, remaining, ahead };
    let level = this.#levels[side].get(key);
    if (!level) this.#levels[side].set(key, (level = { side, key, orders: [], explained: ZERO, cancelled: ZERO, cancelledAt: 0 }));
    level.orders.push(order);
    this.#byId.set(id, order);
    return order;
  }

  /** Every order, oldest first per level. */
  *orders(): IterableIterator<QueuedOrder> {
    yield* this.#byId.values();
  }

  /** The order left the book (filled, cancelled). */
  remove(id: string): void {
    const o = this.#byId.get(id);
    if (!o) return;
    this.#byId.delete(id);
    const level = this.#levels[o.side].get(o.key)!;
    level.orders.splice(level.orders.indexOf(o), 1);
    if (level.orders.length === 0) this.#levels[o.side].delete(o.key);
  }

  /** Recorded trades of this market, in order, seen at `at`: the fills they imply. */
  onTrades(trades: readonly Trade[], at = 0): FillDecision[] {
    const out: FillDecision[] = [];
    for (const t of trades) {
      // A SELL taker hits bids; a BUY taker lifts asks.
      const side: BookSide = t.takerSide === 'SELL' ? 'bid' : 'ask';
      const levels = this.#levels[side];
      if (levels.size === 0) continue;
      const key = orderingKey(t.rate);
      const bookSide = this.#book.side(side);
      for (const level of [...levels.values()]) {
        if (bookSide.better(level.key, key)) {
          // Traded at a worse price than ours: everything at our price went first.
          for (const o of level.orders) this.#decide(out, o, o.remaining, 'trade-through');
        } else if (level.key === key) {
          // A cancellation seen just before, which this trade explains: undo its effect on our place first.
          let unexplained = t.quantity;
          if (dgt(level.cancelled, ZERO) && at - level.cancelledAt <= EXPLAIN_WINDOW_MS) {
            const matched = level.cancelled.lt(t.quantity) ? level.cancelled : t.quantity;
            for (const o of level.orders) {
              if (!o.lastMovedUp || o.lastMovedUp.isZero()) continue;
              const back = o.lastMovedUp.mul(matched).div(level.cancelled).toDecimalPlaces(8);
              o.ahead = o.ahead.plus(back);
              o.lastMovedUp = o.lastMovedUp.minus(back);
            }
            level.cancelled = level.cancelled.minus(matched);
            unexplained = t.quantity.minus(matched);
          }
          level.explained = level.explained.plus(unexplained);
          this.#eat(level, t.quantity, out);
        }
      }
    }
    return this.#settle(out);
  }

  /** Recorded level changes (deltas or a snapshot) seen at `at`: queue updates, then the fills of a crossed book. */
  onLevelChanges(changes: readonly LevelChange[], at = 0): FillDecision[] {
    for (const c of changes) {
      const level = this.#levels[c.side].get(c.key);
      if (!level) continue;
      const decrease = c.before.minus(c.after);
      if (dgt(decrease, ZERO)) {
        const explained = level.explained.lt(decrease) ? level.explained : decrease;
        level.explained = level.explained.minus(explained);
        const unexplained = decrease.minus(explained);
        if (dgt(unexplained, ZERO)) {
          this.stats.cancellations++;
          level.cancelled = unexplained;
          level.cancelledAt = at;
          for (const o of level.orders) {
            const behind = c.before.gt(o.ahead) ? c.before.minus(o.ahead) : ZERO;
            const up = this.#model.aheadShare(o.ahead, behind, unexplained);
            o.ahead = o.ahead.minus(up);
            o.lastMovedUp = up;
          }
        }
      }
      for (const o of level.orders) if (o.ahead.gt(c.after)) o.ahead = c.after;
    }
    return this.crossings();
  }

  /** Our orders that the recorded opposite side reaches with liquidity we have not consumed: filled fully. */
  crossings(): FillDecision[] {
    const out: FillDecision[] = [];
    for (const side of SIDES) {
      const levels = this.#levels[side];
      if (levels.size === 0) continue;
      const opposite = this.#book.side(side === 'bid' ? 'ask' : 'bid');
      for (const level of levels.values()) {
        for (const o of level.orders) {
          let need = o.remaining;
          let crossed = false;
          // By rank rather than through levels() (a generator per order per event); the walk changes no rank.
          for (let r = 0; r < opposite.size; r++) {
            const l = opposite.atRank(r)!;
            // An opposite level at our price or better for us (asks at or below our bid).
            if (opposite.better(o.key, l.key)) break;
            const available = l.quantity.minus(l.consumed);
            if (dlte(available, ZERO)) continue;
            crossed = true;
            const take = available.lt(need) ? available : need;
            l.consumed = l.consumed.plus(take);
            need = need.minus(take);
            if (need.isZero()) break;
          }
          if (crossed) this.#decide(out, o, o.remaining, 'cross');
        }
      }
    }
    return this.#settle(out);
  }

  /** `quantity` of a trade at this level: ahead first, then our orders in turn, each used once. */
  #eat(level: OurLevel, quantity: Decimal, out: FillDecision[]): void {
    let left = quantity;
    let eatenAhead = ZERO;
    for (const o of level.orders) {
      if (left.isZero()) break;
      // Recorded quantity between the previous point reached and this order.
      const gap = o.ahead.minus(eatenAhead);
      if (dgt(gap, ZERO)) {
        const eat = gap.lt(left) ? gap : left;
        eatenAhead = eatenAhead.plus(eat);
        left = left.minus(eat);
      }
      if (left.isZero() || o.remaining.isZero()) continue;
      const fill = o.remaining.lt(left) ? o.remaining : left;
      left = left.minus(fill);
      this.#decide(out, o, fill, 'queue');
    }
    for (const o of level.orders) o.ahead = o.ahead.gt(eatenAhead) ? o.ahead.minus(eatenAhead) : ZERO;
  }

  #decide(out: FillDecision[], order: QueuedOrder, quantity: Decimal, reason: FillReason): void {
    if (dlte(quantity, ZERO) || order.remaining.isZero()) return;
    order.remaining = order.remaining.minus(quantity);
    out.push({ order, quantity, reason });
    if (reason === 'queue') this.stats.queueFills++;
    else if (reason === 'trade-through') this.stats.tradeThroughFills++;
    else this.stats.crossFills++;
  }

  /**
   * Decisions in the order the engine will take them: per side, best price first (a counterparty at a price
   * takes our better-priced orders first), then queue order.
   */
  #settle(out: FillDecision[]): FillDecision[] {
    if (out.length < 2) return out;
    return out
      .map((d, i) => ({ d, i }))
      .sort((a, b) => {
        if (a.d.order.side !== b.d.order.side) return a.i - b.i;
        if (a.d.order.key !== b.d.order.key) return this.#book.side(a.d.order.side).better(a.d.order.key, b.d.order.key) ? -1 : 1;
        return a.i - b.i;
      })
      .map((x) => x.d);
  }
}
