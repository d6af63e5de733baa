/**
 * The base of the benches' in-memory gateways: one market, no streams, empty account lists, and every other call
 * refused; a bench overrides what it exercises.
 */
import { Observable } from 'rxjs';
import type { ExchangeGateway } from '../../src/gateway/exchange-gateway.js';
import type { Market } from '../../src/model/market.js';

/** A gateway serving `market` and nothing else, with `overrides` on top. */
export function quietGateway(market: Market, overrides: Partial<ExchangeGateway>): ExchangeGateway {
  const none = () => Promise.reject(new Error('not used by this bench'));
  return {
    venue: 'bench',
    streams: { messages$: new Observable(), connectionEpoch$: new Observable(), subscribe: async () => {}, unsubscribe: async () => {} },
    markets: async () => [market],
    currencies: none,
    orderBook: none,
    tickers: none,
    trades: none,
    balances: none,
    openOrders: async () => ({ data: [], sequence: 0 }),
    closedOrders: async () => [],
    order: none,
    openConditionalOrders: async () => ({ data: [], sequence: 0 }),
    closedConditionalOrders: async () => [],
    conditionalOrder: none,
    lastExecution: async () => ({ data: {}, sequence: 0 }),
    executions: async () => [],
    placeOrder: none,
    cancelOrder: none,
    cancelAllOrders: async () => [],
    batch: none,
    placeConditionalOrder: none,
    cancelConditionalOrder: none,
    close: async () => {},
    ...overrides,
  };
}
