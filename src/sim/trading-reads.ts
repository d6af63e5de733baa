/**
 * The read side of trading: open and closed orders, executions and order books, each answered the way its
 * endpoint is documented (sorting, 1000-item caps, pagination through the shared helper) and, where a stream
 * exists, with the sequence of that stream's counter (the REST `Sequence` header).
 */
import type { Execution, ExecutionLastId, Order } from '../model/order.js';
import type { OrderBook as OrderBookView } from '../model/market.js';
import { BOOK_DEPTHS, type BookDepth } from './book/depth-views.js';
import type { OrderBook } from './book/order-book.js';
import type { Catalog } from './catalog.js';
import type { OrderStore } from './orders-store.js';
import { type PageQuery, listPage } from './paginate.js';
import { type SequenceCounters, type Sequenced, seqKey } from './sequences.js';
import { badRequest } from './sim-error.js';
import type { ExecutionStore } from './trading-executions.js';
import { orderView } from './trading-publish.js';
import { LIST_CAP } from './trading-types.js';

/** Query of GET /orders/closed and GET /executions. */
export interface MarketPageQuery extends PageQuery {
  marketSymbol?: string | undefined;
}

/** Reads of orders, executions and books. */
export class TradingReads {
  readonly #catalog: Catalog;
  readonly #sequences: SequenceCounters;
  readonly #orders: OrderStore;
  readonly #executions: ExecutionStore;
  readonly #book: (marketSymbol: string) => OrderBook;

  constructor(deps: {
    catalog: Catalog;
    sequences: SequenceCounters;
    orders: OrderStore;
    executions: ExecutionStore;
    book: (marketSymbol: string) => OrderBook;
  }) {
    this.#catalog = deps.catalog;
    this.#sequences = deps.sequences;
    this.#orders = deps.orders;
    this.#executions = deps.executions;
    this.#book = deps.book;
  }

  /** GET /orders/open (newest first) with the order stream's sequence (HEAD /orders/open). */
  openOrders(accountId: string, marketSymbol?: string): Sequenced<Order[]> {
    const m = this.#market(marketSymbol);
    return {
      data: this.#orders.open(accountId, m).map(orderView),
      sequence: this.#sequences.current(seqKey.account('order', accountId)),
    };
  }

  /** GET /orders/closed: most recently closed first, startDate/endDate on closedAt, paginated. */
  closedOrders(accountId: string, q: MarketPageQuery = {}): Order[] {
    const records = this.#orders.closed(accountId, this.#market(q.marketSymbol));
    const page = listPage(records, { idOf: (r) => r.order.id, dateOf: (r) => r.order.closedAt, retired: (id) => this.#orders.dropped.has(id) }, q);
    return page.map(orderView);
  }

  /** GET /orders/{id}/executions: newest first, first 1000. */
  orderExecutions(accountId: string, orderId: string): Execution[] {
    const rec = this.#orders.owned(accountId, orderId);
    const out: Execution[] = [];
    for (let i = rec.executions.length - 1; i >= 0 && out.length < LIST_CAP; i--) out.push(rec.executions[i]!);
    return out;
  }

  /** GET /executions: newest first, startDate/endDate on executedAt, paginated. */
  executions(accountId: string, q: MarketPageQuery = {}): Execution[] {
    const list = this.#executions.list(accountId, this.#market(q.marketSymbol));
    return listPage(list, { idOf: (e) => e.id, dateOf: (e) => e.executedAt, retired: (id) => this.#executions.dropped.has(id) }, q);
  }

  /** GET /executions/{id}; 404 NOT_FOUND when unknown or another account's. */
  execution(accountId: string, id: string): Execution {
    return this.#executions.get(accountId, id);
  }

  /** GET /executions/last-id: the newest execution id (absent when none) with the execution stream's sequence. */
  lastExecution(accountId: string): Sequenced<ExecutionLastId> {
    const last = this.#executions.last(accountId);
    return {
      data: last ? { lastId: last.id } : {},
      sequence: this.#sequences.current(seqKey.account('execution', accountId)),
    };
  }

  /** GET /markets/{m}/orderbook?depth=: the aggregated book with that depth's sequence. Depth must be 1, 25 or 500. */
  orderBook(marketSymbol: string, depth: number = 25): Sequenced<OrderBookView> {
    if (!(BOOK_DEPTHS as readonly number[]).includes(depth)) {
      throw badRequest('BAD_REQUEST', `depth must be one of ${BOOK_DEPTHS.join(', ')}`, { invalidRequestParameters: ['depth'] });
    }
    const book = this.#book(marketSymbol);
    return {
      data: book.snapshot(depth),
      sequence: this.#sequences.current(seqKey.orderBook(book.marketSymbol, depth as BookDepth)),
    };
  }

  #market(marketSymbol: string | undefined): string | undefined {
    return marketSymbol === undefined ? undefined : this.#catalog.market(marketSymbol).symbol;
  }
}
