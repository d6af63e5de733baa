/**
 * Publication of one trading operation, after all its state changes are complete (events describe state that
 * is already readable through REST). Order of publication:
 * 1. `order` events, one per changed order (final state of this operation), per-account sequence;
 * 2. `execution` events, one per account with all its new executions, per-account sequence;
 * 3. `orderBook` events, one per depth whose view changed, per-(market, depth) sequence;
 * 4. market data: best bid/ask when it moved, then the public trades (one call per taker order);
 * 5. conditional orders: the trades (trigger evaluation), then first fills of linked orders (OCO cancel);
 * 6. fill listeners (e.g. account volume).
 * Balance events are not published here: the balance feed publishes them on every ledger change.
 */
import type { Decimal } from '../core/decimal.js';
import type { Order } from '../model/order.js';
import type { OrderBook } from './book/order-book.js';
import type { SimEventBus } from './events.js';
import { type SequenceCounters, seqKey } from './sequences.js';
import type { Operation } from './trading-settle.js';
import type { OrderRecord, TradingHooks } from './trading-types.js';

/** Best rates of a book before an operation, to tell whether the top moved. */
export interface Top {
  bid: Decimal | undefined;
  ask: Decimal | undefined;
}

/** The order as clients see it: a copy, so later engine changes never alter an answer already given. */
export function orderView(rec: OrderRecord): Order {
  const o = { ...rec.order };
  if (o.orderToCancel) o.orderToCancel = { ...o.orderToCancel };
  return o;
}

/** The current best rates of `book`. */
export function topOf(book: OrderBook): Top {
  return { bid: book.bestBid(), ask: book.bestAsk() };
}

/** Publish everything `op` changed (see the module note for the order). */
export function publish(
  deps: { bus: SimEventBus; sequences: SequenceCounters; hooks: TradingHooks },
  book: OrderBook,
  op: Operation,
  before: Top,
): void {
  const { bus, sequences, hooks } = deps;
  for (const rec of op.touched.values()) {
    bus.emit({
      kind: 'order',
      accountId: rec.accountId,
      sequence: sequences.next(seqKey.account('order', rec.accountId)),
      delta: orderView(rec),
    });
  }
  for (const [accountId, deltas] of op.executions) {
    bus.emit({ kind: 'execution', accountId, sequence: sequences.next(seqKey.account('execution', accountId)), deltas });
  }
  const market = op.marketSymbol;
  for (const d of book.flushDeltas()) {
    bus.emit({
      kind: 'orderBook',
      marketSymbol: market,
      depth: d.depth,
      sequence: sequences.next(seqKey.orderBook(market, d.depth)),
      bidDeltas: d.bidDeltas,
      askDeltas: d.askDeltas,
    });
  }
  const after = topOf(book);
  if (!sameRate(before.bid, after.bid) || !sameRate(before.ask, after.ask)) {
    hooks.marketData?.updateTop(market, after.bid, after.ask);
  }
  if (op.trades.length > 0) {
    hooks.marketData?.recordTrades(market, op.trades);
    hooks.conditionalOrders?.onTrades(market, op.trades);
  }
  for (const rec of op.linkedFirstFills) hooks.conditionalOrders?.onOrderExecuted(rec.accountId, rec.order.id);
  if (hooks.onFill) for (const f of op.fills) hooks.onFill(f);
}

function sameRate(a: Decimal | undefined, b: Decimal | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.eq(b));
}
