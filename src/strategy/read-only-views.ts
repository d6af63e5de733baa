/**
 * Read-only facades over the stores for strategies (ARCHITECTURE principle 2: strategies read state, they never
 * mutate it). A type alone would not do: `ctx.market as MarketStore` would hand a plugin the writers. The facades
 * expose the read methods and observables only, and their `state$` emits the facade, never the store itself.
 */
import { map, type Observable } from 'rxjs';
import type { Balance, ConditionalOrder, Execution, Order } from '../model/index.js';
import type { AccountEvent, AccountStore } from '../store/account-store.js';
import type { ReadonlyMarketStore } from '../store/market-store.js';

/** What a strategy may read of its account: balances, orders, conditional orders and executions. */
export interface ReadonlyAccountView {
  balance(currencySymbol: string): Balance | undefined;
  balances(): ReadonlyMap<string, Balance>;
  /** Open orders, optionally of one market. */
  openOrders(marketSymbol?: string): Order[];
  /** An open or recently closed order by id. */
  order(id: string): Order | undefined;
  /** An open or recently closed order by the clientOrderId it was placed with. */
  orderByClientOrderId(clientOrderId: string): Order | undefined;
  recentClosedOrders(): Order[];
  openConditionalOrders(marketSymbol?: string): ConditionalOrder[];
  conditionalOrder(id: string): ConditionalOrder | undefined;
  conditionalOrderByClientId(clientConditionalOrderId: string): ConditionalOrder | undefined;
  execution(id: string): Execution | undefined;
  /** Kept executions in arrival order. */
  executions(): Execution[];
  /** Every change, after the store holds it. */
  readonly changes$: Observable<AccountEvent>;
  /** This view: now, then after every change. */
  readonly state$: Observable<ReadonlyAccountView>;
  /** The balance of a currency: now (if any), then after each change. */
  balance$(currencySymbol: string): Observable<Balance>;
  /** Open orders: now, then after every order change. */
  openOrders$(marketSymbol?: string): Observable<Order[]>;
}

/**
 * A read-only facade over a market store (a {@link MarketStore} or any {@link ReadonlyMarketStore}).
 *
 * @example
 * const view = readonlyMarketView(store);
 * view.bestBid('BTC-USD'); // reads through
 * 'resetBook' in view;     // false
 */
export function readonlyMarketView(store: ReadonlyMarketStore): ReadonlyMarketStore {
  let state$: Observable<ReadonlyMarketStore> | undefined;
  const view: ReadonlyMarketStore = {
    book: (m, d) => store.book(m, d),
    bestBid: (m) => store.bestBid(m),
    bestAsk: (m) => store.bestAsk(m),
    ticker: (m) => store.ticker(m),
    tickers: () => store.tickers(),
    summary: (m) => store.summary(m),
    summaries: () => store.summaries(),
    trades: (m) => store.trades(m),
    candles: (m, i) => store.candles(m, i),
    changes$: store.changes$,
    get state$() {
      return (state$ ??= store.state$.pipe(map(() => view)));
    },
    book$: (m, d) => store.book$(m, d),
    ticker$: (m) => store.ticker$(m),
    summary$: (m) => store.summary$(m),
    trades$: (m) => store.trades$(m),
    candles$: (m, i) => store.candles$(m, i),
  };
  return Object.freeze(view);
}

/**
 * A read-only facade over an account store.
 *
 * @example
 * const view = readonlyAccountView(account);
 * view.balance('BTC')?.available;
 * 'setBalances' in view; // false
 */
export function readonlyAccountView(store: AccountStore | ReadonlyAccountView): ReadonlyAccountView {
  let state$: Observable<ReadonlyAccountView> | undefined;
  const view: ReadonlyAccountView = {
    balance: (c) => store.balance(c),
    balances: () => store.balances(),
    openOrders: (m) => store.openOrders(m),
    order: (id) => store.order(id),
    orderByClientOrderId: (id) => store.orderByClientOrderId(id),
    recentClosedOrders: () => store.recentClosedOrders(),
    openConditionalOrders: (m) => store.openConditionalOrders(m),
    conditionalOrder: (id) => store.conditionalOrder(id),
    conditionalOrderByClientId: (id) => store.conditionalOrderByClientId(id),
    execution: (id) => store.execution(id),
    executions: () => store.executions(),
    changes$: store.changes$,
    get state$() {
      return (state$ ??= (store.state$ as Observable<unknown>).pipe(map(() => view)));
    },
    balance$: (c) => store.balance$(c),
    openOrders$: (m) => store.openOrders$(m),
  };
  return Object.freeze(view);
}
