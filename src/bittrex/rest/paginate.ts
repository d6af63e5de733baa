/**
 * Walking paginated list endpoints (seed section 2): a page after `nextPageToken` (the id of the last item seen)
 * or before `previousPageToken` (the id of the first item seen), until a page comes back empty or short.
 */
import { ValidationError, WireFormatError } from '../../core/errors.js';
import type { CallOptions, Query } from './http.js';
import { requireOneOf, type PageFilter, validatePageFilter } from './validate.js';

/** Which way to walk: `next` follows the endpoint's sort order, `previous` walks back against it. */
export type PageDirection = 'next' | 'previous';

/** Options of the `iterate*` methods. */
export interface IterateOptions extends CallOptions {
  /** Default `next`. */
  direction?: PageDirection | undefined;
  /** Items per request, 1 to 200; default the filter's pageSize, else 100. */
  pageSize?: number | undefined;
}

const DEFAULT_PAGE_SIZE = 100;

/** The pagination part of a list query, in the order the official document lists the parameters. */
export function pageQuery(filter: PageFilter): Query {
  return {
    nextPageToken: filter.nextPageToken,
    previousPageToken: filter.previousPageToken,
    pageSize: filter.pageSize,
    startDate: filter.startDate,
    endDate: filter.endDate,
  };
}

/**
 * Yields every item of a paginated list, one request per page. The filter's own token (if any) is the starting
 * cursor; each next request uses the id of the last item (direction `next`) or of the first item (`previous`)
 * of the page before. Walking `previous`, each page is yielded last item first, so items always come out
 * nearest-to-the-cursor first and the whole walk is in one monotonic order.
 *
 * The page size is always sent explicitly so that a short page reliably means "no more".
 *
 * @example
 * for await (const order of iteratePages((f) => client.orders.listClosed(f), { marketSymbol: 'BTC-USD' }, {}, 'GET /orders/closed')) {
 *   console.log(order.id);
 * }
 */
export async function* iteratePages<T extends { id: string }, F extends PageFilter>(
  fetchPage: (filter: F) => Promise<T[]>,
  filter: F,
  opts: IterateOptions,
  where: string,
): AsyncGenerator<T, void, undefined> {
  const direction = opts.direction ?? 'next';
  requireOneOf('direction', direction, ['next', 'previous'], where);
  const pageSize = opts.pageSize ?? filter.pageSize ?? DEFAULT_PAGE_SIZE;
  const tokenKey = direction === 'next' ? 'nextPageToken' : 'previousPageToken';
  const otherKey = direction === 'next' ? 'previousPageToken' : 'nextPageToken';
  if (filter[otherKey] !== undefined) {
    throw new ValidationError(otherKey, `cannot start a walk in direction '${direction}'; use ${tokenKey} (${where})`);
  }
  validatePageFilter({ ...filter, pageSize }, where);
  let token = filter[tokenKey];
  for (;;) {
    const page = await fetchPage({ ...filter, pageSize, [tokenKey]: token } as F);
    if (direction === 'next') {
      for (const item of page) yield item;
    } else {
      for (let i = page.length - 1; i >= 0; i--) yield page[i]!;
    }
    if (page.length < pageSize) return;
    const edge = direction === 'next' ? page[page.length - 1]! : page[0]!;
    if (edge.id === token) {
      throw new WireFormatError(where, tokenKey, `did not advance: the page ${direction === 'next' ? 'after' : 'before'} ${token} ends with the same item`);
    }
    token = edge.id;
  }
}
