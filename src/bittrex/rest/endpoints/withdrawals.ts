/** Withdrawal endpoints and the allowed (whitelisted) withdrawal addresses. */
import { arrayOf, type Decoder } from '../../../model/decode.js';
import {
  type AllowedAddress,
  type NewWithdrawal,
  type Withdrawal,
  decodeAllowedAddress,
  decodeWithdrawal,
} from '../../../model/wallet.js';
import type { CallOptions, HttpTransport } from '../http.js';
import { type IterateOptions, iteratePages, pageQuery } from '../paginate.js';
import { optionalText, type PageFilter, requireOneOf, segment, validateNewWithdrawal, validatePageFilter } from '../validate.js';

/** Filter of GET /withdrawals/open (newest createdAt first, first 1000). */
export interface OpenWithdrawalsFilter {
  status?: 'REQUESTED' | 'AUTHORIZED' | 'PENDING' | 'ERROR_INVALID_ADDRESS' | undefined;
  currencySymbol?: string | undefined;
}

/** Filter of GET /withdrawals/closed (dates apply to completedAt). */
export interface ClosedWithdrawalsFilter extends PageFilter {
  status?: 'COMPLETED' | 'CANCELLED' | undefined;
  currencySymbol?: string | undefined;
}

/** `client.withdrawals` (signed). */
export interface WithdrawalsEndpoints {
  /** GET /withdrawals/open — open withdrawals. */
  listOpen(filter?: OpenWithdrawalsFilter, opts?: CallOptions): Promise<Withdrawal[]>;
  /** GET /withdrawals/closed — one page of closed withdrawals, newest completedAt first. */
  listClosed(filter?: ClosedWithdrawalsFilter, opts?: CallOptions): Promise<Withdrawal[]>;
  /** Every closed withdrawal matching `filter`, page by page (GET /withdrawals/closed). */
  iterateClosed(filter?: ClosedWithdrawalsFilter, opts?: IterateOptions): AsyncGenerator<Withdrawal, void, undefined>;
  /** GET /withdrawals/ByTxId/{txId} — the account's withdrawals with that blockchain transaction id. */
  byTxId(txId: string, opts?: CallOptions): Promise<Withdrawal[]>;
  /** GET /withdrawals/{withdrawalId} — one withdrawal. */
  get(withdrawalId: string, opts?: CallOptions): Promise<Withdrawal>;
  /** DELETE /withdrawals/{withdrawalId} — cancel (only REQUESTED, AUTHORIZED or ERROR_INVALID_ADDRESS); 200 Withdrawal. */
  cancel(withdrawalId: string, opts?: CallOptions): Promise<Withdrawal>;
  /** POST /withdrawals — request a withdrawal (201). `clientWithdrawalId` is the idempotency key; never retried automatically. */
  create(withdrawal: NewWithdrawal, opts?: CallOptions): Promise<Withdrawal>;
  /** GET /withdrawals/allowed-addresses — addresses allowed for withdrawals. */
  allowedAddresses(opts?: CallOptions): Promise<AllowedAddress[]>;
}

const decodeWithdrawals = arrayOf(decodeWithdrawal);

/**
 * The seed answers a list of allowed addresses; the official document's schema shows a single object. Accept
 * both, so the client works against servers written from either.
 */
const decodeAllowedAddresses: Decoder<AllowedAddress[]> = (v, path, where) =>
  Array.isArray(v) ? arrayOf(decodeAllowedAddress)(v, path, where) : [decodeAllowedAddress(v, path, where)];

const OPEN = 'GET /withdrawals/open';
const CLOSED = 'GET /withdrawals/closed';

/** Builds `client.withdrawals` over a transport. */
export function createWithdrawalsEndpoints(http: HttpTransport): WithdrawalsEndpoints {
  const listClosed = async (filter: ClosedWithdrawalsFilter = {}, opts?: CallOptions) => {
    requireOneOf('status', filter.status, ['COMPLETED', 'CANCELLED'], CLOSED, true);
    optionalText('currencySymbol', filter.currencySymbol, CLOSED);
    validatePageFilter(filter, CLOSED);
    return http.call(
      {
        method: 'GET',
        path: '/withdrawals/closed',
        query: { status: filter.status, currencySymbol: filter.currencySymbol, ...pageQuery(filter) },
        signed: true,
        subaccountId: opts?.subaccountId,
      },
      decodeWithdrawals,
    );
  };
  const byId = (method: 'GET' | 'DELETE', id: string, opts: CallOptions | undefined) =>
    http.call(
      {
        method,
        path: `/withdrawals/${segment('withdrawalId', id, `${method} /withdrawals/{withdrawalId}`)}`,
        signed: true,
        subaccountId: opts?.subaccountId,
      },
      decodeWithdrawal,
    );
  return {
    listOpen: async (filter = {}, opts) => {
      requireOneOf('status', filter.status, ['REQUESTED', 'AUTHORIZED', 'PENDING', 'ERROR_INVALID_ADDRESS'], OPEN, true);
      optionalText('currencySymbol', filter.currencySymbol, OPEN);
      return http.call(
        {
          method: 'GET',
          path: '/withdrawals/open',
          query: { status: filter.status, currencySymbol: filter.currencySymbol },
          signed: true,
          subaccountId: opts?.subaccountId,
        },
        decodeWithdrawals,
      );
    },
    listClosed,
    iterateClosed: (filter = {}, opts = {}) => iteratePages((f) => listClosed(f, opts), filter, opts, CLOSED),
    byTxId: async (txId, opts) =>
      http.call(
        {
          method: 'GET',
          path: `/withdrawals/ByTxId/${segment('txId', txId, 'GET /withdrawals/ByTxId/{txId}')}`,
          signed: true,
          subaccountId: opts?.subaccountId,
        },
        decodeWithdrawals,
      ),
    get: async (id, opts) => byId('GET', id, opts),
    cancel: async (id, opts) => byId('DELETE', id, opts),
    create: async (withdrawal, opts) => {
      validateNewWithdrawal(withdrawal, 'POST /withdrawals');
      return http.call(
        { method: 'POST', path: '/withdrawals', body: withdrawal, signed: true, subaccountId: opts?.subaccountId },
        decodeWithdrawal,
      );
    },
    allowedAddresses: (opts) =>
      http.call(
        { method: 'GET', path: '/withdrawals/allowed-addresses', signed: true, subaccountId: opts?.subaccountId },
        decodeAllowedAddresses,
      ),
  };
}
