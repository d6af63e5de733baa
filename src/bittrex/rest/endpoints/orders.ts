/** Order endpoints: place, read, list and cancel orders. */
import { arrayOf } from '../../../model/decode.js';
import {
  type BulkCancelResult,
  type Execution,
  type NewOrder,
  type Order,
  decodeBulkCancelResult,
  decodeExecution,
  decodeOrder,
} from '../../../model/order.js';
import type { CallOptions, HttpTransport, Sequenced } from '../http.js';
import { type IterateOptions, iteratePages, pageQuery } from '../paginate.js';
import { optionalText, type PageFilter, segment, validateNewOrder, validatePageFilter } from '../validate.js';

/** Filter of GET /orders/closed (dates apply to closedAt). */
export interface ClosedOrdersFilter extends PageFilter {
  marketSymbol?: string | undefined;
}

/** Filter of GET /orders/open and DELETE /orders/open. */
export interface OpenOrdersFilter {
  marketSymbol?: string | undefined;
}

/** `client.orders` (signed). */
export interface OrdersEndpoints {
  /** GET /orders/closed — one page of closed orders, newest closedAt first. */
  listClosed(filter?: ClosedOrdersFilter, opts?: CallOptions): Promise<Order[]>;
  /** Every closed order matching `filter`, page by page (GET /orders/closed). */
  iterateClosed(filter?: ClosedOrdersFilter, opts?: IterateOptions): AsyncGenerator<Order, void, undefined>;
  /** GET /orders/open — open orders with the snapshot's Sequence. */
  listOpen(filter?: OpenOrdersFilter, opts?: CallOptions): Promise<Sequenced<Order[]>>;
  /** DELETE /orders/open — cancel every open order (or those of one market); one result per order. */
  cancelAll(filter?: OpenOrdersFilter, opts?: CallOptions): Promise<BulkCancelResult[]>;
  /** HEAD /orders/open — the Sequence of the open orders snapshot. */
  openSequence(opts?: CallOptions): Promise<number>;
  /** GET /orders/{orderId} — one order. */
  get(orderId: string, opts?: CallOptions): Promise<Order>;
  /** DELETE /orders/{orderId} — cancel one order; answers its final state. */
  cancel(orderId: string, opts?: CallOptions): Promise<Order>;
  /** GET /orders/{orderId}/executions — the order's fills, newest first (first 1000). */
  executions(orderId: string, opts?: CallOptions): Promise<Execution[]>;
  /**
   * POST /orders — place an order (201 Order). Never retried automatically, not even on 429: re-sending is the
   * caller's decision, with the same clientOrderId.
   */
  create(order: NewOrder, opts?: CallOptions): Promise<Order>;
}

const decodeOrders = arrayOf(decodeOrder);
const decodeBulkCancelResults = arrayOf(decodeBulkCancelResult);
const decodeExecutions = arrayOf(decodeExecution);
const CLOSED = 'GET /orders/closed';

/** Builds `client.orders` over a transport. */
export function createOrdersEndpoints(http: HttpTransport): OrdersEndpoints {
  const listClosed = async (filter: ClosedOrdersFilter = {}, opts?: CallOptions) => {
    optionalText('marketSymbol', filter.marketSymbol, CLOSED);
    validatePageFilter(filter, CLOSED);
    return http.call(
      {
        method: 'GET',
        path: '/orders/closed',
        query: { marketSymbol: filter.marketSymbol, ...pageQuery(filter) },
        signed: true,
        subaccountId: opts?.subaccountId,
      },
      decodeOrders,
    );
  };
  const orderPath = (id: string, where: string) => `/orders/${segment('orderId', id, where)}`;
  return {
    listClosed,
    iterateClosed: (filter = {}, opts = {}) => iteratePages((f) => listClosed(f, opts), filter, opts, CLOSED),
    listOpen: async (filter = {}, opts) => {
      optionalText('marketSymbol', filter.marketSymbol, 'GET /orders/open');
      return http.callSequenced(
        { method: 'GET', path: '/orders/open', query: { marketSymbol: filter.marketSymbol }, signed: true, subaccountId: opts?.subaccountId },
        decodeOrders,
      );
    },
    cancelAll: async (filter = {}, opts) => {
      optionalText('marketSymbol', filter.marketSymbol, 'DELETE /orders/open');
      return http.call(
        {
          method: 'DELETE',
          path: '/orders/open',
          query: { marketSymbol: filter.marketSymbol },
          signed: true,
          subaccountId: opts?.subaccountId,
          priority: 'cancel',
        },
        decodeBulkCancelResults,
      );
    },
    openSequence: (opts) => http.head({ method: 'HEAD', path: '/orders/open', signed: true, subaccountId: opts?.subaccountId }),
    get: async (id, opts) =>
      http.call(
        { method: 'GET', path: orderPath(id, 'GET /orders/{orderId}'), signed: true, subaccountId: opts?.subaccountId },
        decodeOrder,
      ),
    cancel: async (id, opts) =>
      http.call(
        {
          method: 'DELETE',
          path: orderPath(id, 'DELETE /orders/{orderId}'),
          signed: true,
          subaccountId: opts?.subaccountId,
          priority: 'cancel',
        },
        decodeOrder,
      ),
    executions: async (id, opts) =>
      http.call(
        {
          method: 'GET',
          path: `${orderPath(id, 'GET /orders/{orderId}/executions')}/executions`,
          signed: true,
          subaccountId: opts?.subaccountId,
        },
        decodeExecutions,
      ),
    create: async (order, opts) => {
      validateNewOrder(order, 'POST /orders');
      return http.call({ method: 'POST', path: '/orders', body: order, signed: true, subaccountId: opts?.subaccountId }, decodeOrder);
    },
  };
}
