/**
 * Deposits: money arriving from outside. The simulator has no blockchain, so deposits enter through the control
 * entry point {@link Deposits.credit} (tests, demos, operator), and from then on behave as the service's did:
 *
 * - a deposit with fewer confirmations than the currency's minConfirmations is PENDING (an open deposit) and not
 *   credited; confirmations arrive through {@link Deposits.confirm} or, with `confirmationIntervalMs`, one per
 *   interval of the injected clock;
 * - on reaching minConfirmations it becomes COMPLETED, completedAt is set and the ledger credits the account;
 * - a PENDING deposit may instead end ORPHANED or INVALIDATED ({@link Deposits.reject}), never credited.
 *
 * Every new deposit and every change publishes a `deposit` event numbered by the account's deposit sequence,
 * after the ledger change (so the balance event comes first). Deposit objects carry no createdAt (WIRE.md).
 *
 * Closed deposits are sorted and date-filtered on completedAt; ORPHANED/INVALIDATED ones have no completedAt
 * (the official document sets it for COMPLETED only), so the time they closed (their updatedAt) stands in.
 */
import { randomUUID } from 'node:crypto';
import type { Clock, TimerHandle } from '../../core/clock.js';
import type { Decimal } from '../../core/decimal.js';
import type { DepositStatus, TransferMethod } from '../../model/enums.js';
import type { Deposit } from '../../model/wallet.js';
import { normalizeId } from '../accounts/account-registry.js';
import type { Catalog } from '../catalog.js';
import type { SimEventBus } from '../events.js';
import type { Ledger } from '../ledger.js';
import { listPage, validatePageQuery, type PageQuery } from '../paginate.js';
import { seqKey, type SequenceCounters } from '../sequences.js';
import { conflict, notFound } from '../sim-error.js';
import { newAddress, newTxId } from './address-format.js';
import type { DepositAddresses } from './deposit-addresses.js';
import { OPEN_LIST_LIMIT, invalidParameter, newestFirst, requirePositiveAmount, requireStatusFilter } from './wallet-common.js';

/** Options of {@link Deposits.credit}. */
export interface CreditDepositOptions {
  /** Blockchain transaction id; a random 64-hex id by default. */
  txId?: string;
  /** Confirmations seen on arrival; default the currency's minConfirmations (0 when `pending`). */
  confirmations?: number;
  /** Arrive unconfirmed (PENDING) — shorthand for `confirmations: 0`. */
  pending?: boolean;
  /** When PENDING: add one confirmation per this many ms of the clock until the deposit completes. */
  confirmationIntervalMs?: number;
  /** Destination; default the account's provisioned address for the currency, else a fresh one. */
  cryptoAddress?: string;
  cryptoAddressTag?: string;
  /** Default BLOCKCHAIN, or WIRE_TRANSFER for FIAT currencies. */
  source?: TransferMethod;
}

/** Query of GET /deposits/open. */
export interface OpenDepositsQuery {
  status?: string | undefined;
  currencySymbol?: string | undefined;
}
/** Query of GET /deposits/closed. */
export interface ClosedDepositsQuery extends PageQuery {
  status?: string | undefined;
  currencySymbol?: string | undefined;
}

/** Dependencies of {@link Deposits}. */
export interface DepositsDeps {
  clock: Clock;
  ledger: Ledger;
  catalog: Catalog;
  bus: SimEventBus;
  sequences: SequenceCounters;
  addresses: DepositAddresses;
}

interface DepositRecord {
  accountId: string;
  deposit: Deposit;
  seq: number;
  minConfirmations: number;
  timer: TimerHandle | undefined;
}

const OPEN_STATUSES = ['PENDING'] as const;
const CLOSED_STATUSES = ['COMPLETED', 'ORPHANED', 'INVALIDATED'] as const;

/** All deposits of all accounts. */
export class Deposits {
  readonly #deps: DepositsDeps;
  readonly #byId = new Map<string, DepositRecord>();
  readonly #byAccount = new Map<string, DepositRecord[]>();
  #seq = 0;

  constructor(deps: DepositsDeps) {
    this.#deps = deps;
  }

  /** Control entry point: a deposit of `amount` arrives for the account (PENDING or at once COMPLETED). */
  credit(accountId: string, currencySymbol: string, amount: Decimal, opts: CreditDepositOptions = {}): Deposit {
    const cur = this.#deps.catalog.currency(currencySymbol);
    requirePositiveAmount('quantity', amount);
    const confirmations = opts.confirmations ?? (opts.pending ? 0 : cur.minConfirmations);
    if (!Number.isInteger(confirmations) || confirmations < 0) {
      throw invalidParameter('confirmations', 'confirmations must be a non-negative integer');
    }
    const fiat = cur.coinType === 'FIAT';
    const own = this.#deps.addresses.find(accountId, cur.symbol);
    const cryptoAddress = opts.cryptoAddress ?? own?.cryptoAddress ?? (fiat ? '' : newAddress(cur.coinType));
    const cryptoAddressTag = opts.cryptoAddress !== undefined ? opts.cryptoAddressTag : (own?.cryptoAddressTag ?? opts.cryptoAddressTag);
    const now = this.#deps.clock.now();
    const deposit: Deposit = {
      id: randomUUID(),
      currencySymbol: cur.symbol,
      quantity: amount,
      cryptoAddress,
      confirmations,
      updatedAt: new Date(now),
      status: 'PENDING',
      txId: opts.txId ?? newTxId(),
      source: opts.source ?? (fiat ? 'WIRE_TRANSFER' : 'BLOCKCHAIN'),
    };
    if (cryptoAddressTag !== undefined) deposit.cryptoAddressTag = cryptoAddressTag;
    const rec: DepositRecord = { accountId, deposit, seq: this.#seq++, minConfirmations: cur.minConfirmations, timer: undefined };
    this.#byId.set(deposit.id, rec);
    const key = normalizeId(accountId);
    let list = this.#byAccount.get(key);
    if (!list) this.#byAccount.set(key, (list = []));
    list.push(rec);
    if (confirmations >= cur.minConfirmations) {
      this.#complete(rec);
    } else {
      this.#publish(rec);
      const every = opts.confirmationIntervalMs;
      if (every !== undefined && every > 0) {
        rec.timer = this.#deps.clock.setInterval(() => this.#setConfirmations(rec, rec.deposit.confirmations + 1), every);
      }
    }
    return { ...deposit };
  }

  /** Control entry point: a PENDING deposit has now seen `confirmations` (never fewer than before). */
  confirm(accountId: string, depositId: string, confirmations: number): Deposit {
    const rec = this.#own(accountId, depositId);
    if (rec.deposit.status !== 'PENDING') throw conflict('NOT_ALLOWED', `deposit ${depositId} is ${rec.deposit.status}`);
    if (!Number.isInteger(confirmations) || confirmations < rec.deposit.confirmations) {
      throw invalidParameter('confirmations', 'confirmations must be an integer not below the current count');
    }
    this.#setConfirmations(rec, confirmations);
    return { ...rec.deposit };
  }

  /** Control entry point: a PENDING deposit ends ORPHANED or INVALIDATED, without crediting anything. */
  reject(accountId: string, depositId: string, status: 'ORPHANED' | 'INVALIDATED'): Deposit {
    const rec = this.#own(accountId, depositId);
    if (rec.deposit.status !== 'PENDING') throw conflict('NOT_ALLOWED', `deposit ${depositId} is ${rec.deposit.status}`);
    rec.timer?.cancel();
    rec.timer = undefined;
    rec.deposit.status = status;
    rec.deposit.updatedAt = new Date(this.#deps.clock.now());
    this.#publish(rec);
    return { ...rec.deposit };
  }

  /** GET /deposits/open: PENDING deposits, updatedAt descending, at most 1000. */
  open(accountId: string, q: OpenDepositsQuery = {}): Deposit[] {
    requireStatusFilter(q.status, OPEN_STATUSES);
    const currency = this.#currencyFilter(q.currencySymbol);
    const list = this.#list(accountId).filter(
      (r) => r.deposit.status === 'PENDING' && (currency === undefined || r.deposit.currencySymbol === currency),
    );
    return newestFirst(list, (r) => r.deposit.updatedAt.getTime(), (r) => r.seq)
      .slice(0, OPEN_LIST_LIMIT)
      .map((r) => ({ ...r.deposit }));
  }

  /** GET /deposits/closed: completed, orphaned or invalidated deposits, completedAt descending, paginated. */
  closed(accountId: string, q: ClosedDepositsQuery = {}): Deposit[] {
    validatePageQuery(q);
    const status = requireStatusFilter(q.status, CLOSED_STATUSES);
    const currency = this.#currencyFilter(q.currencySymbol);
    const list = this.#list(accountId).filter(
      (r) =>
        r.deposit.status !== 'PENDING' &&
        (status === undefined || r.deposit.status === status) &&
        (currency === undefined || r.deposit.currencySymbol === currency),
    );
    const sorted = newestFirst(list, (r) => closedAt(r.deposit).getTime(), (r) => r.seq);
    return listPage(sorted, { idOf: (r) => r.deposit.id, dateOf: (r) => closedAt(r.deposit) }, q).map((r) => ({ ...r.deposit }));
  }

  /** GET /deposits/ByTxId/{txId}: the account's deposits with that transaction id, newest first. */
  byTxId(accountId: string, txId: string): Deposit[] {
    const list = this.#list(accountId).filter((r) => r.deposit.txId === txId);
    return newestFirst(list, (r) => r.deposit.updatedAt.getTime(), (r) => r.seq).map((r) => ({ ...r.deposit }));
  }

  /** GET /deposits/{depositId}; 404 NOT_FOUND when unknown or another account's. */
  get(accountId: string, depositId: string): Deposit {
    return { ...this.#own(accountId, depositId).deposit };
  }

  /** HEAD /deposits/open: the account's deposit-stream sequence. */
  sequence(accountId: string): number {
    return this.#deps.sequences.current(seqKey.account('deposit', accountId));
  }

  #setConfirmations(rec: DepositRecord, confirmations: number): void {
    if (rec.deposit.status !== 'PENDING') return;
    rec.deposit.confirmations = confirmations;
    if (confirmations >= rec.minConfirmations) {
      this.#complete(rec);
    } else {
      rec.deposit.updatedAt = new Date(this.#deps.clock.now());
      this.#publish(rec);
    }
  }

  #complete(rec: DepositRecord): void {
    rec.timer?.cancel();
    rec.timer = undefined;
    const now = new Date(this.#deps.clock.now());
    // Credit first: the state (and the balance event) must already hold the money when the deposit says COMPLETED.
    this.#deps.ledger.credit(rec.accountId, rec.deposit.currencySymbol, rec.deposit.quantity);
    rec.deposit.status = 'COMPLETED' satisfies DepositStatus;
    rec.deposit.updatedAt = now;
    rec.deposit.completedAt = now;
    this.#publish(rec);
  }

  #publish(rec: DepositRecord): void {
    const sequence = this.#deps.sequences.next(seqKey.account('deposit', rec.accountId));
    this.#deps.bus.emit({ kind: 'deposit', accountId: rec.accountId, sequence, delta: { ...rec.deposit } });
  }

  #own(accountId: string, depositId: string): DepositRecord {
    const rec = this.#byId.get(normalizeId(depositId));
    if (!rec || normalizeId(rec.accountId) !== normalizeId(accountId)) {
      throw notFound('NOT_FOUND', `deposit ${depositId} not found`);
    }
    return rec;
  }

  #list(accountId: string): DepositRecord[] {
    return [...(this.#byAccount.get(normalizeId(accountId)) ?? [])];
  }

  #currencyFilter(symbol: string | undefined): string | undefined {
    return symbol === undefined ? undefined : this.#deps.catalog.currency(symbol).symbol;
  }
}

function closedAt(d: Deposit): Date {
  return d.completedAt ?? d.updatedAt;
}
