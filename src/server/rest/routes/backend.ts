/**
 * What the REST routes need from the simulator: the engine facade, whose methods answer in model types and throw
 * SimError for refusals. Every method takes the acting account id first.
 */
import type { SimEngine } from '../../../sim/engine.js';

/** The engine behind the v3 routes. */
export type SimRestBackend = Pick<
  SimEngine,
  | 'clock' | 'catalog' | 'funds' | 'marketData' | 'conditionalOrders'
  | 'markets' | 'market' | 'currencies' | 'currency' | 'orderBook' | 'trades' | 'ticker' | 'tickers' | 'summary' | 'summaries' | 'candles' | 'historicalCandles'
  | 'placeOrder' | 'cancelOrder' | 'cancelAll' | 'getOrder' | 'openOrders' | 'closedOrders' | 'orderExecutions' | 'executions' | 'execution' | 'lastExecution' | 'batch'
  | 'createConditionalOrder' | 'getConditionalOrder' | 'cancelConditionalOrder' | 'openConditionalOrders' | 'closedConditionalOrders'
>;
