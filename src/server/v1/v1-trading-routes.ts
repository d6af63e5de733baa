/** /market/* (buylimit, selllimit, cancel, getopenorders) and the order reads of /account/*, over the v3 engine. */
import type { SimEngine } from '../../sim/engine.js';
import { newOrderFromV1, orderToV1, orderToV1History } from '../../wire/v1/mapping/index.js';
import { symbolToV1Market } from '../../wire/v1/market-name.js';
import { amountParam, marketParam, optionalMarketParam, timeInForceParam, uuidParam } from './v1-params.js';
import { signedV1, type V1Routes } from './v1-routes.js';
import { single, type V1ResultShapes } from './v1-shapes.js';

/** The engine parts the v1.1 trading routes use. */
export type V1TradingBackend = Pick<SimEngine, 'catalog' | 'placeOrder' | 'cancelOrder' | 'getOrder' | 'openOrders' | 'closedOrders'>;

/** How much order history getorderhistory shows (v3's largest page). */
export const V1_ORDER_HISTORY_SIZE = 200;

/** Add the trading routes. An order placed here is an ordinary engine order: v3 sees and cancels it. */
export function addV1TradingRoutes(routes: V1Routes, e: V1TradingBackend, shapes: V1ResultShapes): void {
  /** Validate in the service's order: market, quantity, rate, timeInForce; the market must exist. */
  const limit = (direction: 'BUY' | 'SELL') =>
    signedV1('trade', (q, a) => {
      const market = symbolToV1Market(e.catalog.market(marketParam(q)).symbol);
      const quantity = amountParam(q, 'quantity');
      const rate = amountParam(q, 'rate');
      const timeInForce = timeInForceParam(q);
      const order = e.placeOrder(a, newOrderFromV1({ market, quantity, rate, timeInForce }, direction));
      return { uuid: order.id };
    });
  const filter = (q: URLSearchParams) => {
    const m = optionalMarketParam(q);
    return m === undefined ? undefined : e.catalog.market(m).symbol;
  };
  routes
    .set('/market/buylimit', limit('BUY'))
    .set('/market/selllimit', limit('SELL'))
    .set('/market/cancel', signedV1('trade', (q, a) => ({ uuid: e.cancelOrder(a, uuidParam(q)).id })))
    .set('/market/getopenorders', signedV1('view', (q, a) => e.openOrders(a, filter(q)).data.map(orderToV1)))
    .set('/account/getorder', signedV1('view', (q, a) => single(shapes, orderToV1(e.getOrder(a, uuidParam(q))))))
    .set(
      '/account/getorderhistory',
      signedV1('view', (q, a) =>
        e.closedOrders(a, { marketSymbol: filter(q), pageSize: V1_ORDER_HISTORY_SIZE }).map(orderToV1History),
      ),
    );
}
