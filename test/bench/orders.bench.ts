/**
 * Order path throughput in process: intents/s through the real RiskEngine (every check on) and the OrderManager
 * (planning, clientOrderId, fsynced journal, state machine, events) into a null gateway that answers at once.
 *
 * - `orders-throughput`: place intents (IOC limits answered CLOSED without fill), submitted in bursts of 200 —
 *   the journal group-commits each burst with one fsync, as it does for intents arriving in the same tick;
 * - `orders-throughput-serial`: one intent at a time (submit, wait for its close): bounded by one fsync each;
 * - `orders-throughput-quotes`: quote-ladder intents (10 levels alternating between two ladders, so every
 *   intent is 10 cancels + 10 placements in one POST /batch);
 * - `orders-reserve-live`, `orders-risk-check-live`: with 2000 acknowledged orders resting, the in-flight
 *   reservation risk asks the manager for on every check (`inFlightReserved`), and a whole risk check wired to
 *   the manager as the kernel wires it (reservation and open-order count included).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom, filter, take, toArray } from 'rxjs';
import { quietGateway } from './quiet-gateway.js';
import { VirtualClock } from '../../src/core/clock.js';
import { dec, ZERO } from '../../src/core/decimal.js';
import type { ExchangeGateway } from '../../src/gateway/exchange-gateway.js';
import type { Intent } from '../../src/model/intent.js';
import type { Market, OrderBookEntry } from '../../src/model/market.js';
import type { BatchResponse, NewOrder, Order } from '../../src/model/order.js';
import { Journal } from '../../src/orders/journal.js';
import type { OrderEvent } from '../../src/orders/order-events.js';
import { OrderManager } from '../../src/orders/order-manager.js';
import { Portfolio } from '../../src/portfolio/portfolio.js';
import { defaultRiskConfig } from '../../src/risk/risk-config.js';
import { RiskEngine } from '../../src/risk/risk-engine.js';
import { AccountStore } from '../../src/store/account-store.js';
import { MarketStore } from '../../src/store/market-store.js';
import { type Bench, opsPerSecondSync } from './harness.js';

const M = 'BTC-USD';
const market: Market = { symbol: M, baseCurrencySymbol: 'BTC', quoteCurrencySymbol: 'USD', minTradeSize: dec('0.0001'), precision: 3, status: 'ONLINE', createdAt: new Date(0) };

/** A gateway that answers every request at once: IOC orders close unfilled, others rest; cancels close. */
function nullGateway(): ExchangeGateway {
  let n = 0;
  const order = (o: NewOrder): Order => ({
    ...o,
    id: `o-${++n}`,
    fillQuantity: ZERO,
    commission: ZERO,
    proceeds: ZERO,
    status: o.timeInForce === 'IMMEDIATE_OR_CANCEL' || o.timeInForce === 'FILL_OR_KILL' ? 'CLOSED' : 'OPEN',
    createdAt: new Date(0),
  });
  const closed = (id: string): Order => ({ ...order({ marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED' }), id, status: 'CLOSED' });
  return quietGateway(market, {
    placeOrder: async (o) => order(o),
    cancelOrder: async (id) => closed(id),
    batch: async (ops) =>
      ops.map((op): BatchResponse =>
        op.operation === 'POST' ? { status: 201, ok: true, payload: order(op.payload) } : { status: 200, ok: true, payload: closed(op.payload.id) },
      ),
  });
}

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'rexbot-orders-bench-'));
  const clock = new VirtualClock(Date.parse('2021-06-14T10:00:00Z'));
  const store = new MarketStore();
  const levels = (from: number, step: number): OrderBookEntry[] =>
    Array.from({ length: 25 }, (_, i) => ({ quantity: dec('0.5'), rate: dec(String(from + i * step)) }));
  store.resetBook(M, 25, { bid: levels(29990, -5), ask: levels(30010, 5) }, 1);
  const portfolio = new Portfolio({ clock, quoteCurrency: 'USD' });
  const account = new AccountStore();
  const balances: Record<string, string> = { USD: '1000000000', BTC: '100000' };
  // eslint-disable-next-line prefer-const
  let orders: OrderManager;
  const risk = new RiskEngine(
    { ...defaultRiskConfig(), maxOpenOrders: 1_000_000, submitRate: { maxOrders: 1_000_000_000, windowMs: 60_000 } },
    {
      clock,
      market: (s) => (s === M ? market : undefined),
      marketStore: store,
      streamLive: () => true,
      available: (c) => (balances[c] ? dec(balances[c]!) : ZERO),
      openOrderCount: () => orders.openOrderCount(),
      inFlightReserved: (c) => orders.inFlightReserved(c),
      portfolio,
      btcValue: (c, a) => (c === 'USD' ? a.div(30000) : a),
    },
  );
  orders = new OrderManager({
    gateway: nullGateway(),
    risk,
    journal: Journal.open(join(dir, 'bench.journal')),
    clock,
    account,
    marketStore: store,
    markets: (s) => (s === M ? market : undefined),
    portfolio,
  });
  return {
    orders,
    risk,
    async close() {
      await orders.close();
      risk.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const ioc = (i: number): Intent => ({
  kind: 'place',
  key: `k${i}`,
  order: { marketSymbol: M, direction: i % 2 ? 'BUY' : 'SELL', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.01'), limit: dec(i % 2 ? '29995' : '30005') },
});

/** Submit `intents` at once and wait until `done` events arrived. */
async function run(orders: OrderManager, intents: Intent[], done: (e: OrderEvent) => boolean, expected: number): Promise<void> {
  const finished = firstValueFrom(orders.events$.pipe(filter(done), take(expected), toArray()));
  for (const intent of intents) orders.submit('bench', intent);
  const events = await finished;
  if (events.length !== expected) throw new Error(`expected ${expected} events, got ${events.length}`);
}

async function timed(seconds: number, step: () => Promise<number>): Promise<number> {
  for (let end = performance.now() + 300; performance.now() < end; ) await step();
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) count += await step();
  return (count * 1000) / (performance.now() - start);
}

export const benches: Bench[] = [
  {
    name: 'orders-throughput',
    async run() {
      const a = setup();
      let i = 0;
      const burst = await timed(1.5, async () => {
        const intents = Array.from({ length: 200 }, () => ioc(i++));
        await run(a.orders, intents, (e) => e.type === 'closed', 200);
        return 200;
      });
      const serial = await timed(1, async () => {
        await run(a.orders, [ioc(i++)], (e) => e.type === 'closed', 1);
        return 1;
      });
      let flip = false;
      const ladder = (shift: number) => Array.from({ length: 5 }, (_, l) => ({ rate: dec(29990 - l * 5 - shift), quantity: dec('0.01') }));
      const asks = (shift: number) => Array.from({ length: 5 }, (_, l) => ({ rate: dec(30010 + l * 5 + shift), quantity: dec('0.01') }));
      const quotes = await timed(1, async () => {
        flip = !flip;
        const shift = flip ? 1 : 0;
        await run(a.orders, [{ kind: 'quotes', key: 'ladder', marketSymbol: M, bids: ladder(shift), asks: asks(shift) }], (e) => e.type === 'accepted', 10);
        return 1;
      });
      await a.close();
      return [
        { bench: 'orders-throughput', value: burst, unit: 'intents/s', note: 'risk (all checks) + order manager + fsynced journal, bursts of 200, null gateway' },
        { bench: 'orders-throughput-serial', value: serial, unit: 'intents/s', note: 'one intent at a time: one fsync each' },
        { bench: 'orders-throughput-quotes', value: quotes, unit: 'ladders/s', note: '10-level ladder re-quoted: 10 cancels + 10 places per POST /batch' },
      ];
    },
  },
  {
    name: 'orders-reserve',
    async run() {
      const a = setup();
      const resting = 2000;
      const gtc = (i: number): Intent => ({
        kind: 'place',
        key: `rest${i}`,
        order: { marketSymbol: M, direction: i % 2 ? 'BUY' : 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec(i % 2 ? 29900 - (i % 500) : 30100 + (i % 500)) },
      });
      await run(a.orders, Array.from({ length: resting }, (_, i) => gtc(i)), (e) => e.type === 'accepted', resting);
      const proposal = { strategy: 'bench', intentKey: 'probe', reducesPosition: false, marketSymbol: M, direction: 'BUY' as const, type: 'LIMIT' as const, timeInForce: 'GOOD_TIL_CANCELLED' as const, quantity: dec('0.01'), limit: dec('29995.5') };
      const reserve = opsPerSecondSync(() => a.orders.inFlightReserved('USD'), { minMs: 700 });
      const check = opsPerSecondSync(() => a.risk.evaluate(proposal), { minMs: 700 });
      await a.close();
      return [
        { bench: 'orders-reserve-live', value: reserve, unit: 'calls/s', note: `inFlightReserved('USD') with ${resting} acknowledged orders resting` },
        { bench: 'orders-risk-check-live', value: check, unit: 'orders/s', note: `risk evaluate() wired to the manager, ${resting} orders resting` },
      ];
    },
  },
];
