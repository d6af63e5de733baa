/** Deposit endpoints. */
import { arrayOf } from '../../../model/decode.js';
import { type Deposit, decodeDeposit } from '../../../model/wallet.js';
import type { CallOptions, HttpTransport, Sequenced } from '../http.js';
import { type IterateOptions, iteratePages, pageQuery } from '../paginate.js';
import { optionalText, type PageFilter, requireOneOf, segment, validatePageFilter } from '../validate.js';

/** Filter of GET /deposits/open. */
export interface OpenDepositsFilter {
  status?: 'PENDING' | undefined;
  currencySymbol?: string | undefined;
}

/** Filter of GET /deposits/closed (dates apply to completedAt). */
export interface ClosedDepositsFilter extends PageFilter {
  status?: 'COMPLETED' | 'ORPHANED' | 'INVALIDATED' | undefined;
  currencySymbol?: string | undefined;
}

/** `client.deposits` (signed). */
export interface DepositsEndpoints {
  /** GET /deposits/open — pending deposits (newest updatedAt first, first 1000) with the snapshot's Sequence. */
  listOpen(filter?: OpenDepositsFilter, opts?: CallOptions): Promise<Sequenced<Deposit[]>>;
  /** HEAD /deposits/open — the Sequence of the open deposits snapshot. */
  openSequence(opts?: CallOptions): Promise<number>;
  /** GET /deposits/closed — one page, newest completedAt first. */
  listClosed(filter?: ClosedDepositsFilter, opts?: CallOptions): Promise<Deposit[]>;
  /** Every closed deposit matching `filter`, page by page (GET /deposits/closed). */
  iterateClosed(filter?: ClosedDepositsFilter, opts?: IterateOptions): AsyncGenerator<Deposit, void, undefined>;
  /** GET /deposits/ByTxId/{txId} — the account's deposits with that blockchain transaction id. */
  byTxId(txId: string, opts?: CallOptions): Promise<Deposit[]>;
  /** GET /deposits/{depositId} — one deposit. */
  get(depositId: string, opts?: CallOptions): Promise<Deposit>;
}

const decodeDeposits = arrayOf(decodeDeposit);
const OPEN = 'GET /deposits/open';
const CLOSED = 'GET /deposits/closed';

/** Builds `client.deposits` over a transport. */
export function createDepositsEndpoints(http: HttpTransport): DepositsEndpoints {
  const listClosed = async (filter: ClosedDepositsFilter = {}, opts?: CallOptions) => {
    requireOneOf('status', filter.status, ['COMPLETED', 'ORPHANED', 'INVALIDATED'], CLOSED, true);
    optionalText('currencySymbol', filter.currencySymbol, CLOSED);
    validatePageFilter(filter, CLOSED);
    return http.call(
      {
        method: 'GET',
        path: '/deposits/closed',
        query: { status: filter.status, currencySymbol: filter.currencySymbol, ...pageQuery(filter) },
        signed: true,
        subaccountId: opts?.subaccountId,
      },
      decodeDeposits,
    );
  };
  return {
    listOpen: async (filter = {}, opts) => {
      requireOneOf('status', filter.status, ['PENDING'], OPEN, true);
      optionalText('currencySymbol', filter.currencySymbol, OPEN);
      return http.callSequenced(
        {
          method: 'GET',
          path: '/deposits/open',
          query: { status: filter.status, currencySymbol: filter.currencySymbol },
          signed: true,
          subaccountId: opts?.subaccountId,
        },
        decodeDeposits,
      );
    },
    openSequence: (opts) => http.head({ method: 'HEAD', path: '/deposits/open', signed: true, subaccountId: opts?.subaccountId }),
    listClosed,
    iterateClosed: (filter = {}, opts = {}) => iteratePages((f) => listClosed(f, opts), filter, opts, CLOSED),
    byTxId: async (txId, opts) =>
      http.call(
        {
          method: 'GET',
          path: `/deposits/ByTxId/${segment('txId', txId, 'GET /deposits/ByTxId/{txId}')}`,
          signed: true,
          subaccountId: opts?.subaccountId,
        },
        decodeDeposits,
      ),
    get: async (depositId, opts) =>
      http.call(
        {
          method: 'GET',
          path: `/deposits/${segment('depositId', depositId, 'GET /deposits/{depositId}')}`,
          signed: true,
          subaccountId: opts?.subaccountId,
        },
        decodeDeposit,
      ),
  };
}
