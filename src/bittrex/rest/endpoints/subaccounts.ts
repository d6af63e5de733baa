/** Sub-account endpoints (partners only). */
import { ValidationError } from '../../../core/errors.js';
import { arrayOf } from '../../../model/decode.js';
import { type Subaccount, decodeSubaccount } from '../../../model/subaccount.js';
import type { CallOptions, HttpTransport } from '../http.js';
import { type IterateOptions, iteratePages } from '../paginate.js';
import { type PageFilter, segment, validatePageFilter } from '../validate.js';

/** Filter of GET /subaccounts: pagination only (no date range), newest createdAt first. */
export type SubaccountsFilter = Pick<PageFilter, 'pageSize' | 'nextPageToken' | 'previousPageToken'>;

/** `client.subaccounts` (signed, partners only). */
export interface SubaccountsEndpoints {
  /** GET /subaccounts — one page of sub-accounts, newest first. */
  list(filter?: SubaccountsFilter, opts?: CallOptions): Promise<Subaccount[]>;
  /** Every sub-account, page by page (GET /subaccounts). */
  iterate(filter?: SubaccountsFilter, opts?: IterateOptions): AsyncGenerator<Subaccount, void, undefined>;
  /** POST /subaccounts — create a sub-account (body `{}`; 201 Subaccount). */
  create(opts?: CallOptions): Promise<Subaccount>;
  /** GET /subaccounts/{subaccountId} — one sub-account. */
  get(subaccountId: string, opts?: CallOptions): Promise<Subaccount>;
}

const decodeSubaccounts = arrayOf(decodeSubaccount);
const LIST = 'GET /subaccounts';

/** Builds `client.subaccounts` over a transport. */
export function createSubaccountsEndpoints(http: HttpTransport): SubaccountsEndpoints {
  const list = async (filter: SubaccountsFilter = {}, opts?: CallOptions) => {
    // The endpoint has no date range; a caller passing one anyway must not get silently unfiltered results.
    const f = filter as PageFilter;
    if (f.startDate !== undefined) throw new ValidationError('startDate', `is not supported (${LIST})`);
    if (f.endDate !== undefined) throw new ValidationError('endDate', `is not supported (${LIST})`);
    validatePageFilter(filter, LIST);
    return http.call(
      {
        method: 'GET',
        path: '/subaccounts',
        query: { nextPageToken: filter.nextPageToken, previousPageToken: filter.previousPageToken, pageSize: filter.pageSize },
        signed: true,
        subaccountId: opts?.subaccountId,
      },
      decodeSubaccounts,
    );
  };
  return {
    list,
    iterate: (filter = {}, opts = {}) => iteratePages((f) => list(f, opts), filter, opts, LIST),
    create: (opts) =>
      http.call({ method: 'POST', path: '/subaccounts', body: {}, signed: true, subaccountId: opts?.subaccountId }, decodeSubaccount),
    get: async (subaccountId, opts) =>
      http.call(
        {
          method: 'GET',
          path: `/subaccounts/${segment('subaccountId', subaccountId, 'GET /subaccounts/{subaccountId}')}`,
          signed: true,
          subaccountId: opts?.subaccountId,
        },
        decodeSubaccount,
      ),
  };
}
