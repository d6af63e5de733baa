/**
 * The ledger: every balance of every account, and the only code that moves money.
 *
 * A balance is `total` and `held` (reserved for open orders and pending withdrawals); `available = total - held`.
 * Money enters only through {@link Ledger.credit} (deposits, demo funding), leaves only through
 * {@link Ledger.debit} (completed withdrawals), and otherwise only moves between accounts with
 * {@link Ledger.move} (trade settlement, commission to the fee account, sub-account transfers). So for each
 * currency: sum over accounts (fee account included) = credited - debited, exactly — see {@link Ledger.audit}.
 */
import type { Clock } from '../core/clock.js';
import { type Decimal, ZERO, dlt } from '../core/decimal.js';
import { dadd, dsub } from '../core/decimal-fast.js';
import { conflict } from './sim-error.js';

/** The account that collects commission. */
export const FEE_ACCOUNT_ID = '00000000-0000-0000-0000-00000000fee5';

/** One balance as the engine keeps it. */
export interface LedgerBalance {
  readonly total: Decimal;
  readonly held: Decimal;
  readonly available: Decimal;
  /** Epoch ms of the last change. */
  readonly updatedAt: number;
}

interface Cell {
  total: Decimal;
  held: Decimal;
  updatedAt: number;
}

/** Called after every balance change, once per (account, currency) touched. */
export type LedgerListener = (accountId: string, currency: string) => void;

/** Result of {@link Ledger.audit} for one currency. */
export interface CurrencyAudit {
  currency: string;
  /** Sum of totals over every account, fee account included. */
  held: Decimal;
  total: Decimal;
  credited: Decimal;
  debited: Decimal;
  /** `total - (credited - debited)`: zero when the currency is conserved. */
  discrepancy: Decimal;
}

/** All balances of the simulated exchange. Amounts must be positive decimals; checks throw before any change. */
export class Ledger {
  readonly #cells = new Map<string, Map<string, Cell>>();
  readonly #credited = new Map<string, Decimal>();
  readonly #debited = new Map<string, Decimal>();
  readonly #listeners = new Set<LedgerListener>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** The balance of `accountId` in `currency` (zero when never touched). */
  get(accountId: string, currency: string): LedgerBalance {
    const c = this.#cells.get(accountId)?.get(currency);
    if (!c) return { total: ZERO, held: ZERO, available: ZERO, updatedAt: 0 };
    return { total: c.total, held: c.held, available: dsub(c.total, c.held), updatedAt: c.updatedAt };
  }

  /** Currencies `accountId` has ever held, with their balances. */
  list(accountId: string): Array<[currency: string, balance: LedgerBalance]> {
    const m = this.#cells.get(accountId);
    if (!m) return [];
    return [...m.keys()].sort().map((cur) => [cur, this.get(accountId, cur)]);
  }

  /** True when `available >= amount`. */
  canSpend(accountId: string, currency: string, amount: Decimal): boolean {
    return this.get(accountId, currency).available.gte(amount);
  }

  /** Notify `listener` after each change. Returns an unsubscribe function. */
  onChange(listener: LedgerListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Money enters the exchange (a deposit, demo funding). */
  credit(accountId: string, currency: string, amount: Decimal): void {
    positive(amount);
    const c = this.#cell(accountId, currency);
    c.total = dadd(c.total, amount);
    this.#credited.set(currency, (this.#credited.get(currency) ?? ZERO).plus(amount));
    this.#touch(c, accountId, currency);
  }

  /** Money leaves the exchange from a held amount (a completed withdrawal). */
  debit(accountId: string, currency: string, amount: Decimal): void {
    positive(amount);
    const c = this.#cell(accountId, currency);
    if (dlt(c.held, amount)) throw new Error(`ledger: debit ${amount} ${currency} exceeds held ${c.held} of ${accountId}`);
    c.total = dsub(c.total, amount);
    c.held = dsub(c.held, amount);
    this.#debited.set(currency, (this.#debited.get(currency) ?? ZERO).plus(amount));
    this.#touch(c, accountId, currency);
  }

  /**
   * Reserve `amount` of the available balance; 409 INSUFFICIENT_FUNDS when not enough is available. `at` (epoch ms,
   * default the clock's now) is the time of the change; trading passes its operation's time (see {@link move}).
   */
  hold(accountId: string, currency: string, amount: Decimal, at?: number): void {
    if (amount.isZero()) return;
    positive(amount);
    const c = this.#cell(accountId, currency);
    if (dlt(dsub(c.total, c.held), amount)) {
      throw conflict('INSUFFICIENT_FUNDS', `${currency} available ${c.total.minus(c.held).toFixed()} < ${amount.toFixed()}`);
    }
    c.held = dadd(c.held, amount);
    this.#touch(c, accountId, currency, at);
  }

  /** Return a reserved amount to available (`at` as for {@link hold}). */
  release(accountId: string, currency: string, amount: Decimal, at?: number): void {
    if (amount.isZero()) return;
    positive(amount);
    const c = this.#cell(accountId, currency);
    if (dlt(c.held, amount)) throw new Error(`ledger: release ${amount} ${currency} exceeds held ${c.held} of ${accountId}`);
    c.held = dsub(c.held, amount);
    this.#touch(c, accountId, currency, at);
  }

  /**
   * Move money between two accounts. With `fromHeld` the amount comes out of the sender's reserved balance
   * (settling an order), otherwise out of its available balance (409 INSUFFICIENT_FUNDS if short).
   * `opts.at` (epoch ms, default the clock's now, read once for both balances) is the time of the change: trading
   * passes the time of its operation, which is what the balances' `updatedAt` says, instead of reading the system
   * clock for every balance it touches (several reads per fill, each a clock call).
   */
  move(from: string, to: string, currency: string, amount: Decimal, opts: { fromHeld: boolean; at?: number }): void {
    if (amount.isZero()) return;
    positive(amount);
    const a = this.#cell(from, currency);
    if (opts.fromHeld) {
      if (dlt(a.held, amount)) throw new Error(`ledger: move ${amount} ${currency} exceeds held ${a.held} of ${from}`);
    } else if (dlt(dsub(a.total, a.held), amount)) {
      throw conflict('INSUFFICIENT_FUNDS', `${currency} available ${a.total.minus(a.held).toFixed()} < ${amount.toFixed()}`);
    }
    const b = this.#cell(to, currency);
    a.total = dsub(a.total, amount);
    if (opts.fromHeld) a.held = dsub(a.held, amount);
    b.total = dadd(b.total, amount);
    const at = opts.at ?? this.#clock.now();
    this.#touch(a, from, currency, at);
    this.#touch(b, to, currency, at);
  }

  /** Conservation check per currency: the sum of all balances equals what came in minus what went out. */
  audit(): CurrencyAudit[] {
    const currencies = new Set<string>([...this.#credited.keys(), ...this.#debited.keys()]);
    for (const m of this.#cells.values()) for (const cur of m.keys()) currencies.add(cur);
    const out: CurrencyAudit[] = [];
    for (const currency of [...currencies].sort()) {
      let total = ZERO;
      let held = ZERO;
      for (const m of this.#cells.values()) {
        const c = m.get(currency);
        if (c) {
          total = total.plus(c.total);
          held = held.plus(c.held);
        }
      }
      const credited = this.#credited.get(currency) ?? ZERO;
      const debited = this.#debited.get(currency) ?? ZERO;
      out.push({ currency, total, held, credited, debited, discrepancy: total.minus(credited.minus(debited)) });
    }
    return out;
  }

  #cell(accountId: string, currency: string): Cell {
    let m = this.#cells.get(accountId);
    if (!m) this.#cells.set(accountId, (m = new Map()));
    let c = m.get(currency);
    if (!c) m.set(currency, (c = { total: ZERO, held: ZERO, updatedAt: this.#clock.now() }));
    return c;
  }

  #touch(c: Cell, accountId: string, currency: string, at: number = this.#clock.now()): void {
    c.updatedAt = at;
    for (const l of this.#listeners) l(accountId, currency);
  }
}

function positive(amount: Decimal): void {
  if (!amount.isFinite() || amount.isNegative() || amount.isZero()) {
    throw new Error(`ledger: amount must be positive, got ${amount.toString()}`);
  }
}
