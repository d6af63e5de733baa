/** Transfer endpoints: moving funds between the master account and sub-accounts (partners only). */
import { arrayOf } from '../../../model/decode.js';
import {
  type NewTransfer,
  type ReceivedTransfer,
  type SentTransfer,
  type Transfer,
  decodeReceivedTransfer,
  decodeSentTransfer,
  decodeTransfer,
} from '../../../model/subaccount.js';
import type { CallOptions, HttpTransport } from '../http.js';
import { type IterateOptions, iteratePages, pageQuery } from '../paginate.js';
import { optionalBoolean, optionalText, type PageFilter, segment, validateNewTransfer, validatePageFilter } from '../validate.js';

/** Filter of GET /transfers/sent (newest first). */
export interface SentTransfersFilter extends PageFilter {
  toSubaccountId?: string | undefined;
  toMasterAccount?: boolean | undefined;
  currencySymbol?: string | undefined;
}

/** Filter of GET /transfers/received (newest first). */
export interface ReceivedTransfersFilter extends PageFilter {
  fromSubaccountId?: string | undefined;
  fromMasterAccount?: boolean | undefined;
  currencySymbol?: string | undefined;
}

/** `client.transfers` (signed, partners only). */
export interface TransfersEndpoints {
  /** GET /transfers/sent — one page of sent transfers. */
  listSent(filter?: SentTransfersFilter, opts?: CallOptions): Promise<SentTransfer[]>;
  /** Every sent transfer matching `filter`, page by page (GET /transfers/sent). */
  iterateSent(filter?: SentTransfersFilter, opts?: IterateOptions): AsyncGenerator<SentTransfer, void, undefined>;
  /** GET /transfers/received — one page of received transfers. */
  listReceived(filter?: ReceivedTransfersFilter, opts?: CallOptions): Promise<ReceivedTransfer[]>;
  /** Every received transfer matching `filter`, page by page (GET /transfers/received). */
  iterateReceived(filter?: ReceivedTransfersFilter, opts?: IterateOptions): AsyncGenerator<ReceivedTransfer, void, undefined>;
  /** GET /transfers/{transferId} — one transfer, sent or received. */
  get(transferId: string, opts?: CallOptions): Promise<Transfer>;
  /** POST /transfers — move funds (201 transfer). `requestId` is the idempotency key. Never retried automatically. */
  create(transfer: NewTransfer, opts?: CallOptions): Promise<SentTransfer>;
}

const decodeSent = arrayOf(decodeSentTransfer);
const decodeReceived = arrayOf(decodeReceivedTransfer);
const SENT = 'GET /transfers/sent';
const RECEIVED = 'GET /transfers/received';

/** Builds `client.transfers` over a transport. */
export function createTransfersEndpoints(http: HttpTransport): TransfersEndpoints {
  const listSent = async (filter: SentTransfersFilter = {}, opts?: CallOptions) => {
    optionalText('toSubaccountId', filter.toSubaccountId, SENT);
    optionalBoolean('toMasterAccount', filter.toMasterAccount, SENT);
    optionalText('currencySymbol', filter.currencySymbol, SENT);
    validatePageFilter(filter, SENT);
    return http.call(
      {
        method: 'GET',
        path: '/transfers/sent',
        query: {
          toSubaccountId: filter.toSubaccountId,
          toMasterAccount: filter.toMasterAccount,
          currencySymbol: filter.currencySymbol,
          ...pageQuery(filter),
        },
        signed: true,
        subaccountId: opts?.subaccountId,
      },
      decodeSent,
    );
  };
  const listReceived = async (filter: ReceivedTransfersFilter = {}, opts?: CallOptions) => {
    optionalText('fromSubaccountId', filter.fromSubaccountId, RECEIVED);
    optionalBoolean('fromMasterAccount', filter.fromMasterAccount, RECEIVED);
    optionalText('currencySymbol', filter.currencySymbol, RECEIVED);
    validatePageFilter(filter, RECEIVED);
    return http.call(
      {
        method: 'GET',
        path: '/transfers/received',
        query: {
          fromSubaccountId: filter.fromSubaccountId,
          fromMasterAccount: filter.fromMasterAccount,
          currencySymbol: filter.currencySymbol,
          ...pageQuery(filter),
        },
        signed: true,
        subaccountId: opts?.subaccountId,
      },
      decodeReceived,
    );
  };
  return {
    listSent,
    iterateSent: (filter = {}, opts = {}) => iteratePages((f) => listSent(f, opts), filter, opts, SENT),
    listReceived,
    iterateReceived: (filter = {}, opts = {}) => iteratePages((f) => listReceived(f, opts), filter, opts, RECEIVED),
    get: async (transferId, opts) =>
      http.call(
        {
          method: 'GET',
          path: `/transfers/${segment('transferId', transferId, 'GET /transfers/{transferId}')}`,
          signed: true,
          subaccountId: opts?.subaccountId,
        },
        decodeTransfer,
      ),
    create: async (transfer, opts) => {
      validateNewTransfer(transfer, 'POST /transfers');
      return http.call(
        { method: 'POST', path: '/transfers', body: transfer, signed: true, subaccountId: opts?.subaccountId },
        decodeSentTransfer,
      );
    },
  };
}
