/** Funds: balances, deposit addresses, deposits, withdrawals and allowed withdrawal addresses. */
import type { Decimal } from '../core/decimal.js';
import { amount, date, dec, id, int, object, oneOf, str, type Decoder } from './decode.js';
import {
  ADDRESS_STATUSES,
  ALLOWED_ADDRESS_STATUSES,
  DEPOSIT_STATUSES,
  TRANSFER_METHODS,
  WITHDRAWAL_STATUSES,
  type AddressStatus,
  type AllowedAddressStatus,
  type DepositStatus,
  type TransferMethod,
  type WithdrawalStatus,
} from './enums.js';
import { decodeApiErrorBody, type ApiErrorBody } from './order.js';

/** A balance. `available` is `total` less holds (open orders, pending withdrawals). */
export interface Balance {
  currencySymbol: string;
  total: Decimal;
  available: Decimal;
  updatedAt: Date;
}
export const decodeBalance: Decoder<Balance> = object<Balance>(
  { currencySymbol: str, total: amount, available: amount, updatedAt: date },
  {},
);

/** A deposit address; `cryptoAddress` is set once PROVISIONED. */
export interface Address {
  status: AddressStatus;
  currencySymbol: string;
  cryptoAddress?: string;
  cryptoAddressTag?: string;
}
export const decodeAddress: Decoder<Address> = object<Address>(
  { status: oneOf(ADDRESS_STATUSES), currencySymbol: str },
  { cryptoAddress: str, cryptoAddressTag: str },
);

/** A deposit. Deposits carry no createdAt (some clients tell them from withdrawals by that). */
export interface Deposit {
  id: string;
  currencySymbol: string;
  quantity: Decimal;
  cryptoAddress: string;
  confirmations: number;
  updatedAt: Date;
  status: DepositStatus;
  cryptoAddressTag?: string;
  txId?: string;
  completedAt?: Date;
  source?: TransferMethod;
  fundsTransferMethodId?: string;
  accountId?: string;
  error?: ApiErrorBody;
}
export const decodeDeposit: Decoder<Deposit> = object<Deposit>(
  {
    id: id,
    currencySymbol: str,
    quantity: dec,
    cryptoAddress: str,
    confirmations: int,
    updatedAt: date,
    status: oneOf(DEPOSIT_STATUSES),
  },
  {
    cryptoAddressTag: str,
    txId: str,
    completedAt: date,
    source: oneOf(TRANSFER_METHODS),
    fundsTransferMethodId: id,
    accountId: id,
    error: decodeApiErrorBody,
  },
);

/** A withdrawal. */
export interface Withdrawal {
  id: string;
  currencySymbol: string;
  quantity: Decimal;
  cryptoAddress: string;
  status: WithdrawalStatus;
  createdAt: Date;
  txCost?: Decimal;
  cryptoAddressTag?: string;
  txId?: string;
  completedAt?: Date;
  clientWithdrawalId?: string;
  fundsTransferMethodId?: string;
  target?: TransferMethod;
  accountId?: string;
  error?: ApiErrorBody;
}
export const decodeWithdrawal: Decoder<Withdrawal> = object<Withdrawal>(
  {
    id: id,
    currencySymbol: str,
    quantity: dec,
    cryptoAddress: str,
    status: oneOf(WITHDRAWAL_STATUSES),
    createdAt: date,
  },
  {
    txCost: dec,
    cryptoAddressTag: str,
    txId: str,
    completedAt: date,
    clientWithdrawalId: id,
    fundsTransferMethodId: id,
    target: oneOf(TRANSFER_METHODS),
    accountId: id,
    error: decodeApiErrorBody,
  },
);

/** Request body of POST /withdrawals. */
export interface NewWithdrawal {
  currencySymbol: string;
  quantity: Decimal;
  cryptoAddress?: string;
  cryptoAddressTag?: string;
  fundsTransferMethodId?: string;
  clientWithdrawalId?: string;
}

/** An address allowed for withdrawals once `activeAt` has passed. */
export interface AllowedAddress {
  currencySymbol: string;
  createdAt: Date;
  status: AllowedAddressStatus;
  cryptoAddress: string;
  activeAt?: Date;
  cryptoAddressTag?: string;
}
export const decodeAllowedAddress: Decoder<AllowedAddress> = object<AllowedAddress>(
  { currencySymbol: str, createdAt: date, status: oneOf(ALLOWED_ADDRESS_STATUSES), cryptoAddress: str },
  { activeAt: date, cryptoAddressTag: str },
);
