/**
 * v1.1 ⇄ v3 for funds (seed section 9): getbalance(s) ⇄ Balance (+ Address), getdepositaddress ⇄ Address,
 * withdraw ⇄ POST /withdrawals, getwithdrawalhistory ⇄ Withdrawal, getdeposithistory ⇄ Deposit.
 *
 * Renames: Balance → total, Requested → Address status (REQUESTED, PROVISIONED), CryptoAddress → Address
 * cryptoAddress, PaymentUuid → id, Amount → quantity, Address → cryptoAddress, Opened → createdAt, the four
 * withdrawal flags → one status, LastUpdated → updatedAt. Deprecated: Pending, balance Uuid.
 */
import { type Decimal, ZERO } from '../../../core/decimal.js';
import type { WithdrawalStatus } from '../../../model/enums.js';
import type { Address, Balance, Deposit, NewWithdrawal, Withdrawal } from '../../../model/wallet.js';
import type { V1Address, V1Balance, V1DepositHistoryEntry, V1WithdrawalHistoryEntry } from '../rest-types.js';

/**
 * getbalance(s) item → v3 Balance and, when v1.1 shows one, the deposit Address (Requested → status REQUESTED,
 * a CryptoAddress → PROVISIONED). v1.1 has no balance timestamp: `updatedAt` is when it was read.
 */
export function balanceFromV1(b: V1Balance, readAt: Date): { balance: Balance; address?: Address } {
  const balance: Balance = { currencySymbol: b.Currency, total: b.Balance, available: b.Available, updatedAt: readAt };
  if (b.CryptoAddress) {
    return { balance, address: { status: 'PROVISIONED', currencySymbol: b.Currency, cryptoAddress: b.CryptoAddress } };
  }
  if (b.Requested) return { balance, address: { status: 'REQUESTED', currencySymbol: b.Currency } };
  return { balance };
}

/** v3 Balance (+ the currency's deposit Address, if any) → getbalance item. Pending (deprecated) is zero. */
export function balanceToV1(b: Balance, address?: Address): V1Balance {
  return {
    Currency: b.currencySymbol,
    Balance: b.total,
    Available: b.available,
    Pending: ZERO,
    CryptoAddress: address?.cryptoAddress ?? null,
    Requested: address?.status === 'REQUESTED',
    Uuid: null,
  };
}

/** getdepositaddress item → v3 Address (provisioned: v1.1 only answers one that exists). */
export function addressFromV1(a: V1Address): Address {
  return { status: 'PROVISIONED', currencySymbol: a.Currency, cryptoAddress: a.Address };
}

/**
 * v3 Address → getdepositaddress item, or undefined while it is REQUESTED (v1.1 then fails with
 * ADDRESS_GENERATING, seed section 4). A tag (cryptoAddressTag) has no v1.1 field and is not shown.
 */
export function addressToV1(a: Address): V1Address | undefined {
  if (a.status !== 'PROVISIONED' || !a.cryptoAddress) return undefined;
  return { Currency: a.currencySymbol, Address: a.cryptoAddress };
}

/** The four v1.1 withdrawal flags. */
export interface V1WithdrawalFlags {
  Authorized: boolean;
  PendingPayment: boolean;
  Canceled: boolean;
  InvalidAddress: boolean;
}

/**
 * The four flags (and whether a TxId exists) → one v3 status: Canceled → CANCELLED, InvalidAddress →
 * ERROR_INVALID_ADDRESS, not Authorized → REQUESTED, PendingPayment → PENDING, a TxId → COMPLETED, else
 * AUTHORIZED.
 */
export function withdrawalStatusFromV1(f: V1WithdrawalFlags, hasTxId: boolean): WithdrawalStatus {
  if (f.Canceled) return 'CANCELLED';
  if (f.InvalidAddress) return 'ERROR_INVALID_ADDRESS';
  if (!f.Authorized) return 'REQUESTED';
  if (f.PendingPayment) return 'PENDING';
  return hasTxId ? 'COMPLETED' : 'AUTHORIZED';
}

/** One v3 status → the four flags (the inverse of {@link withdrawalStatusFromV1}). */
export function withdrawalStatusToV1(status: WithdrawalStatus): V1WithdrawalFlags {
  const none = { Authorized: false, PendingPayment: false, Canceled: false, InvalidAddress: false };
  switch (status) {
    case 'REQUESTED':
    case 'NEW':
      return none;
    case 'AUTHORIZED':
    case 'COMPLETED':
      return { ...none, Authorized: true };
    case 'PENDING':
      return { ...none, Authorized: true, PendingPayment: true };
    case 'CANCELLED':
      return { ...none, Canceled: true };
    case 'ERROR_INVALID_ADDRESS':
      return { ...none, Authorized: true, InvalidAddress: true };
  }
}

/** getwithdrawalhistory item → v3 Withdrawal. */
export function withdrawalFromV1(w: V1WithdrawalHistoryEntry): Withdrawal {
  const out: Withdrawal = {
    id: w.PaymentUuid,
    currencySymbol: w.Currency,
    quantity: w.Amount,
    cryptoAddress: w.Address,
    status: withdrawalStatusFromV1(w, !!w.TxId),
    createdAt: w.Opened,
    txCost: w.TxCost,
  };
  if (w.TxId) out.txId = w.TxId;
  return out;
}

/** v3 Withdrawal → getwithdrawalhistory item (TxCost zero when v3 has none yet). */
export function withdrawalToV1(w: Withdrawal): V1WithdrawalHistoryEntry {
  return {
    PaymentUuid: w.id,
    Currency: w.currencySymbol,
    Amount: w.quantity,
    Address: w.cryptoAddress,
    Opened: w.createdAt,
    ...withdrawalStatusToV1(w.status),
    TxCost: w.txCost ?? ZERO,
    TxId: w.txId ?? null,
  };
}

/** The query of /account/withdraw as exact values. */
export interface V1WithdrawRequest {
  currency: string;
  quantity: Decimal;
  address: string;
  /** Memo / tag / payment id for coins that use one. */
  paymentid?: string | undefined;
}

/** withdraw → v3 NewWithdrawal: currency → currencySymbol, address → cryptoAddress, paymentid → cryptoAddressTag. */
export function withdrawFromV1(w: V1WithdrawRequest): NewWithdrawal {
  const out: NewWithdrawal = { currencySymbol: w.currency.toUpperCase(), quantity: w.quantity, cryptoAddress: w.address };
  if (w.paymentid) out.cryptoAddressTag = w.paymentid;
  return out;
}

/** v3 NewWithdrawal → the withdraw query (undefined without a crypto address: v1.1 has no bank transfers). */
export function withdrawToV1(n: NewWithdrawal): V1WithdrawRequest | undefined {
  if (!n.cryptoAddress) return undefined;
  return { currency: n.currencySymbol, quantity: n.quantity, address: n.cryptoAddress, paymentid: n.cryptoAddressTag };
}

/**
 * getdeposithistory item → v3 Deposit: Id → id (as text), Amount → quantity, LastUpdated → updatedAt. v1.1 lists
 * credited deposits, so the status is COMPLETED.
 */
export function depositFromV1(d: V1DepositHistoryEntry): Deposit {
  const out: Deposit = {
    id: String(d.Id),
    currencySymbol: d.Currency,
    quantity: d.Amount,
    cryptoAddress: d.CryptoAddress ?? '',
    confirmations: d.Confirmations,
    updatedAt: d.LastUpdated,
    status: 'COMPLETED',
  };
  if (d.TxId) out.txId = d.TxId;
  return out;
}

/** v3 Deposit → getdeposithistory item. v1.1's Id is an int where v3's is a uuid, so the caller numbers them. */
export function depositToV1(d: Deposit, numericId: number): V1DepositHistoryEntry {
  return {
    Id: numericId,
    Amount: d.quantity,
    Currency: d.currencySymbol,
    Confirmations: d.confirmations,
    LastUpdated: d.updatedAt,
    TxId: d.txId ?? null,
    CryptoAddress: d.cryptoAddress || null,
  };
}
