/**
 * Test wiring for the order manager: the simulator engine in-process behind createSimGateway, an AccountStore fed
 * from the gateway's private streams, a liquidity provider resting a book around 30,000 on BTC-USD, a journal in
 * a temporary directory, and a gateway wrapper that injects faults (lost answers, failures before sending).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Subject, takeUntil } from 'rxjs';
import { VirtualClock } from '../../src/core/clock.js';
import { dec, type Decimal } from '../../src/core/decimal.js';
import { ApiError, TimeoutError } from '../../src/core/errors.js';
import type { ExchangeGateway } from '../../src/gateway/exchange-gateway.js';
import { createSimGateway } from '../../src/gateway/sim-gateway.js';
import type { Market } from '../../src/model/market.js';
import type { Order } from '../../src/model/order.js';
import type { InFlightOrder } from '../../src/orders/in-flight.js';
import type { ProposedOrder, RiskVerdict } from '../../src/model/intent.js';
import { Journal } from '../../src/orders/journal.js';
import type { OrderEvent } from '../../src/orders/order-events.js';
import { OrderManager } from '../../src/orders/order-manager.js';
import type { MarketPrices, OrderManagerDeps } from '../../src/orders/order-manager-deps.js';
import { createSimEngine, type SimEngine } from '../../src/sim/engine.js';
import { AccountStore } from '../../src/store/account-store.js';

export const T0 = Date.parse('2021-06-14T00:00:00Z');
export const M = 'BTC-USD';

/** The exchange's view of a followed placement: its request, open and unfilled as `o-<clientOrderId>`, then `over`. */
export function exchangeOrder(e: InFlightOrder, over: Partial<Order> = {}): Order {
  return { ...e.request!, id: `o-${e.clientOrderId}`, fillQuantity: dec('0'), commission: dec('0'), proceeds: dec('0'), status: 'OPEN', createdAt: new Date(0), ...over };
}

/** Which gateway call a fault applies to. */
export type GatewayCall = 'placeOrder' | 'batch' | 'placeConditionalOrder' | 'cancelOrder' | 'order' | 'openOrders' | 'closedOrders';

/** A fault: `lostAnswer` lets the call reach the engine and then times out; `before` fails without reaching it. */
export interface Fault {
  call: GatewayCall;
  kind: 'lostAnswer' | 'timeoutBefore' | 'http503Before' | 'throttled';
  times?: number;
}

/** A gateway whose calls can fail on purpose, and which records the calls it passed through. */
export function faultyGateway(inner: ExchangeGateway): ExchangeGateway & { faults: Fault[]; calls: string[] } {
  const faults: Fault[] = [];
  const calls: string[] = [];
  const take = (call: GatewayCall): Fault | undefined => {
    const i = faults.findIndex((f) => f.call === call);
    if (i < 0) return undefined;
    const f = faults[i]!;
    f.times = (f.times ?? 1) - 1;
    if (f.times <= 0) faults.splice(i, 1);
    return f;
  };
  const wrap =
    <A extends unknown[], R>(call: GatewayCall, fn: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      calls.push(call);
      const f = take(call);
      if (f?.kind === 'timeoutBefore') throw new TimeoutError('request timed out', { timeoutMs: 10_000 });
      if (f?.kind === 'http503Before') throw new ApiError({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      if (f?.kind === 'throttled') throw new ApiError({ status: 429, code: 'THROTTLED' });
      const r = await fn(...a);
      if (f?.kind === 'lostAnswer') throw new TimeoutError('answer lost', { timeoutMs: 10_000 });
      return r;
    };
  return {
    ...inner,
    streams: inner.streams,
    faults,
    calls,
    placeOrder: wrap('placeOrder', inner.placeOrder),
    batch: wrap('batch', inner.batch),
    placeConditionalOrder: wrap('placeConditionalOrder', inner.placeConditionalOrder),
    cancelOrder: wrap('cancelOrder', inner.cancelOrder),
    order: wrap('order', inner.order),
    openOrders: wrap('openOrders', inner.openOrders),
    closedOrders: wrap('closedOrders', inner.closedOrders),
  };
}

/** Approves everything (a pass-through risk engine), remembering what it saw; `deny` refuses matching proposals. */
export class TestRisk {
  readonly seen: ProposedOrder[] = [];
  deny: ((o: ProposedOrder) => boolean) | undefined;
  evaluate(o: ProposedOrder): RiskVerdict {
    this.seen.push(o);
    if (this.deny?.(o)) return { approved: false, reasons: [{ code: 'TEST_DENIED', message: 'denied by the test' }] };
    return { approved: true, order: o };
  }
}

/** Everything a test needs. */
export interface Rig {
  clock: VirtualClock;
  engine: SimEngine;
  me: string;
  lp: string;
  gateway: ReturnType<typeof faultyGateway>;
  account: AccountStore;
  journalPath: string;
  dir: string;
  markets: Map<string, Market>;
  risk: TestRisk;
  marketStore: MarketPrices;
  manager: OrderManager;
  events: OrderEvent[];
  /** A fresh manager on the same exchange and journal file (a restart), with optional other deps. */
  restart(extra?: Partial<OrderManagerDeps>): Promise<OrderManager>;
  /** Move time (retries and lookups sleep on the clock) and let everything settle. */
  settle(ms?: number): Promise<void>;
  cleanup(): Promise<void>;
}

/** Rest a ladder of asks and bids around 30,000 for the liquidity provider. */
export function restBook(engine: SimEngine, lp: string, levels = 5): void {
  for (let i = 1; i <= levels; i++) {
    engine.placeOrder(lp, { marketSymbol: M, direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('1'), limit: dec(30000 + i * 10) });
    engine.placeOrder(lp, { marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('1'), limit: dec(30000 - i * 10) });
  }
}

/** Build the rig. */
export async function makeRig(opts: { book?: boolean; deps?: Partial<OrderManagerDeps>; funds?: Record<string, Decimal> } = {}): Promise<Rig> {
  const clock = new VirtualClock(T0);
  const engine = createSimEngine({ clock });
  const lp = engine.createParticipant({ BTC: dec('1000'), USD: dec('100000000') });
  const me = engine.createParticipant(opts.funds ?? { BTC: dec('10'), USD: dec('1000000') });
  if (opts.book !== false) restBook(engine, lp);
  const gateway = faultyGateway(createSimGateway(engine, me));
  const account = new AccountStore({ accountId: me });
  await gateway.streams.subscribe(['order', 'execution', 'conditional_order']);
  const feed = gateway.streams.messages$.subscribe((m) => {
    if (m.name === 'order') account.applyOrder(m.data.delta);
    else if (m.name === 'execution') account.addExecutions(m.data.deltas);
    else if (m.name === 'conditionalOrder') account.applyConditionalOrder(m.data.delta);
  });
  const markets = new Map((await gateway.markets()).map((m) => [m.symbol, m]));
  const dir = mkdtempSync(join(tmpdir(), 'rexbot-orders-'));
  const journalPath = join(dir, 'orders.journal');
  const risk = new TestRisk();
  const events: OrderEvent[] = [];
  const marketStore: MarketPrices = {
    bestBid: (s: string) => engine.orderBook(s, 1).data.bid[0],
    bestAsk: (s: string) => engine.orderBook(s, 1).data.ask[0],
  };
  const build = (extra: Partial<OrderManagerDeps> = {}): OrderManager => {
    const manager = new OrderManager({
      gateway,
      risk,
      journal: Journal.open(journalPath),
      clock,
      account,
      marketStore,
      markets: (s) => markets.get(s),
      retry: { lookupDelayMs: 1000, baseDelayMs: 100 },
      ...(opts.deps ?? {}),
      ...extra,
    });
    manager.events$.subscribe((e) => events.push(e));
    return manager;
  };
  const rig: Rig = {
    clock,
    engine,
    me,
    lp,
    gateway,
    account,
    journalPath,
    dir,
    markets,
    risk,
    marketStore,
    manager: build(),
    events,
    async restart(extra) {
      rig.manager = build(extra);
      return rig.manager;
    },
    async settle(ms = 0) {
      // Small steps with microtask flushes between them: retries and lookups sleep on this clock.
      for (let i = 0; i < 40; i++) await clock.advance(ms > 0 ? Math.ceil(ms / 40) : 0);
    },
    async cleanup() {
      feed.unsubscribe();
      await gateway.close();
      engine.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return rig;
}

/**
 * A manager that can "crash": its clock never moves (a retry or lookup it starts never happens) and `crash()`
 * cuts it off the account feed, so after it nothing it does reaches the journal or the exchange — the state a
 * killed process leaves behind.
 */
export function crashableManager(rig: Rig): { manager: OrderManager; events: OrderEvent[]; crash(): void } {
  const kill = new Subject<void>();
  const a = rig.account;
  const events: OrderEvent[] = [];
  const manager = new OrderManager({
    gateway: rig.gateway,
    risk: rig.risk,
    journal: Journal.open(rig.journalPath),
    clock: new VirtualClock(rig.clock.now()),
    account: {
      changes$: a.changes$.pipe(takeUntil(kill)),
      openOrders: (m) => a.openOrders(m),
      order: (id) => a.order(id),
      orderByClientOrderId: (id) => a.orderByClientOrderId(id),
      conditionalOrder: (id) => a.conditionalOrder(id),
      conditionalOrderByClientId: (id) => a.conditionalOrderByClientId(id),
    },
    marketStore: rig.marketStore,
    markets: (s) => rig.markets.get(s),
  });
  manager.events$.pipe(takeUntil(kill)).subscribe((e) => events.push(e));
  return { manager, events, crash: () => kill.next() };
}

/** Events of one type. */
export function ofType<T extends OrderEvent['type']>(events: readonly OrderEvent[], type: T): Extract<OrderEvent, { type: T }>[] {
  return events.filter((e): e is Extract<OrderEvent, { type: T }> => e.type === type);
}
