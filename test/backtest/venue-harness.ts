/**
 * A backtest venue on BTC-USD with hand-written recorded events, for the fill-model tests: the engine, our
 * account, the venue (and optionally its gateway with latencies), and helpers to play book snapshots, deltas and
 * trades at chosen virtual times and to place and cancel our orders.
 */
import { VirtualClock } from '../../src/core/clock.js';
import { type Decimal, dec } from '../../src/core/decimal.js';
import type { ExchangeGateway } from '../../src/gateway/exchange-gateway.js';
import type { Order } from '../../src/model/order.js';
import { createSimEngine, type SimEngine } from '../../src/sim/engine.js';
import type { MarketEvent } from '../../backtest/readers/reader.js';
import { createBacktestGateway } from '../../backtest/venue/backtest-gateway.js';
import { BacktestVenue } from '../../backtest/venue/backtest-venue.js';
import { createLatency } from '../../backtest/venue/latency.js';
import { queueModel, type QueueModelName } from '../../backtest/venue/queue-model.js';
import type { LatencyConfig } from '../../src/runtime/config/backtest-venue.js';

export const T0 = Date.parse('2024-01-01T00:00:00Z');
export const M = 'BTC-USD';
const src = { file: 'test', line: 1 };

type Level = [rate: string, quantity: string];

/** Recorded events, built by hand. */
export const ev = {
  snapshot: (at: number, bid: Level[], ask: Level[]): MarketEvent => ({
    kind: 'snapshot',
    at,
    marketSymbol: M,
    sequence: 1,
    bid: bid.map(([r, q]) => ({ rate: dec(r), quantity: dec(q) })),
    ask: ask.map(([r, q]) => ({ rate: dec(r), quantity: dec(q) })),
    source: src,
  }),
  delta: (at: number, bid: Level[], ask: Level[]): MarketEvent => ({
    kind: 'orderBookDelta',
    at,
    marketSymbol: M,
    depth: 500,
    sequence: 0,
    bidDeltas: bid.map(([r, q]) => ({ rate: dec(r), quantity: dec(q) })),
    askDeltas: ask.map(([r, q]) => ({ rate: dec(r), quantity: dec(q) })),
    source: src,
  }),
  trade: (at: number, takerSide: 'BUY' | 'SELL', rate: string, quantity: string, id = `t${at}-${rate}-${quantity}`): MarketEvent => ({
    kind: 'trade',
    at,
    marketSymbol: M,
    sequence: 0,
    trades: [{ id, executedAt: new Date(at), quantity: dec(quantity), rate: dec(rate), takerSide }],
    source: src,
  }),
};

export interface Harness {
  clock: VirtualClock;
  engine: SimEngine;
  venue: BacktestVenue;
  account: string;
  gateway: ExchangeGateway;
  /** Move the clock to `at` (firing due timers) and apply the event there. */
  play(e: MarketEvent): Promise<void>;
  /** Place our LIMIT GTC order at the venue now (no latency). */
  limit(direction: 'BUY' | 'SELL', rate: string, quantity: string): Order;
  order(id: string): Order;
  filled(id: string): string;
  balance(currency: string): Decimal;
}

export function venueHarness(opts: {
  queue?: QueueModelName;
  barLimitFill?: 'touch' | 'trade-through';
  funding?: Record<string, string>;
  latency?: { marketData?: LatencyConfig; orderEntry?: LatencyConfig; cancel?: LatencyConfig };
} = {}): Harness {
  const clock = new VirtualClock(T0);
  let n = 0;
  const engine = createSimEngine({ clock, newId: () => `id-${++n}` });
  const funding = Object.fromEntries(Object.entries(opts.funding ?? { USD: '100000', BTC: '100' }).map(([c, v]) => [c, dec(v)]));
  const account = engine.createParticipant(funding);
  const venue = new BacktestVenue({ engine, clock, accountId: account, markets: [M], queueModel: queueModel(opts.queue ?? 'pessimistic'), barLimitFill: opts.barLimitFill });
  const gateway = createBacktestGateway(venue, {
    marketData: createLatency(opts.latency?.marketData ?? 0, '.', 'md'),
    orderEntry: createLatency(opts.latency?.orderEntry ?? 0, '.', 'oe'),
    cancel: createLatency(opts.latency?.cancel ?? 0, '.', 'c'),
  });
  const order = (id: string) => engine.getOrder(account, id);
  return {
    clock,
    engine,
    venue,
    account,
    gateway,
    async play(e) {
      await clock.advanceTo(e.at);
      venue.apply(e);
    },
    limit: (direction, rate, quantity) =>
      venue.placeOrder({ marketSymbol: M, direction, type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec(quantity), limit: dec(rate) }),
    order,
    filled: (id) => order(id).fillQuantity.toFixed(),
    balance: (c) => engine.funds.balances(account).data.find((b) => b.currencySymbol === c)?.total ?? dec(0),
  };
}
