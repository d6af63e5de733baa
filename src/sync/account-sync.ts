/**
 * Binds rule-4 synchronizers to {@link AccountStore}s: balances, orders, conditional orders, deposits, and
 * (rule 5) executions. Private sequences are independent per account (rule 2), so {@link AccountSync} keeps
 * one synchronizer per (stream, accountId) and one store per accountId; the same code serves a plain key
 * (one account) and a key that manages sub-accounts (`subaccounts_*` streams).
 */
import { map, merge, type Observable } from 'rxjs';
import type { Balance, ConditionalOrder, Deposit, Execution, Order } from '../model/index.js';
import type {
  BalanceMessage,
  ConditionalOrderMessage,
  DepositMessage,
  ExecutionMessage,
  OrderMessage,
  StreamMessage,
} from '../bittrex/hub/messages.js';
import type { AccountStore } from '../store/account-store.js';
import { syncExecutions, type ExecutionLastId } from './execution-sync.js';
import { KeyedSynchronizers } from './keyed-synchronizer.js';
import { Synchronizer, tuningOf, type SequencedSnapshot, type SyncStatus, type SyncTuning } from './synchronizer.js';

type Fetch<S> = () => Promise<SequencedSnapshot<S>>;

const byAccount = (m: { accountId: string }): string => m.accountId;

/** Keep `store.balances()` in step with `balance` (snapshot: GET /balances). */
export function syncBalances(opts: SyncTuning & { store: AccountStore; fetchSnapshot: Fetch<Balance[]> }): Synchronizer<Balance[], BalanceMessage> {
  const { store } = opts;
  return new Synchronizer<Balance[], BalanceMessage>({
    ...tuningOf(opts),
    name: `balance ${store.accountId ?? ''}`.trim(),
    fetchSnapshot: opts.fetchSnapshot,
    applier: { reset: (s) => store.setBalances(s, true), apply: (m) => store.setBalances([m.delta]) },
  });
}

/** Keep open and recently closed orders in step with `order` (snapshot: GET /orders/open). */
export function syncOrders(opts: SyncTuning & { store: AccountStore; fetchSnapshot: Fetch<Order[]> }): Synchronizer<Order[], OrderMessage> {
  const { store } = opts;
  return new Synchronizer<Order[], OrderMessage>({
    ...tuningOf(opts),
    name: `order ${store.accountId ?? ''}`.trim(),
    fetchSnapshot: opts.fetchSnapshot,
    applier: { reset: (s) => store.resetOpenOrders(s), apply: (m) => store.applyOrder(m.delta) },
  });
}

/** Keep conditional orders in step with `conditional_order` (snapshot: GET /conditional-orders/open). */
export function syncConditionalOrders(
  opts: SyncTuning & { store: AccountStore; fetchSnapshot: Fetch<ConditionalOrder[]> },
): Synchronizer<ConditionalOrder[], ConditionalOrderMessage> {
  const { store } = opts;
  return new Synchronizer<ConditionalOrder[], ConditionalOrderMessage>({
    ...tuningOf(opts),
    name: `conditional_order ${store.accountId ?? ''}`.trim(),
    fetchSnapshot: opts.fetchSnapshot,
    applier: { reset: (s) => store.resetOpenConditionalOrders(s), apply: (m) => store.applyConditionalOrder(m.delta) },
  });
}

/** Keep deposits in step with `deposit` (snapshot: GET /deposits/open). */
export function syncDeposits(opts: SyncTuning & { store: AccountStore; fetchSnapshot: Fetch<Deposit[]> }): Synchronizer<Deposit[], DepositMessage> {
  const { store } = opts;
  return new Synchronizer<Deposit[], DepositMessage>({
    ...tuningOf(opts),
    name: `deposit ${store.accountId ?? ''}`.trim(),
    fetchSnapshot: opts.fetchSnapshot,
    applier: { reset: (s) => store.resetOpenDeposits(s), apply: (m) => store.applyDeposit(m.delta) },
  });
}

/**
 * The REST calls behind the private streams, for one account. `accountId` is the stream's accountId; for a
 * sub-account the REST call is made on its behalf (Api-Subaccount-Id).
 */
export interface AccountSnapshotSource {
  balances(accountId: string): Promise<SequencedSnapshot<Balance[]>>;
  openOrders(accountId: string): Promise<SequencedSnapshot<Order[]>>;
  openConditionalOrders(accountId: string): Promise<SequencedSnapshot<ConditionalOrder[]>>;
  openDeposits(accountId: string): Promise<SequencedSnapshot<Deposit[]>>;
  /** GET /executions/last-id. */
  executionsLastId(accountId: string): Promise<ExecutionLastId>;
  /** Executions after `sinceId` (see `pageExecutionsSince`). */
  executionsSince(accountId: string, sinceId: string | undefined): Promise<Execution[]>;
}

/** A status of one (stream, account) synchronizer. */
export interface AccountSyncStatus {
  stream: 'balance' | 'order' | 'conditional_order' | 'deposit' | 'execution';
  accountId: string;
  status: SyncStatus;
}

/**
 * Every private-stream synchronizer, per account.
 *
 * @example
 * const stores = new Map<string, AccountStore>();
 * const sync = new AccountSync({ clock, snapshots,
 *   storeOf: (id) => stores.get(id) ?? stores.set(id, new AccountStore({ accountId: id })).get(id)! });
 * hub.messages$.subscribe((m) => sync.route(m));
 * sync.balances(myAccountId); // start the balance snapshot without waiting for a message
 */
export class AccountSync {
  readonly #balances: KeyedSynchronizers<string, Balance[], BalanceMessage>;
  readonly #orders: KeyedSynchronizers<string, Order[], OrderMessage>;
  readonly #conditional: KeyedSynchronizers<string, ConditionalOrder[], ConditionalOrderMessage>;
  readonly #deposits: KeyedSynchronizers<string, Deposit[], DepositMessage>;
  readonly #executions: KeyedSynchronizers<string, Execution[], ExecutionMessage>;

  constructor(opts: SyncTuning & { storeOf: (accountId: string) => AccountStore; snapshots: AccountSnapshotSource }) {
    const { storeOf, snapshots } = opts;
    const t = tuningOf(opts);
    this.#balances = new KeyedSynchronizers<string, Balance[], BalanceMessage>(byAccount, (id) =>
      syncBalances({ ...t, store: storeOf(id), fetchSnapshot: () => snapshots.balances(id) }),
    );
    this.#orders = new KeyedSynchronizers<string, Order[], OrderMessage>(byAccount, (id) =>
      syncOrders({ ...t, store: storeOf(id), fetchSnapshot: () => snapshots.openOrders(id) }),
    );
    this.#conditional = new KeyedSynchronizers<string, ConditionalOrder[], ConditionalOrderMessage>(byAccount, (id) =>
      syncConditionalOrders({ ...t, store: storeOf(id), fetchSnapshot: () => snapshots.openConditionalOrders(id) }),
    );
    this.#deposits = new KeyedSynchronizers<string, Deposit[], DepositMessage>(byAccount, (id) =>
      syncDeposits({ ...t, store: storeOf(id), fetchSnapshot: () => snapshots.openDeposits(id) }),
    );
    this.#executions = new KeyedSynchronizers<string, Execution[], ExecutionMessage>(byAccount, (id) =>
      syncExecutions({
        ...t,
        name: `execution ${id}`,
        cache: storeOf(id),
        fetchLastId: () => snapshots.executionsLastId(id),
        fetchExecutionsSince: (sinceId) => snapshots.executionsSince(id, sinceId),
      }),
    );
  }

  /** The balance synchronizer of an account, started on first use. */
  balances(accountId: string): Synchronizer<Balance[], BalanceMessage> {
    return this.#balances.get(accountId);
  }
  /** The order synchronizer of an account. */
  orders(accountId: string): Synchronizer<Order[], OrderMessage> {
    return this.#orders.get(accountId);
  }
  /** The conditional-order synchronizer of an account. */
  conditionalOrders(accountId: string): Synchronizer<ConditionalOrder[], ConditionalOrderMessage> {
    return this.#conditional.get(accountId);
  }
  /** The deposit synchronizer of an account. */
  deposits(accountId: string): Synchronizer<Deposit[], DepositMessage> {
    return this.#deposits.get(accountId);
  }
  /** The execution synchronizer of an account (rule 5). */
  executions(accountId: string): Synchronizer<Execution[], ExecutionMessage> {
    return this.#executions.get(accountId);
  }

  /** Hand one decoded message to the synchronizer of its (stream, account). False when it is not account data. */
  route(message: StreamMessage): boolean {
    switch (message.name) {
      case 'balance':
        this.#balances.push(message.data);
        return true;
      case 'order':
        this.#orders.push(message.data);
        return true;
      case 'conditionalOrder':
        this.#conditional.push(message.data);
        return true;
      case 'deposit':
        this.#deposits.push(message.data);
        return true;
      case 'execution':
        this.#executions.push(message.data);
        return true;
      default:
        return false;
    }
  }

  /** Status transitions of every (stream, account) synchronizer. */
  get status$(): Observable<AccountSyncStatus> {
    const tag = <K extends AccountSyncStatus['stream']>(stream: K, k: { status$: Observable<{ key: string; status: SyncStatus }> }) =>
      k.status$.pipe(map(({ key, status }) => ({ stream, accountId: key, status })));
    return merge(
      tag('balance', this.#balances),
      tag('order', this.#orders),
      tag('conditional_order', this.#conditional),
      tag('deposit', this.#deposits),
      tag('execution', this.#executions),
    );
  }

  /** The transport reconnected (or authentication was renewed after expiry): resync every account stream. */
  reconnect(): void {
    for (const k of [this.#balances, this.#orders, this.#conditional, this.#deposits, this.#executions]) k.reconnect();
  }

  /** Stop every synchronizer. */
  stop(): void {
    for (const k of [this.#balances, this.#orders, this.#conditional, this.#deposits, this.#executions]) k.stop();
  }
}
