/** Signed trading routes: orders, executions, batch, conditional orders. */
import type { RouteDef } from '../rest-handler.js';
import type { Router } from '../router.js';
import { pageQuery, qstr } from '../query.js';
import { parseBatch, parseNewConditionalOrder, parseNewOrder } from '../request-bodies.js';
import { signed } from './account-routes.js';
import type { SimRestBackend } from './backend.js';

/** Add the trading routes to `router`. */
export function addOrderRoutes(router: Router<RouteDef>, b: SimRestBackend): void {
  const market = (q: URLSearchParams) => qstr(q, 'marketSymbol');
  router
    .add('GET', '/orders/open', signed('view', (c, a) => {
      const s = b.openOrders(a, market(c.query));
      return { body: s.data, sequence: s.sequence };
    }))
    .add('HEAD', '/orders/open', signed('view', (_c, a) => ({ sequence: b.openOrders(a).sequence })))
    .add('DELETE', '/orders/open', signed('trade', (c, a) => ({ body: b.cancelAll(a, market(c.query)) })))
    .add('GET', '/orders/closed', signed('view', (c, a) => ({ body: b.closedOrders(a, { ...pageQuery(c.query), marketSymbol: market(c.query) }) })))
    .add('GET', '/orders/{orderId}', signed('view', (c, a) => ({ body: b.getOrder(a, c.params.orderId!) })))
    .add('DELETE', '/orders/{orderId}', signed('trade', (c, a) => ({ body: b.cancelOrder(a, c.params.orderId!) })))
    .add('GET', '/orders/{orderId}/executions', signed('view', (c, a) => ({ body: b.orderExecutions(a, c.params.orderId!) })))
    .add('POST', '/orders', signed('trade', (c, a) => ({ status: 201, body: b.placeOrder(a, parseNewOrder(c.body)) })))

    .add('POST', '/batch', signed('trade', (c, a) => ({ body: b.batch(a, parseBatch(c.body)) })))

    .add('GET', '/executions', signed('view', (c, a) => ({ body: b.executions(a, { ...pageQuery(c.query), marketSymbol: market(c.query) }) })))
    .add('GET', '/executions/last-id', signed('view', (c, a) => {
      const s = b.lastExecution(a);
      const m = market(c.query);
      if (m === undefined) return { body: s.data, sequence: s.sequence };
      // The official document's marketSymbol: that market's most recent execution (newest first, as listed).
      const newest = b.executions(a, { marketSymbol: m, pageSize: 1 })[0];
      return { body: newest ? { lastId: newest.id } : {}, sequence: s.sequence };
    }))
    .add('HEAD', '/executions/last-id', signed('view', (_c, a) => ({ sequence: b.lastExecution(a).sequence })))
    .add('GET', '/executions/{executionId}', signed('view', (c, a) => ({ body: b.execution(a, c.params.executionId!) })))

    .add('GET', '/conditional-orders/open', signed('view', (c, a) => {
      const s = b.openConditionalOrders(a, market(c.query));
      return { body: s.data, sequence: s.sequence };
    }))
    .add('HEAD', '/conditional-orders/open', signed('view', (_c, a) => ({ sequence: b.conditionalOrders.openSequence(a) })))
    .add('GET', '/conditional-orders/closed', signed('view', (c, a) => ({ body: b.closedConditionalOrders(a, { ...pageQuery(c.query), marketSymbol: market(c.query) }) })))
    .add('GET', '/conditional-orders/{conditionalOrderId}', signed('view', (c, a) => ({ body: b.getConditionalOrder(a, c.params.conditionalOrderId!) })))
    .add('DELETE', '/conditional-orders/{conditionalOrderId}', signed('trade', (c, a) => ({ body: b.cancelConditionalOrder(a, c.params.conditionalOrderId!) })))
    .add('POST', '/conditional-orders', signed('trade', (c, a) => ({ status: 201, body: b.createConditionalOrder(a, parseNewConditionalOrder(c.body)) })));
}
