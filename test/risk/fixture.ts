/** A small, real risk context: a MarketStore with books, reference markets, balances and a Portfolio. */
import { VirtualClock } from '../../src/core/clock.js';
import { type Decimal, dec, ZERO } from '../../src/core/decimal.js';
import type { ProposedOrder } from '../../src/model/intent.js';
import type { Market, OrderBookEntry } from '../../src/model/market.js';
import { Portfolio } from '../../src/portfolio/portfolio.js';
import { estimateFill } from '../../src/risk/order-value.js';
import { type RiskConfig, defaultRiskConfig } from '../../src/risk/risk-config.js';
import type { CheckContext, CheckResult, RiskContext, TradingState } from '../../src/risk/risk-context.js';
import { MarketStore } from '../../src/store/market-store.js';
import { fillEvent } from '../helpers/fill-event.js';

export const T0 = Date.parse('2021-06-14T10:00:00Z');

const market = (symbol: string, precision: number, minTradeSize: string, status: 'ONLINE' | 'OFFLINE' = 'ONLINE'): Market => {
  const [base, quote] = symbol.split('-') as [string, string];
  return { symbol, baseCurrencySymbol: base, quoteCurrencySymbol: quote, precision, minTradeSize: dec(minTradeSize), status, createdAt: new Date(0) };
};

export const lvl = (quantity: string, rate: string): OrderBookEntry => ({ quantity: dec(quantity), rate: dec(rate) });

/** Everything a test may tweak, and the context built over it. */
export interface Fixture {
  clock: VirtualClock;
  store: MarketStore;
  portfolio: Portfolio;
  markets: Map<string, Market>;
  balances: Map<string, Decimal>;
  inFlight: Map<string, Decimal>;
  openOrders: { count: number };
  notLive: Set<string>;
  ctx: RiskContext;
  /** Apply a fill to the portfolio. */
  fill(direction: 'BUY' | 'SELL', quantity: string, rate: string, opts?: { strategy?: string; market?: string; commission?: string }): void;
  /** Replace the BTC-USD book (depth 25). */
  book(market: string, bids: OrderBookEntry[], asks: OrderBookEntry[]): void;
}

/**
 * BTC-USD: precision 3, minTradeSize 0.0001, book 29990/30010 (mid 30000).
 * ETH-BTC: precision 6, minTradeSize 0.01, book 0.0499/0.0501 (mid 0.05).
 * XRP-USD: OFFLINE. Balances: 100,000 USD, 10 BTC, 100 ETH. USD is worth 1/30000 BTC.
 */
export function fixture(): Fixture {
  const clock = new VirtualClock(T0);
  const store = new MarketStore();
  const portfolio = new Portfolio({ clock, quoteCurrency: 'USD' });
  const markets = new Map([market('BTC-USD', 3, '0.0001'), market('ETH-BTC', 6, '0.01'), market('XRP-USD', 5, '1', 'OFFLINE')].map((m) => [m.symbol, m]));
  const balances = new Map([['USD', dec('100000')], ['BTC', dec('10')], ['ETH', dec('100')]]);
  const inFlight = new Map<string, Decimal>();
  const openOrders = { count: 0 };
  const notLive = new Set<string>();
  store.resetBook('BTC-USD', 25, { bid: [lvl('1', '29990'), lvl('2', '29980')], ask: [lvl('1', '30010'), lvl('2', '30020')] }, 1);
  store.resetBook('ETH-BTC', 25, { bid: [lvl('50', '0.0499')], ask: [lvl('50', '0.0501')] }, 1);
  let seq = 0;
  const ctx: RiskContext = {
    clock,
    market: (s) => markets.get(s),
    marketStore: store,
    streamLive: (s) => !notLive.has(s),
    available: (c) => balances.get(c) ?? ZERO,
    openOrderCount: () => openOrders.count,
    inFlightReserved: (c) => inFlight.get(c) ?? ZERO,
    portfolio,
    btcValue: (c, a) => (c === 'BTC' ? a : c === 'USD' ? a.div(30000) : c === 'ETH' ? a.times('0.05') : undefined),
  };
  return {
    clock,
    store,
    portfolio,
    markets,
    balances,
    inFlight,
    openOrders,
    notLive,
    ctx,
    fill(direction, quantity, rate, opts = {}) {
      portfolio.onFill(fillEvent(++seq, { direction, quantity, rate, ...opts, isTaker: false, at: clock.now() }));
    },
    book(m, bids, asks) {
      store.resetBook(m, 25, { bid: bids, ask: asks }, ++seq);
    },
  };
}

/** A check context over the fixture, with the engine's own state given. */
export function checkCtx(fx: Fixture, extra: { tradingState?: TradingState; approvalsInWindow?: number } = {}): CheckContext {
  return {
    ...fx.ctx,
    tradingState: extra.tradingState ?? 'ACTIVE',
    approvalsInWindow: extra.approvalsInWindow ?? 0,
    estimate: (o) => estimateFill(o, fx.store),
  };
}

/** A config with overrides. */
export function config(overrides: Partial<RiskConfig> = {}): RiskConfig {
  return { ...defaultRiskConfig(), ...overrides };
}

/** A limit buy of 0.01 BTC at 30000 on BTC-USD by strategy s1, unless overridden. */
export function order(overrides: Partial<ProposedOrder> = {}): ProposedOrder {
  return {
    strategy: 's1',
    intentKey: 'k1',
    reducesPosition: false,
    marketSymbol: 'BTC-USD',
    direction: 'BUY',
    type: 'LIMIT',
    timeInForce: 'GOOD_TIL_CANCELLED',
    quantity: dec('0.01'),
    limit: dec('30000'),
    ...overrides,
  };
}

/** A market order (no limit) of `quantity`, IOC. */
export function marketOrder(direction: 'BUY' | 'SELL', quantity: string, overrides: Partial<ProposedOrder> = {}): ProposedOrder {
  const { limit: _omit, ...base } = order({ direction, type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec(quantity) });
  return { ...base, ...overrides };
}

/** Reason codes of a check result (rounded results: their reasons). */
export function codes(result: CheckResult): string[] {
  return ('order' in result ? (result.reasons ?? []) : result).map((r) => r.code);
}
