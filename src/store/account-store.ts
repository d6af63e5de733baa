/**
 * The state of ONE account (master or sub-account) as the private streams describe it: balances, open orders
 * and conditional orders (by id and by client id), recently closed ones (bounded), executions (deduplicated by
 * id, bounded) and deposits. A key that manages sub-accounts keeps one store per accountId (rule 2: their
 * sequences are independent), see src/sync/account-sync.ts.
 *
 * Store, then publish: every write updates the maps before it emits on {@link AccountStore.changes$}.
 * Each stream delta is the full object (rule 3), so writes replace by unique key.
 */
import { BehaviorSubject, defer, filter, map, Observable, startWith } from 'rxjs';
import { Multicast } from '../core/multicast.js';
import { OldestFirst } from '../core/oldest-first.js';
import type { Balance, ConditionalOrder, Deposit, Execution, Order } from '../model/index.js';

/** A change, published after the store holds it. */
export type AccountEvent =
  | { kind: 'balances'; balances: readonly Balance[]; reset: boolean }
  /** One order changed; `order.status` tells whether it is still open. */
  | { kind: 'order'; order: Order }
  /** Open orders were replaced by a snapshot; `vanished` were open here but not in it (closed meanwhile). */
  | { kind: 'orders-reset'; open: readonly Order[]; vanished: readonly Order[] }
  | { kind: 'conditionalOrder'; order: ConditionalOrder }
  | { kind: 'conditional-orders-reset'; open: readonly ConditionalOrder[]; vanished: readonly ConditionalOrder[] }
  /** Executions not seen before, in arrival order. */
  | { kind: 'executions'; executions: readonly Execution[] }
  | { kind: 'deposit'; deposit: Deposit }
  | { kind: 'deposits-reset'; open: readonly Deposit[]; vanished: readonly Deposit[] };

/** Bounds of an {@link AccountStore}. */
export interface AccountStoreOptions {
  /** Which account this store describes (for logs and routing). */
  accountId?: string;
  /** Closed orders and conditional orders kept for lookups (default 1,000 each). */
  maxRecentClosed?: number;
  /** Executions kept for deduplication and reads (default 10,000). */
  maxExecutions?: number;
}

/**
 * Orders or conditional orders: open ones by id, recently closed ones by id (bounded, oldest evicted first),
 * and both by client id.
 */
class OrderBookkeeping<T extends { id: string; status: string }> {
  readonly open = new Map<string, T>();
  readonly closed = new Map<string, T>();
  readonly byClientId = new Map<string, string>();
  readonly #oldestClosed = new OldestFirst(this.closed);
  constructor(
    private readonly clientIdOf: (o: T) => string | undefined,
    private readonly maxClosed: number,
  ) {}

  get(id: string): T | undefined {
    return this.open.get(id) ?? this.closed.get(id);
  }

  byClient(clientId: string): T | undefined {
    const id = this.byClientId.get(clientId);
    return id === undefined ? undefined : this.get(id);
  }

  upsert(o: T): void {
    const cid = this.clientIdOf(o);
    if (cid !== undefined) this.byClientId.set(cid, o.id);
    if (o.status === 'OPEN') {
      this.closed.delete(o.id);
      this.open.set(o.id, o);
      return;
    }
    this.open.delete(o.id);
    this.closed.delete(o.id); // re-insert so eviction order follows the latest close
    this.closed.set(o.id, o);
    if (this.closed.size > this.maxClosed) {
      const [oldestId, oldest] = this.#oldestClosed.shift()!;
      const ocid = this.clientIdOf(oldest);
      if (ocid !== undefined && this.byClientId.get(ocid) === oldestId) this.byClientId.delete(ocid);
    }
  }

  /** Replace the open set with a snapshot; returns what was open but is not in it. */
  resetOpen(snapshot: readonly T[]): T[] {
    const keep = new Set(snapshot.map((o) => o.id));
    const vanished: T[] = [];
    for (const [id, o] of this.open) {
      if (keep.has(id)) continue;
      vanished.push(o);
      this.open.delete(id);
      const cid = this.clientIdOf(o);
      if (cid !== undefined && this.byClientId.get(cid) === id) this.byClientId.delete(cid);
    }
    for (const o of snapshot) this.upsert(o);
    return vanished;
  }
}

/**
 * One account's store.
 *
 * @example
 * const account = new AccountStore({ accountId });
 * account.changes$.subscribe((e) => e.kind === 'order' && e.order.status === 'CLOSED' && onClosed(e.order));
 * account.orderByClientOrderId(myClientId)?.status;
 */
export class AccountStore {
  readonly accountId: string | undefined;
  readonly #balances = new Map<string, Balance>();
  readonly #orders: OrderBookkeeping<Order>;
  readonly #conditional: OrderBookkeeping<ConditionalOrder>;
  readonly #executions = new Map<string, Execution>();
  readonly #oldestExecution = new OldestFirst(this.#executions);
  #newestExecution: Execution | undefined;
  readonly #deposits = new Map<string, Deposit>();
  readonly #maxExecutions: number;
  /** A Subject's fan-out without its per-value closure and iterator (src/core/multicast.ts): one per account event. */
  readonly #changes = new Multicast<AccountEvent>();
  readonly #state: BehaviorSubject<AccountStore> = new BehaviorSubject<AccountStore>(this);

  /** Every change, after the store holds it. */
  readonly changes$: Observable<AccountEvent> = this.#changes.observable;
  /** The store itself: now, then after every change. */
  readonly state$: Observable<AccountStore> = this.#state.asObservable();

  constructor(options: AccountStoreOptions = {}) {
    this.accountId = options.accountId;
    const maxClosed = options.maxRecentClosed ?? 1000;
    this.#orders = new OrderBookkeeping<Order>((o) => o.clientOrderId, maxClosed);
    this.#conditional = new OrderBookkeeping<ConditionalOrder>((o) => o.clientConditionalOrderId, maxClosed);
    this.#maxExecutions = options.maxExecutions ?? 10_000;
  }

  #publish(event: AccountEvent): void {
    this.#changes.next(event);
    // Its value is always the store: without a subscriber there is nothing to tell.
    if (this.#state.observed) this.#state.next(this);
  }

  // ---- writes (synchronizers) ----

  /** Store balances; `reset` replaces all (GET /balances snapshot). */
  setBalances(balances: readonly Balance[], reset = false): void {
    if (reset) this.#balances.clear();
    for (const b of balances) this.#balances.set(b.currencySymbol, b);
    this.#publish({ kind: 'balances', balances, reset });
  }

  /** Store one order's full state: open ones stay open, closed ones move to the recent-closed list. */
  applyOrder(order: Order): void {
    this.#orders.upsert(order);
    this.#publish({ kind: 'order', order });
  }

  /** Replace open orders with a GET /orders/open snapshot. */
  resetOpenOrders(open: readonly Order[]): void {
    const vanished = this.#orders.resetOpen(open);
    this.#publish({ kind: 'orders-reset', open, vanished });
  }

  /** Store one conditional order's full state (any status but OPEN counts as closed). */
  applyConditionalOrder(order: ConditionalOrder): void {
    this.#conditional.upsert(order);
    this.#publish({ kind: 'conditionalOrder', order });
  }

  /** Replace open conditional orders with a GET /conditional-orders/open snapshot. */
  resetOpenConditionalOrders(open: readonly ConditionalOrder[]): void {
    const vanished = this.#conditional.resetOpen(open);
    this.#publish({ kind: 'conditional-orders-reset', open, vanished });
  }

  /** Add executions not seen before (by id); returns the new ones. Executions are immutable, so a repeat is ignored. */
  addExecutions(executions: readonly Execution[]): Execution[] {
    const added: Execution[] = [];
    for (const e of executions) {
      if (this.#executions.has(e.id)) continue;
      this.#executions.set(e.id, e);
      added.push(e);
      if (!this.#newestExecution || e.executedAt.getTime() >= this.#newestExecution.executedAt.getTime()) this.#newestExecution = e;
    }
    while (this.#executions.size > this.#maxExecutions) {
      const [oldestId] = this.#oldestExecution.shift()!;
      if (this.#newestExecution?.id === oldestId) this.#newestExecution = latest(this.#executions.values());
    }
    if (added.length > 0) this.#publish({ kind: 'executions', executions: added });
    return added;
  }

  /** Store one deposit's full state. */
  applyDeposit(deposit: Deposit): void {
    this.#deposits.set(deposit.id, deposit);
    this.#publish({ kind: 'deposit', deposit });
  }

  /** Replace PENDING deposits with a GET /deposits/open snapshot (settled deposits stay). */
  resetOpenDeposits(open: readonly Deposit[]): void {
    const keep = new Set(open.map((d) => d.id));
    const vanished: Deposit[] = [];
    for (const [id, d] of this.#deposits) {
      if (d.status === 'PENDING' && !keep.has(id)) {
        vanished.push(d);
        this.#deposits.delete(id);
      }
    }
    for (const d of open) this.#deposits.set(d.id, d);
    this.#publish({ kind: 'deposits-reset', open, vanished });
  }

  // ---- reads ----

  balance(currencySymbol: string): Balance | undefined {
    return this.#balances.get(currencySymbol);
  }

  balances(): ReadonlyMap<string, Balance> {
    return this.#balances;
  }

  /** Open orders, optionally of one market. */
  openOrders(marketSymbol?: string): Order[] {
    const all = [...this.#orders.open.values()];
    return marketSymbol === undefined ? all : all.filter((o) => o.marketSymbol === marketSymbol);
  }

  /** An open or recently closed order by id. */
  order(id: string): Order | undefined {
    return this.#orders.get(id);
  }

  /** An open or recently closed order by the clientOrderId it was placed with. */
  orderByClientOrderId(clientOrderId: string): Order | undefined {
    return this.#orders.byClient(clientOrderId);
  }

  /** Recently closed orders, oldest close first. */
  recentClosedOrders(): Order[] {
    return [...this.#orders.closed.values()];
  }

  openConditionalOrders(marketSymbol?: string): ConditionalOrder[] {
    const all = [...this.#conditional.open.values()];
    return marketSymbol === undefined ? all : all.filter((o) => o.marketSymbol === marketSymbol);
  }

  conditionalOrder(id: string): ConditionalOrder | undefined {
    return this.#conditional.get(id);
  }

  conditionalOrderByClientId(clientConditionalOrderId: string): ConditionalOrder | undefined {
    return this.#conditional.byClient(clientConditionalOrderId);
  }

  recentClosedConditionalOrders(): ConditionalOrder[] {
    return [...this.#conditional.closed.values()];
  }

  hasExecution(id: string): boolean {
    return this.#executions.has(id);
  }

  execution(id: string): Execution | undefined {
    return this.#executions.get(id);
  }

  /** Kept executions in arrival order. */
  executions(): Execution[] {
    return [...this.#executions.values()];
  }

  /** The kept execution with the latest executedAt (the last to arrive among equals). */
  newestExecution(): Execution | undefined {
    return this.#newestExecution;
  }

  deposit(id: string): Deposit | undefined {
    return this.#deposits.get(id);
  }

  deposits(): Deposit[] {
    return [...this.#deposits.values()];
  }

  // ---- observables ----

  /** The balance of a currency: now (if any), then after each change. */
  balance$(currencySymbol: string): Observable<Balance> {
    const updates = this.changes$.pipe(
      filter((e) => e.kind === 'balances'),
      map(() => this.balance(currencySymbol)),
      filter((b): b is Balance => b !== undefined),
    );
    return defer(() => {
      const now = this.balance(currencySymbol);
      return now ? updates.pipe(startWith(now)) : updates;
    });
  }

  /** Open orders: now, then after every order change. */
  openOrders$(marketSymbol?: string): Observable<Order[]> {
    const updates = this.changes$.pipe(
      filter((e) => e.kind === 'order' || e.kind === 'orders-reset'),
      map(() => this.openOrders(marketSymbol)),
    );
    return defer(() => updates.pipe(startWith(this.openOrders(marketSymbol))));
  }
}

function latest(executions: Iterable<Execution>): Execution | undefined {
  let best: Execution | undefined;
  for (const e of executions) if (!best || e.executedAt.getTime() >= best.executedAt.getTime()) best = e;
  return best;
}
