/** Conditional order endpoints: stops, take-profits, trailing stops and OCO pairs. */
import { type ConditionalOrder, type NewConditionalOrder, decodeConditionalOrder } from '../../../model/conditional-order.js';
import { arrayOf } from '../../../model/decode.js';
import type { CallOptions, HttpTransport, Sequenced } from '../http.js';
import { type IterateOptions, iteratePages, pageQuery } from '../paginate.js';
import { optionalText, type PageFilter, segment, validateNewConditionalOrder, validatePageFilter } from '../validate.js';

/** Filter of GET /conditional-orders/closed (dates apply to closedAt). */
export interface ClosedConditionalOrdersFilter extends PageFilter {
  marketSymbol?: string | undefined;
}

/** Filter of GET /conditional-orders/open. */
export interface OpenConditionalOrdersFilter {
  marketSymbol?: string | undefined;
}

/** `client.conditionalOrders` (signed). */
export interface ConditionalOrdersEndpoints {
  /** GET /conditional-orders/{conditionalOrderId} — one conditional order. */
  get(conditionalOrderId: string, opts?: CallOptions): Promise<ConditionalOrder>;
  /** DELETE /conditional-orders/{conditionalOrderId} — cancel (through the cancel queue). */
  cancel(conditionalOrderId: string, opts?: CallOptions): Promise<ConditionalOrder>;
  /** GET /conditional-orders/closed — one page, newest closedAt first. */
  listClosed(filter?: ClosedConditionalOrdersFilter, opts?: CallOptions): Promise<ConditionalOrder[]>;
  /** Every closed conditional order matching `filter`, page by page (GET /conditional-orders/closed). */
  iterateClosed(filter?: ClosedConditionalOrdersFilter, opts?: IterateOptions): AsyncGenerator<ConditionalOrder, void, undefined>;
  /** GET /conditional-orders/open — open conditional orders with the snapshot's Sequence. */
  listOpen(filter?: OpenConditionalOrdersFilter, opts?: CallOptions): Promise<Sequenced<ConditionalOrder[]>>;
  /** HEAD /conditional-orders/open — the Sequence of the open conditional orders snapshot. */
  openSequence(opts?: CallOptions): Promise<number>;
  /** POST /conditional-orders — place a conditional order (201 ConditionalOrder). */
  create(order: NewConditionalOrder, opts?: CallOptions): Promise<ConditionalOrder>;
}

const decodeConditionalOrders = arrayOf(decodeConditionalOrder);
const CLOSED = 'GET /conditional-orders/closed';

/** Builds `client.conditionalOrders` over a transport. */
export function createConditionalOrdersEndpoints(http: HttpTransport): ConditionalOrdersEndpoints {
  const byId = (method: 'GET' | 'DELETE', id: string, opts: CallOptions | undefined) =>
    http.call(
      {
        method,
        path: `/conditional-orders/${segment('conditionalOrderId', id, `${method} /conditional-orders/{conditionalOrderId}`)}`,
        signed: true,
        subaccountId: opts?.subaccountId,
        priority: method === 'DELETE' ? 'cancel' : 'read',
      },
      decodeConditionalOrder,
    );
  const listClosed = async (filter: ClosedConditionalOrdersFilter = {}, opts?: CallOptions) => {
    optionalText('marketSymbol', filter.marketSymbol, CLOSED);
    validatePageFilter(filter, CLOSED);
    return http.call(
      {
        method: 'GET',
        path: '/conditional-orders/closed',
        query: { marketSymbol: filter.marketSymbol, ...pageQuery(filter) },
        signed: true,
        subaccountId: opts?.subaccountId,
      },
      decodeConditionalOrders,
    );
  };
  return {
    get: async (id, opts) => byId('GET', id, opts),
    cancel: async (id, opts) => byId('DELETE', id, opts),
    listClosed,
    iterateClosed: (filter = {}, opts = {}) => iteratePages((f) => listClosed(f, opts), filter, opts, CLOSED),
    listOpen: async (filter = {}, opts) => {
      optionalText('marketSymbol', filter.marketSymbol, 'GET /conditional-orders/open');
      return http.callSequenced(
        {
          method: 'GET',
          path: '/conditional-orders/open',
          query: { marketSymbol: filter.marketSymbol },
          signed: true,
          subaccountId: opts?.subaccountId,
        },
        decodeConditionalOrders,
      );
    },
    openSequence: (opts) =>
      http.head({ method: 'HEAD', path: '/conditional-orders/open', signed: true, subaccountId: opts?.subaccountId }),
    create: async (order, opts) => {
      validateNewConditionalOrder(order, 'POST /conditional-orders');
      return http.call(
        { method: 'POST', path: '/conditional-orders', body: order, signed: true, subaccountId: opts?.subaccountId },
        decodeConditionalOrder,
      );
    },
  };
}
