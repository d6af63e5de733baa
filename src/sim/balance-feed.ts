/**
 * Balances as the v3 resource (GET /balances, /balances/{c}, HEAD /balances) and the `balance` stream.
 *
 * The ledger is the only source: this module subscribes to {@link Ledger.onChange} and publishes one `balance`
 * event per (account, currency) change, numbered by the account's own balance sequence (seed rule 2), so the
 * trading side never emits balance events itself and the REST snapshot and the stream share one counter.
 *
 * Listing rule (seed): one Balance per currency that "has a balance or an address". rexbot reads "has a
 * balance" as a non-zero total — a currency whose total went back to zero leaves the list (its last stream delta
 * said total 0, so a synchronized client holds the same zero), unless the account has a deposit address for it.
 * A currency never touched answers updatedAt = now, as the balance is (trivially) current.
 */
import type { Clock } from '../core/clock.js';
import type { Balance } from '../model/wallet.js';
import type { Catalog } from './catalog.js';
import type { SimEventBus } from './events.js';
import { FEE_ACCOUNT_ID, type Ledger } from './ledger.js';
import { type AccountCounters, seqKey, type SequenceCounters } from './sequences.js';

/** Dependencies of {@link BalanceFeed}. */
export interface BalanceFeedDeps {
  clock: Clock;
  ledger: Ledger;
  catalog: Catalog;
  bus: SimEventBus;
  sequences: SequenceCounters;
  /** Currencies the account has a deposit address for (requested or provisioned). */
  addressCurrencies: (accountId: string) => string[];
}

/** Balance snapshots and balance events. */
export class BalanceFeed {
  readonly #deps: BalanceFeedDeps;
  readonly #unsubscribe: () => void;
  /** Each account's `balance` counter, kept: a trade changes six to eight balances, each numbered. */
  readonly #counters: AccountCounters;

  constructor(deps: BalanceFeedDeps) {
    this.#deps = deps;
    this.#counters = deps.sequences.accountCounters('balance');
    this.#unsubscribe = deps.ledger.onChange((accountId, currency) => this.#publish(accountId, currency));
  }

  /** GET /balances: one Balance per currency with a non-zero total or a deposit address, sorted by currency. */
  balances(accountId: string): Balance[] {
    const held = new Map(this.#deps.ledger.list(accountId));
    const currencies = new Set<string>(this.#deps.addressCurrencies(accountId));
    for (const [cur, b] of held) if (!b.total.isZero()) currencies.add(cur);
    return [...currencies].sort().map((cur) => this.#balance(accountId, cur, held.has(cur)));
  }

  /** GET /balances/{currencySymbol}: succeeds for every listed currency (zero when never held); 404 otherwise. */
  balance(accountId: string, currencySymbol: string): Balance {
    const cur = this.#deps.catalog.currency(currencySymbol).symbol;
    const known = this.#deps.ledger.list(accountId).some(([c]) => c === cur);
    return this.#balance(accountId, cur, known);
  }

  /** HEAD /balances: the account's current balance-stream sequence. */
  sequence(accountId: string): number {
    return this.#deps.sequences.current(seqKey.account('balance', accountId));
  }

  /** Stop listening to the ledger (an engine being torn down). */
  dispose(): void {
    this.#unsubscribe();
  }

  /** `known`: the ledger has a record for the currency, so its updatedAt is meaningful. */
  #balance(accountId: string, currency: string, known: boolean): Balance {
    const b = this.#deps.ledger.get(accountId, currency);
    return {
      currencySymbol: currency,
      total: b.total,
      available: b.available,
      updatedAt: new Date(known ? b.updatedAt : this.#deps.clock.now()),
    };
  }

  #publish(accountId: string, currency: string): void {
    // The fee account is the exchange's own; nobody can subscribe to it, so numbering its changes is waste.
    if (accountId === FEE_ACCOUNT_ID) return;
    const sequence = this.#counters.next(accountId);
    // Numbered either way (REST reads the sequence); built only for a listener that would use it.
    if (!this.#deps.bus.wants('balance')) return;
    this.#deps.bus.emit({ kind: 'balance', accountId, sequence, delta: this.#balance(accountId, currency, true) });
  }
}
