/**
 * Publication of trading operations, after all their state changes are complete (events describe state that is
 * already readable through REST). Order of publication for one operation:
 * 1. `order` events, one per changed order (its state at the end of the operation), per-account sequence;
 * 2. `execution` events, one per account with all its new executions, per-account sequence;
 * 3. `orderBook` events, one per depth whose view changed, per-(market, depth) sequence;
 * 4. market data: best bid/ask when it moved, then the public trades (one call per taker order);
 * 5. conditional orders: the trades (trigger evaluation), then first fills of linked orders (OCO cancel);
 * 6. fill listeners (e.g. account volume).
 * Balance events are not published here: the balance feed publishes them on every ledger change.
 *
 * Re-entrancy: a listener may place or cancel orders synchronously while an operation is being published (a
 * backtest strategy reacting to an event). Everything an operation publishes is therefore captured when the
 * operation ends (order copies, book deltas, top of book), and publications run one after another from a queue,
 * so every stream sees operations in the order they happened and the nested operation's events come after the
 * outer one's, never interleaved.
 */
import { type Decimal, deq } from '../core/decimal.js';
import type { Execution, Order } from '../model/order.js';
import type { OrderBook } from './book/order-book.js';
import type { SimEventBus } from './events.js';
import { type AccountCounters, type SequenceCounter, type SequenceCounters, seqKey } from './sequences.js';
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

/** The executions of an operation that executed nothing (only read). */
const NO_EXECUTIONS: readonly (readonly [string, Execution[]])[] = [];

/** Publishes operations in order (see the module note). */
export class Publisher {
  readonly #bus: SimEventBus;
  readonly #sequences: SequenceCounters;
  readonly #hooks: () => TradingHooks;
  readonly #queue: Array<() => void> = [];
  /** Each account's `order` and `execution` counters, kept (numbered for every order an operation changes). */
  readonly #orderCounters: AccountCounters;
  readonly #executionCounters: AccountCounters;
  /** Each market's `orderBook` counters by depth, kept (numbered for every depth an operation changes). */
  readonly #bookCounters = new Map<string, Map<number, SequenceCounter>>();
  #draining = false;

  constructor(deps: { bus: SimEventBus; sequences: SequenceCounters; hooks: () => TradingHooks }) {
    this.#bus = deps.bus;
    this.#sequences = deps.sequences;
    this.#hooks = deps.hooks;
    this.#orderCounters = deps.sequences.accountCounters('order');
    this.#executionCounters = deps.sequences.accountCounters('execution');
  }

  /** Capture what `op` changed on `book` (whose top was `before`) and publish it after any publication in progress. */
  publish(book: OrderBook, op: Operation, before: Top): void {
    const market = op.marketSymbol;
    // Copies only for a listener that will use them; the per-account order sequence moves either way.
    const copy = this.#bus.wants('order');
    // A loop over the touched list, and no copy of an operation that executed nothing: one list, not three.
    const touched = op.touched;
    const orders: { accountId: string; delta: ReturnType<typeof orderView> | undefined }[] = [];
    for (let i = 0; i < touched.length; i++) {
      const rec = touched[i]!;
      orders.push({ accountId: rec.accountId, delta: copy ? orderView(rec) : undefined });
    }
    const executions = op.executions ? [...op.executions] : NO_EXECUTIONS;
    // Entries only for a listener that will use them; each changed depth's sequence moves either way.
    const bookWanted = this.#bus.wants('orderBook');
    const deltas = bookWanted ? book.flushDeltas() : undefined;
    const changedDepths = bookWanted ? undefined : book.flushChangedDepths();
    const after = topOf(book);
    const topMoved = !sameRate(before.bid, after.bid) || !sameRate(before.ask, after.ask);
    const trades = op.trades;
    const linked = op.linkedFirstFills.map((rec) => [rec.accountId, rec.order.id] as const);
    const fills = op.fills;
    this.#queue.push(() => {
      const bus = this.#bus;
      const hooks = this.#hooks();
      for (const { accountId, delta } of orders) {
        const sequence = this.#orderCounters.next(accountId);
        if (delta) bus.emit({ kind: 'order', accountId, sequence, delta });
      }
      // Numbered either way (REST reads the sequence); emitted only when a listener would use it.
      const executionWanted = executions.length > 0 && bus.wants('execution');
      for (const [accountId, list] of executions) {
        const sequence = this.#executionCounters.next(accountId);
        if (executionWanted) bus.emit({ kind: 'execution', accountId, sequence, deltas: list });
      }
      if (changedDepths) for (const depth of changedDepths) ++this.#bookCounter(market, depth).value;
      for (const d of deltas ?? []) {
        bus.emit({
          kind: 'orderBook',
          marketSymbol: market,
          depth: d.depth,
          sequence: ++this.#bookCounter(market, d.depth).value,
          bidDeltas: d.bidDeltas,
          askDeltas: d.askDeltas,
        });
      }
      if (topMoved) hooks.marketData?.updateTop(market, after.bid, after.ask);
      if (trades.length > 0) {
        hooks.marketData?.recordTrades(market, trades);
        hooks.conditionalOrders?.onTrades(market, trades);
      }
      for (const [accountId, orderId] of linked) hooks.conditionalOrders?.onOrderExecuted(accountId, orderId);
      if (hooks.onFill) for (const f of fills) hooks.onFill(f);
    });
    if (this.#draining) return;
    this.#draining = true;
    try {
      for (let job = this.#queue.shift(); job; job = this.#queue.shift()) job();
    } finally {
      this.#draining = false;
    }
  }

  /** The `orderBook` counter of `market` at `depth`, kept once taken. */
  #bookCounter(market: string, depth: number): SequenceCounter {
    let byDepth = this.#bookCounters.get(market);
    if (byDepth === undefined) this.#bookCounters.set(market, (byDepth = new Map()));
    let counter = byDepth.get(depth);
    if (counter === undefined) byDepth.set(depth, (counter = this.#sequences.counter(seqKey.orderBook(market, depth))));
    return counter;
  }
}

function sameRate(a: Decimal | undefined, b: Decimal | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && deq(a, b));
}
