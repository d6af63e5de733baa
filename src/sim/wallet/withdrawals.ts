/**
 * Withdrawals (POST/GET/DELETE /withdrawals...). Money leaves the exchange only here, through
 * {@link Ledger.debit} when a withdrawal COMPLETES.
 *
 * Lifecycle, driven by the injected clock (one step per config.withdrawalStepMs):
 *   REQUESTED -> AUTHORIZED -> PENDING -> COMPLETED (ledger debit, txId and completedAt set).
 * A destination address starting with `invalid` (any case) stops at the first step in ERROR_INVALID_ADDRESS,
 * which keeps the hold until the user cancels — the service's state for an address it could not use.
 * DELETE is allowed only in REQUESTED, AUTHORIZED and ERROR_INVALID_ADDRESS (seed): the withdrawal becomes
 * CANCELLED with completedAt = the cancellation time (so it sorts and filters among the closed ones) and the
 * hold is released. In any other state the answer is 409 WITHDRAWAL_NOT_CANCELLABLE (rexbot's choice of code).
 *
 * Money: `quantity` is what leaves the account; the network fee txCost (the currency's txFee) is paid out of it,
 * which is why the service required quantity > 3 × txFee (WITHDRAWAL_TOO_SMALL). So exactly `quantity` is held at
 * creation and debited on completion.
 *
 * Refusals, in the order checked (nothing changes on a refusal):
 * 409 CLIENTWITHDRAWALID_ALREADY_EXISTS with data {existingWithdrawalId} (within the 24 h window);
 * 404 CURRENCY_DOES_NOT_EXIST; 503 CURRENCY_OFFLINE; 400 BAD_REQUEST for a non-positive quantity, more than 8
 * decimals or a missing destination (cryptoAddress; fundsTransferMethodId for FIAT); 400 WITHDRAWAL_TOO_SMALL;
 * 403 NOT_ALLOWED when the currency policy forbids that withdrawal method; 409
 * WHITELIST_VIOLATION_WITHDRAWAL_ADDRESS when the account requires allowed addresses and the destination is
 * absent or still PENDING (409: the request is valid, the account's state refuses it for now); 409
 * INSUFFICIENT_FUNDS.
 */
import { randomUUID } from 'node:crypto';
import type { Clock, TimerHandle } from '../../core/clock.js';
import type { IdempotencyIndex } from '../idempotency.js';
import type { Withdrawal, NewWithdrawal } from '../../model/wallet.js';
import type { WithdrawalStatus } from '../../model/enums.js';
import { normalizeId, type AccountRegistry } from '../accounts/account-registry.js';
import type { Permissions } from '../accounts/permissions.js';
import type { Catalog } from '../catalog.js';
import type { SimConfig } from '../config.js';
import type { Ledger } from '../ledger.js';
import { listPage, validatePageQuery, type PageQuery } from '../paginate.js';
import { badRequest, conflict, forbidden, notFound, unavailable } from '../sim-error.js';
import { newTxId } from './address-format.js';
import type { AllowedAddresses } from './allowed-addresses.js';
import { OPEN_LIST_LIMIT, invalidParameter, newestFirst, requirePositiveAmount, requireStatusFilter } from './wallet-common.js';

/** Query of GET /withdrawals/open. */
export interface OpenWithdrawalsQuery {
  status?: string | undefined;
  currencySymbol?: string | undefined;
}
/** Query of GET /withdrawals/closed. */
export interface ClosedWithdrawalsQuery extends PageQuery {
  status?: string | undefined;
  currencySymbol?: string | undefined;
}

/** Dependencies of {@link Withdrawals}. */
export interface WithdrawalsDeps {
  clock: Clock;
  ledger: Ledger;
  catalog: Catalog;
  config: SimConfig;
  idempotency: IdempotencyIndex;
  accounts: AccountRegistry;
  permissions: Permissions;
  allowed: AllowedAddresses;
}

interface WithdrawalRecord {
  accountId: string;
  w: Withdrawal;
  seq: number;
  timer: TimerHandle | undefined;
}

const OPEN_STATUSES = ['REQUESTED', 'AUTHORIZED', 'PENDING', 'ERROR_INVALID_ADDRESS'] as const;
const CLOSED_STATUSES = ['COMPLETED', 'CANCELLED'] as const;
const CANCELLABLE: readonly WithdrawalStatus[] = ['REQUESTED', 'AUTHORIZED', 'ERROR_INVALID_ADDRESS'];
/** Destinations the simulator treats as unusable, to make ERROR_INVALID_ADDRESS reachable. */
const INVALID_ADDRESS = /^invalid/i;

/** The idempotency namespace of clientWithdrawalId (the index is shared with clientOrderId and others). */
const idemKey = (clientWithdrawalId: string) => `withdrawal:${clientWithdrawalId.toLowerCase()}`;

/** All withdrawals of all accounts. */
export class Withdrawals {
  readonly #deps: WithdrawalsDeps;
  readonly #byId = new Map<string, WithdrawalRecord>();
  readonly #byAccount = new Map<string, WithdrawalRecord[]>();
  #seq = 0;

  constructor(deps: WithdrawalsDeps) {
    this.#deps = deps;
  }

  /** POST /withdrawals (201 REQUESTED). */
  create(accountId: string, n: NewWithdrawal): Withdrawal {
    const { catalog, idempotency, ledger, clock } = this.#deps;
    if (n.clientWithdrawalId !== undefined) {
      const existing = idempotency.find(accountId, idemKey(n.clientWithdrawalId));
      if (existing !== undefined) {
        throw conflict('CLIENTWITHDRAWALID_ALREADY_EXISTS', 'clientWithdrawalId already used', { existingWithdrawalId: existing });
      }
    }
    const cur = catalog.currency(n.currencySymbol);
    if (cur.status !== 'ONLINE') throw unavailable('CURRENCY_OFFLINE', `${cur.symbol} is offline`);
    requirePositiveAmount('quantity', n.quantity);
    const fiat = cur.coinType === 'FIAT';
    const address = n.cryptoAddress?.trim() ?? '';
    if (fiat && !n.fundsTransferMethodId) throw invalidParameter('fundsTransferMethodId', `${cur.symbol} withdrawals need fundsTransferMethodId`);
    if (!fiat && address === '') throw invalidParameter('cryptoAddress', 'cryptoAddress is required');
    if (!n.quantity.gt(cur.txFee.times(3))) {
      throw badRequest('WITHDRAWAL_TOO_SMALL', `quantity must exceed 3 × txFee (${cur.txFee.times(3).toFixed()} ${cur.symbol})`);
    }
    const policy = this.#deps.permissions.currencyPolicy(accountId, cur.symbol).withdraw;
    if (!(fiat ? policy.wireTransfer : policy.blockchain)) {
      throw forbidden('NOT_ALLOWED', `${cur.symbol} withdrawals are not allowed for this account`);
    }
    if (!fiat && this.#deps.accounts.requiresAllowedAddresses(accountId)) {
      const standing = this.#deps.allowed.standing(accountId, cur.symbol, address, n.cryptoAddressTag);
      if (standing !== 'ACTIVE') {
        throw conflict(
          'WHITELIST_VIOLATION_WITHDRAWAL_ADDRESS',
          standing === 'PENDING' ? 'the address is still in its waiting period' : 'the address is not in the allowed list',
        );
      }
    }
    ledger.hold(accountId, cur.symbol, n.quantity);

    const w: Withdrawal = {
      id: randomUUID(),
      currencySymbol: cur.symbol,
      quantity: n.quantity,
      cryptoAddress: address,
      txCost: cur.txFee,
      status: 'REQUESTED',
      createdAt: new Date(clock.now()),
      target: fiat ? 'WIRE_TRANSFER' : 'BLOCKCHAIN',
    };
    if (n.cryptoAddressTag) w.cryptoAddressTag = n.cryptoAddressTag;
    if (n.fundsTransferMethodId) w.fundsTransferMethodId = n.fundsTransferMethodId;
    if (n.clientWithdrawalId !== undefined) w.clientWithdrawalId = n.clientWithdrawalId;
    const rec: WithdrawalRecord = { accountId, w, seq: this.#seq++, timer: undefined };
    this.#byId.set(w.id, rec);
    const key = normalizeId(accountId);
    let list = this.#byAccount.get(key);
    if (!list) this.#byAccount.set(key, (list = []));
    list.push(rec);
    if (n.clientWithdrawalId !== undefined) idempotency.remember(accountId, idemKey(n.clientWithdrawalId), w.id);
    this.#schedule(rec);
    return { ...w };
  }

  /** DELETE /withdrawals/{id} (200 with the CANCELLED withdrawal). */
  cancel(accountId: string, withdrawalId: string): Withdrawal {
    const rec = this.#own(accountId, withdrawalId);
    if (!CANCELLABLE.includes(rec.w.status)) {
      throw conflict('WITHDRAWAL_NOT_CANCELLABLE', `a ${rec.w.status} withdrawal cannot be cancelled`);
    }
    rec.timer?.cancel();
    rec.timer = undefined;
    this.#deps.ledger.release(rec.accountId, rec.w.currencySymbol, rec.w.quantity);
    rec.w.status = 'CANCELLED';
    rec.w.completedAt = new Date(this.#deps.clock.now());
    return { ...rec.w };
  }

  /** GET /withdrawals/open: open withdrawals, createdAt descending, at most 1000. */
  open(accountId: string, q: OpenWithdrawalsQuery = {}): Withdrawal[] {
    const status = requireStatusFilter(q.status, OPEN_STATUSES);
    const currency = this.#currencyFilter(q.currencySymbol);
    const list = this.#list(accountId).filter(
      (r) =>
        (OPEN_STATUSES as readonly string[]).includes(r.w.status) &&
        (status === undefined || r.w.status === status) &&
        (currency === undefined || r.w.currencySymbol === currency),
    );
    return newestFirst(list, (r) => r.w.createdAt.getTime(), (r) => r.seq)
      .slice(0, OPEN_LIST_LIMIT)
      .map((r) => ({ ...r.w }));
  }

  /** GET /withdrawals/closed: completed or cancelled, completedAt descending, paginated, dates on completedAt. */
  closed(accountId: string, q: ClosedWithdrawalsQuery = {}): Withdrawal[] {
    validatePageQuery(q);
    const status = requireStatusFilter(q.status, CLOSED_STATUSES);
    const currency = this.#currencyFilter(q.currencySymbol);
    const list = this.#list(accountId).filter(
      (r) =>
        (CLOSED_STATUSES as readonly string[]).includes(r.w.status) &&
        (status === undefined || r.w.status === status) &&
        (currency === undefined || r.w.currencySymbol === currency),
    );
    const sorted = newestFirst(list, (r) => r.w.completedAt!.getTime(), (r) => r.seq);
    return listPage(sorted, { idOf: (r) => r.w.id, dateOf: (r) => r.w.completedAt }, q).map((r) => ({ ...r.w }));
  }

  /** GET /withdrawals/ByTxId/{txId}: the account's withdrawals with that transaction id. */
  byTxId(accountId: string, txId: string): Withdrawal[] {
    const list = this.#list(accountId).filter((r) => r.w.txId === txId);
    return newestFirst(list, (r) => r.w.createdAt.getTime(), (r) => r.seq).map((r) => ({ ...r.w }));
  }

  /** GET /withdrawals/{id}; 404 NOT_FOUND when unknown or another account's. */
  get(accountId: string, withdrawalId: string): Withdrawal {
    return { ...this.#own(accountId, withdrawalId).w };
  }

  #schedule(rec: WithdrawalRecord): void {
    rec.timer = this.#deps.clock.setTimeout(() => this.#step(rec), this.#deps.config.withdrawalStepMs);
  }

  #step(rec: WithdrawalRecord): void {
    rec.timer = undefined;
    const w = rec.w;
    switch (w.status) {
      case 'REQUESTED':
        if (INVALID_ADDRESS.test(w.cryptoAddress)) {
          w.status = 'ERROR_INVALID_ADDRESS';
          return;
        }
        w.status = 'AUTHORIZED';
        break;
      case 'AUTHORIZED':
        w.status = 'PENDING';
        break;
      case 'PENDING': {
        // Debit first so the balance already reflects the money leaving when the withdrawal says COMPLETED.
        this.#deps.ledger.debit(rec.accountId, w.currencySymbol, w.quantity);
        w.status = 'COMPLETED';
        w.txId = newTxId();
        w.completedAt = new Date(this.#deps.clock.now());
        return;
      }
      default:
        return;
    }
    this.#schedule(rec);
  }

  #own(accountId: string, withdrawalId: string): WithdrawalRecord {
    const rec = this.#byId.get(normalizeId(withdrawalId));
    if (!rec || normalizeId(rec.accountId) !== normalizeId(accountId)) {
      throw notFound('NOT_FOUND', `withdrawal ${withdrawalId} not found`);
    }
    return rec;
  }

  #list(accountId: string): WithdrawalRecord[] {
    return [...(this.#byAccount.get(normalizeId(accountId)) ?? [])];
  }

  #currencyFilter(symbol: string | undefined): string | undefined {
    return symbol === undefined ? undefined : this.#deps.catalog.currency(symbol).symbol;
  }
}
