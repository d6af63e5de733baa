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
 * A read-only facade over an account store. What it hands out are frozen copies of the store's records (balances,
 * orders, executions, and the records inside change events), not the records themselves: a plugin that wrote
 * `ctx.account.balance('USD').available = …` changed the store every reader shares, the risk engine's balance
 * check included (found by an attack pass: a balance raised to 1e12 let orders through that check). Writing to
 * a copy throws in a module (strict mode) and changes nothing.
 *
 * @example
 * const view = readonlyAccountView(account);
 * view.balance('BTC')?.available;
 * 'setBalances' in view; // false
 */
export function readonlyAccountView(store: AccountStore | ReadonlyAccountView): ReadonlyAccountView {
  let state$: Observable<ReadonlyAccountView> | undefined;
  const view: ReadonlyAccountView = {
    balance: (c) => copyOf(store.balance(c)),
    balances: () => new Map([...store.balances()].map(([c, b]) => [c, copyOf(b)])),
    openOrders: (m) => copies(store.openOrders(m)),
    order: (id) => copyOf(store.order(id)),
    orderByClientOrderId: (id) => copyOf(store.orderByClientOrderId(id)),
    recentClosedOrders: () => copies(store.recentClosedOrders()),
    openConditionalOrders: (m) => copies(store.openConditionalOrders(m)),
    conditionalOrder: (id) => copyOf(store.conditionalOrder(id)),
    conditionalOrderByClientId: (id) => copyOf(store.conditionalOrderByClientId(id)),
    execution: (id) => copyOf(store.execution(id)),
    executions: () => copies(store.executions()),
    changes$: store.changes$.pipe(map(eventCopy)),
    get state$() {
      return (state$ ??= (store.state$ as Observable<unknown>).pipe(map(() => view)));
    },
    balance$: (c) => store.balance$(c).pipe(map((b) => copyOf(b))),
    openOrders$: (m) => store.openOrders$(m).pipe(map(copies)),
  };
  return Object.freeze(view);
}

/** A frozen shallow copy of a record (its Decimals are immutable values already). */
function copyOf<T extends object>(record: T): Readonly<T>;
function copyOf<T extends object>(record: T | undefined): Readonly<T> | undefined;
function copyOf<T extends object>(record: T | undefined): Readonly<T> | undefined {
  return record === undefined ? undefined : Object.freeze({ ...record });
}

/** Frozen copies of records, in a new array. */
function copies<T extends object>(records: readonly T[]): T[] {
  return records.map((r) => copyOf(r));
}

/** An account event whose records (one, or lists of them) are frozen copies. */
function eventCopy(e: AccountEvent): AccountEvent {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) {
    out[k] = Array.isArray(v) ? Object.freeze(copies(v as object[])) : v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype ? copyOf(v as object) : v;
  }
  return Object.freeze(out) as unknown as AccountEvent;
}
