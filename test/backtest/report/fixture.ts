/**
 * A hand-built ReportInput whose every metric was worked out by hand (see metrics.test.ts): one BTC-USD market
 * over ten days, a long that is half closed at a profit, then closed and flipped short at a loss, then closed
 * at a profit; and a second market, ETH-BTC, quoted in another currency.
 */
import type { ReportFill, ReportInput, ReportOrder } from '../../../backtest/report/report-input.js';

export const DAY = 86_400_000;
/** 2021-01-01T00:00:00Z: a real date so the page's axes read like a run's. */
export const T0 = Date.UTC(2021, 0, 1);

function fill(day: number, direction: 'BUY' | 'SELL', quantity: string, rate: string, commission: string, orderId: string, market = 'BTC-USD'): ReportFill {
  return { at: T0 + day * DAY, marketSymbol: market, orderId, clientOrderId: `c-${orderId}`, strategy: 'mm', direction, quantity, rate, commission, isTaker: false };
}

function order(id: string, day: number, direction: 'BUY' | 'SELL', outcome: ReportOrder['outcome'], fillQuantity: string, market = 'BTC-USD'): ReportOrder {
  return {
    clientOrderId: `c-${id}`,
    id,
    strategy: 'mm',
    marketSymbol: market,
    direction,
    type: 'LIMIT',
    quantity: '1',
    limit: '100',
    timeInForce: 'GOOD_TIL_CANCELLED',
    createdAt: T0 + day * DAY,
    closedAt: outcome === 'OPEN' ? undefined : T0 + day * DAY + 1,
    outcome,
    rejectCode: outcome === 'REJECTED' ? 'INSUFFICIENT_FUNDS' : undefined,
    fillQuantity,
    proceeds: '0',
    commission: '0',
  };
}

/** The worked example. */
export function workedExample(): ReportInput {
  const equityByDay = ['1000', '1000', '1010', '990', '1004.43', '1004.43', '1004.43', '1004.43', '1004.43', '1004.43', '1004.43'];
  return {
    kind: 'backtest',
    name: 'worked-example',
    strategies: ['mm'],
    markets: ['BTC-USD', 'ETH-BTC'],
    from: T0,
    to: T0 + 10 * DAY,
    valuationCurrency: 'USD',
    initialBalances: { USD: '1000' },
    finalBalances: { USD: '1004.43' },
    orders: [
      order('o1', 1, 'BUY', 'CLOSED', '1'),
      order('o2', 2, 'SELL', 'CANCELLED', '0.5'),
      order('o3', 3, 'SELL', 'CLOSED', '1'),
      order('o4', 4, 'BUY', 'CLOSED', '0.5'),
      order('o5', 5, 'BUY', 'CANCELLED', '0'),
      order('o6', 6, 'BUY', 'REJECTED', '0'),
      order('o7', 9, 'SELL', 'OPEN', '0'),
      order('e1', 5, 'BUY', 'CLOSED', '1', 'ETH-BTC'),
    ],
    fills: [
      fill(1, 'BUY', '1', '100', '0.2', 'o1'),
      fill(2, 'SELL', '0.5', '110', '0.11', 'o2'),
      fill(3, 'SELL', '1', '90', '0.18', 'o3'),
      fill(4, 'BUY', '0.5', '80', '0.08', 'o4'),
      fill(5, 'BUY', '1', '0.03', '0.00006', 'e1', 'ETH-BTC'),
    ],
    equity: equityByDay.map((e, d) => ({ at: T0 + d * DAY, equity: e, positions: { 'BTC-USD': d >= 1 && d < 3 ? (d === 1 ? '1' : '0.5') : d === 3 ? '-0.5' : '0' } })),
    prices: {
      'BTC-USD': [100, 100, 110, 90, 80, 80, 80, 80, 80, 80, 80].map((p, d) => ({ at: T0 + d * DAY, price: String(p) })),
      'ETH-BTC': [{ at: T0 + 5 * DAY, price: '0.03' }],
    },
    denials: { MAX_POSITION: 2, MAX_OPEN_ORDERS: 1 },
    assumptions: ['Resting orders join the queue behind the recorded size at their price.', 'Latency: 10 ms order entry, 0 ms market data.'],
    band: [
      { queueModel: 'pessimistic', netPnl: '1.00000000', fillRate: 0.4, fills: 3 },
      { queueModel: 'optimistic', netPnl: '6.00000000', fillRate: 0.8, fills: 6 },
    ],
    events: 12345,
  };
}
