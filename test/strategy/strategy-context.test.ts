import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { dec, ZERO, type Decimal } from '../../src/core/decimal.js';
import type { Balance, Trade } from '../../src/model/index.js';
import type { OrderEvent } from '../../src/orders/order-events.js';
import { AccountStore } from '../../src/store/account-store.js';
import { MarketStore } from '../../src/store/market-store.js';
import { contextLifecycle, createStrategyContext } from '../../src/strategy/strategy-context.js';
import { currentStrategy, strategyScopesTracked, trackStrategyScopes } from '../../src/strategy/strategy-scope.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { testMarket } from '../helpers/strategy-harness.js';

const M = 'BTC-USD';

function build() {
  const clock = new VirtualClock(0);
  const marketStore = new MarketStore();
  const account = new AccountStore();
  const events = new Subject<OrderEvent>();
  const positions = new Map<string, Decimal>([['mm|BTC-USD', dec('0.5')], ['other|BTC-USD', dec('9')]]);
  const lines: string[] = [];
  const ctx = createStrategyContext({
    name: 'mm',
    params: { spread: dec('0.01') },
    clock,
    logger: createLogger({ level: 'info', destination: { write: (l: string) => void lines.push(l) } }),
    markets: [M],
    marketStore,
    account,
    portfolio: { position: (m, s) => positions.get(`${s}|${m}`) ?? ZERO },
    orderEvents$: events,
    marketInfo: (s) => (s === M ? testMarket(M, { precision: 3 }) : undefined),
    bookDepth: 1,
  });
  return { clock, marketStore, account, events, ctx, lines };
}

const trade = (id: string, rate: string): Trade => ({ id, executedAt: new Date(0), quantity: dec(1), rate: dec(rate), takerSide: 'SELL' });
const balance = (c: string, total: string): Balance => ({ currencySymbol: c, total: dec(total), available: dec(total), updatedAt: new Date(0) });

describe('createStrategyContext', () => {
  it('exposes name, params, markets, reference data, its own positions and a child logger', () => {
    const { ctx, lines } = build();
    expect(ctx.name).toBe('mm');
    expect(ctx.params.spread.toString()).toBe('0.01');
    expect(ctx.markets).toEqual([M]);
    expect(ctx.marketInfo(M)?.precision).toBe(3);
    expect(ctx.marketInfo('ETH-USD')).toBeUndefined();
    expect(ctx.portfolio.position(M).toString()).toBe('0.5'); // this strategy's, not another's
    ctx.log.info('hello');
    expect(JSON.parse(lines[0]!)).toMatchObject({ strategy: 'mm', msg: 'hello' });
    expect(Object.isFrozen(ctx)).toBe(true);
  });

  it('gives read-only views of the stores: reads pass through, writers are absent', () => {
    const { ctx, marketStore, account } = build();
    marketStore.resetBook(M, 1, { bid: [{ rate: dec(100), quantity: dec(1) }], ask: [{ rate: dec(101), quantity: dec(2) }] });
    account.setBalances([balance('USD', '1000')], true);
    expect(ctx.market.bestBid(M)?.rate.toString()).toBe('100');
    expect(ctx.mid(M)?.toString()).toBe('100.5');
    expect(ctx.mid('ETH-USD')).toBeUndefined();
    expect(ctx.account.balance('USD')?.available.toString()).toBe('1000');
    for (const writer of ['resetBook', 'applyBookDeltas', 'setTickers', 'addTrades', 'upsertCandles']) expect(writer in ctx.market).toBe(false);
    for (const writer of ['setBalances', 'applyOrder', 'addExecutions', 'resetOpenOrders']) expect(writer in ctx.account).toBe(false);
    const states: unknown[] = [];
    ctx.market.state$.subscribe((s) => states.push(s));
    ctx.account.state$.subscribe((s) => states.push(s));
    expect(states).toEqual([ctx.market, ctx.account]); // the facades, never the stores
  });

  it('book$ uses the runtime depth; candles$, ticker$ and marketEvents$ pass the store through', () => {
    const { ctx, marketStore } = build();
    const bids: string[] = [];
    ctx.book$(M).subscribe((b) => bids.push(`${b.depth}:${b.bestBid()?.rate}`));
    marketStore.resetBook(M, 25, { bid: [{ rate: dec(1), quantity: dec(1) }], ask: [] });
    marketStore.resetBook(M, 1, { bid: [{ rate: dec(2), quantity: dec(1) }], ask: [] });
    expect(bids).toEqual(['1:2']);
    const kinds: string[] = [];
    ctx.marketEvents$.subscribe((e) => kinds.push(e.kind));
    marketStore.setTickers([{ symbol: M, lastTradeRate: dec(1), bidRate: dec(1), askRate: dec(2) }]);
    expect(kinds).toEqual(['tickers']);
  });

  it('trades$ emits each trade once, one at a time, even when a resync replays them', () => {
    const { ctx, marketStore } = build();
    const seen: string[] = [];
    ctx.trades$(M).subscribe((t) => seen.push(t.id));
    marketStore.addTrades(M, [trade('a', '1'), trade('b', '2')]);
    marketStore.addTrades(M, [trade('c', '3'), trade('b', '2'), trade('a', '1')], true); // snapshot after a resync
    marketStore.addTrades(M, [trade('d', '4')]);
    expect(seen).toEqual(['a', 'b', 'c', 'd']);
  });

  it("delivers in the strategy's scope only while a watcher tracks scopes (rexbot validate), straight otherwise", () => {
    const { ctx, marketStore } = build();
    const scopes: (string | undefined)[] = [];
    ctx.trades$(M).subscribe(() => scopes.push(currentStrategy()));
    const untrack = trackStrategyScopes();
    try {
      ctx.trades$(M).subscribe(() => scopes.push(currentStrategy()));
      marketStore.addTrades(M, [trade('a', '1')]);
    } finally {
      untrack();
    }
    // The subscription made before tracking began pays for no scope; the one made during it is in 'mm'.
    expect(scopes).toEqual([undefined, 'mm']);
    expect(strategyScopesTracked()).toBe(false);
  });

  it("orderEvents$ and fills$ carry only this strategy's events", () => {
    const { ctx, events } = build();
    const types: string[] = [];
    const fills: string[] = [];
    ctx.orderEvents$.subscribe((e) => types.push(`${e.strategy}:${e.type}`));
    ctx.fills$(M).subscribe((f) => fills.push(f.executionId));
    ctx.fills$('ETH-USD').subscribe((f) => fills.push(`eth ${f.executionId}`));
    const fill = (strategy: string, executionId: string): OrderEvent => ({
      type: 'fill', strategy, intentKey: 'k', clientOrderId: 'c', orderId: 'o', marketSymbol: M, direction: 'BUY',
      quantity: dec(1), rate: dec(1), commission: ZERO, isTaker: true, executionId, at: 0,
    });
    events.next({ type: 'submitted', strategy: 'mm', intentKey: 'k', clientOrderId: 'c', at: 0 });
    events.next(fill('other', 'e0'));
    events.next(fill('mm', 'e1'));
    expect(types).toEqual(['mm:submitted', 'mm:fill']);
    expect(fills).toEqual(['e1']);
  });

  it('every(ms) ticks on the clock and refuses a zero period', async () => {
    const { ctx, clock } = build();
    const ticks: number[] = [];
    ctx.every(250).subscribe(() => ticks.push(clock.now()));
    await clock.advance(600);
    expect(ticks).toEqual([250, 500]);
    expect(() => ctx.every(0)).toThrow('every(ms) needs a period of at least 1 ms, got 0');
  });

  it('dispose closes every subscription opened through the context and its timers', async () => {
    const { ctx, marketStore, clock, events } = build();
    const seen: string[] = [];
    ctx.book$(M).subscribe(() => seen.push('book'));
    ctx.every(10).subscribe(() => seen.push('tick'));
    ctx.orderEvents$.subscribe(() => seen.push('event'));
    contextLifecycle(ctx)!.dispose();
    marketStore.resetBook(M, 1, { bid: [], ask: [] });
    events.next({ type: 'submitted', strategy: 'mm', intentKey: 'k', clientOrderId: 'c', at: 0 });
    await clock.advance(100);
    expect(seen).toEqual([]);
    let completed = false;
    ctx.ticker$(M).subscribe({ complete: () => (completed = true) });
    expect(completed).toBe(true); // a stopped strategy's new subscriptions end at once
  });
});
