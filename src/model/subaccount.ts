/** Sub-accounts and transfers (partners only). */
import type { Decimal } from '../core/decimal.js';
import { bool, date, dec, id, object, str, type Decoder } from './decode.js';

/** A sub-account. */
export interface Subaccount {
  id: string;
  createdAt: Date;
}
export const decodeSubaccount: Decoder<Subaccount> = object<Subaccount>({ id: id, createdAt: date }, {});

/** A transfer sent by this account. */
export interface SentTransfer {
  id: string;
  toSubaccountId?: string;
  toMasterAccount?: boolean;
  requestId?: string;
  currencySymbol: string;
  amount: Decimal;
  executedAt: Date;
}
export const decodeSentTransfer: Decoder<SentTransfer> = object<SentTransfer>(
  { id: id, currencySymbol: str, amount: dec, executedAt: date },
  { toSubaccountId: id, toMasterAccount: bool, requestId: id },
);

/** A transfer received by this account. */
export interface ReceivedTransfer {
  id: string;
  fromSubaccountId?: string;
  fromMasterAccount?: boolean;
  requestId?: string;
  currencySymbol: string;
  amount: Decimal;
  executedAt: Date;
}
export const decodeReceivedTransfer: Decoder<ReceivedTransfer> = object<ReceivedTransfer>(
  { id: id, currencySymbol: str, amount: dec, executedAt: date },
  { fromSubaccountId: id, fromMasterAccount: bool, requestId: id },
);

/** GET /transfers/{id} answers either direction; both shapes share these fields. */
export type Transfer = SentTransfer & ReceivedTransfer;
export const decodeTransfer: Decoder<Transfer> = object<Transfer>(
  { id: id, currencySymbol: str, amount: dec, executedAt: date },
  { toSubaccountId: id, toMasterAccount: bool, fromSubaccountId: id, fromMasterAccount: bool, requestId: id },
);

/** Request body of POST /transfers: to a sub-account (toSubaccountId) or to the master (toMasterAccount). */
export interface NewTransfer {
  toSubaccountId?: string;
  toMasterAccount?: boolean;
  requestId?: string;
  currencySymbol: string;
  amount: Decimal;
}

