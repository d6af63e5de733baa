/**
 * Risk engine throughput: evaluate() per second for a typical market-maker limit order with every check on and
 * the limits configured (notional, position, daily loss, drawdown), over a real MarketStore with a 25-level book
 * and a portfolio holding a position — i.e. the work every intent pays before the order manager.
 */
import { VirtualClock } from '../../src/core/clock.js';
import { dec, ZERO } from '../../src/core/decimal.js';
import type { ProposedOrder } from '../../src/model/intent.js';
import type { Market, OrderBookEntry } from '../../src/model/market.js';
import { Portfolio } from '../../src/portfolio/portfolio.js';
import type { PendingOrder } from '../../src/risk/order-reserve.js';
import { defaultRiskConfig } from '../../src/risk/risk-config.js';
import { RiskEngine } from '../../src/risk/risk-engine.js';
import { MarketStore } from '../../src/store/market-store.js';
import { createMetrics } from '../../src/telemetry/metrics.js';
import { type Bench, opsPerSecondSync } from './harness.js';

/** A 10-level quote ladder per side resting (one level still in flight), as the kernel's pendingOrders gives it. */
function ladder(): PendingOrder[] {
  const quote = (direction: 'BUY' | 'SELL', i: number): PendingOrder => ({
    strategy: 'mm',
    marketSymbol: 'BTC-USD',
    direction,
    type: 'LIMIT',
    quantity: dec('0.01'),
    limit: dec(String(direction === 'BUY' ? 29980 - i * 5 : 30020 + i * 5)),
    unacknowledged: i === 0,
  });
  return Array.from({ length: 10 }, (_, i) => [quote('BUY', i), quote('SELL', i)]).flat();
}

function setup(pending?: PendingOrder[]): { engine: RiskEngine; limitOrder: ProposedOrder; marketOrder: ProposedOrder } {
  const clock = new VirtualClock(Date.parse('2021-06-14T10:00:00Z'));
  const store = new MarketStore();
  const levels = (from: number, step: number): OrderBookEntry[] =>
    Array.from({ length: 25 }, (_, i) => ({ quantity: dec('0.5'), rate: dec(String(from + i * step)) }));
  store.resetBook('BTC-USD', 25, { bid: levels(29990, -5), ask: levels(30010, 5) }, 1);
  const market: Market = { symbol: 'BTC-USD', baseCurrencySymbol: 'BTC', quoteCurrencySymbol: 'USD', minTradeSize: dec('0.0001'), precision: 3, status: 'ONLINE', createdAt: new Date(0) };
  const portfolio = new Portfolio({ clock, quoteCurrency: 'USD' });
  portfolio.onFill({ type: 'fill', strategy: 'mm', intentKey: 'k', clientOrderId: 'c', orderId: 'o', marketSymbol: 'BTC-USD', direction: 'BUY', quantity: dec('0.3'), rate: dec('29950'), commission: dec('0.1'), isTaker: false, executionId: 'e', at: clock.now() });
  const balances: Record<string, string> = { USD: '1000000', BTC: '100' };
  const engine = new RiskEngine(
    {
      ...defaultRiskConfig(),
      maxNotional: { default: dec('100000'), markets: {} },
      maxPosition: { default: dec('50'), markets: {} },
      dailyLossLimit: dec('5000'),
      maxDrawdown: dec('10000'),
      submitRate: { maxOrders: 1_000_000_000, windowMs: 60_000 },
    },
    {
      clock,
      market: (s) => (s === 'BTC-USD' ? market : undefined),
      marketStore: store,
      streamLive: () => true,
      available: (c) => (balances[c] ? dec(balances[c]!) : ZERO),
      openOrderCount: () => 10,
      inFlightReserved: () => ZERO,
      ...(pending ? { pendingOrders: () => pending } : {}),
      portfolio,
      btcValue: (c, a) => (c === 'USD' ? a.div(30000) : a),
    },
    createMetrics(),
  );
  const base = { strategy: 'mm', intentKey: 'bid-1', reducesPosition: false, marketSymbol: 'BTC-USD', direction: 'BUY' as const };
  return {
    engine,
    limitOrder: { ...base, type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('29995.5') },
    marketOrder: { ...base, type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('3') },
  };
}

export const benches: Bench[] = [
  {
    name: 'risk-evaluate',
    async run() {
      const { engine, limitOrder, marketOrder } = setup();
      const limit = opsPerSecondSync(() => engine.evaluate(limitOrder));
      const market = opsPerSecondSync(() => engine.evaluate(marketOrder));
      engine.close();
      const withLadder = setup(ladder());
      const pending = opsPerSecondSync(() => withLadder.engine.evaluate(withLadder.limitOrder));
      withLadder.engine.close();
      return [
        { bench: 'risk-evaluate-limit', value: limit, unit: 'orders/s', note: 'every check, limits on, 25-level book' },
        { bench: 'risk-evaluate-market', value: market, unit: 'orders/s', note: 'market order walking 6 ask levels' },
        { bench: 'risk-evaluate-pending', value: pending, unit: 'orders/s', note: 'the limit order with 20 quotes resting or in flight counted (max position, reserves)' },
      ];
    },
  },
];
