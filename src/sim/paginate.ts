/**
 * Pagination and date filtering of list endpoints, exactly as the seed's "Pagination parameters" table and the
 * official Pagination topic describe them. Every paginated list of the simulator (closed orders, closed
 * conditional orders, executions, closed deposits and withdrawals, sub-accounts, transfers) goes through here,
 * so they cannot disagree on the rules.
 *
 * Callers filter by their own fields and sort in the endpoint's order first, then call {@link listPage}
 * (or {@link applyDateFilter} followed by {@link paginate}).
 *
 * Refusals (all 400, since they are invalid parameters):
 * - `INVALID_NEXT_PAGE_TOKEN` / `INVALID_PREVIOUS_PAGE_TOKEN` when a token matches no item of the list (seed codes);
 * - `BAD_REQUEST` with `data.invalidRequestParameters` naming the offending parameters for a pageSize outside
 *   1..200, both tokens given, or endDate before startDate. The seed gives no code for these; `BAD_REQUEST` with
 *   that data shape is the generic validation answer the service used for malformed query parameters.
 */
import { badRequest } from './sim-error.js';

/** Default number of items per page (seed). */
export const DEFAULT_PAGE_SIZE = 100;
/** Largest page (seed). */
export const MAX_PAGE_SIZE = 200;

/** The pagination part of a list query, already parsed from the wire (dates as `Date`). */
export interface PageQuery {
  /** 1 to 200, default 100. */
  pageSize?: number | undefined;
  /** Id of the last item of the current page: the answer starts right after it. */
  nextPageToken?: string | undefined;
  /** Id of the first item of the current page: the answer ends right before it. */
  previousPageToken?: string | undefined;
  /** Excludes earlier results (inclusive bound; sub-second precision ignored). */
  startDate?: Date | undefined;
  /** Excludes later results (inclusive bound; sub-second precision ignored); not before startDate. */
  endDate?: Date | undefined;
}

/** How {@link listPage} reads an item: its id (the page token) and the date the endpoint filters on. */
export interface PageKeys<T> {
  idOf: (item: T) => string;
  /** The date startDate/endDate apply to (e.g. closedAt, completedAt, executedAt). */
  dateOf?: (item: T) => Date | undefined;
  /**
   * True for the id of an item retention dropped (sim/retention.ts): a token naming it is past the oldest item
   * kept, so a next page is empty and a previous page is the oldest items kept, instead of an invalid token.
   */
  retired?: (id: string) => boolean;
}

/**
 * Throw 400 when the pagination parameters themselves are invalid (pageSize range, both tokens, date order).
 * Call it before any other work so a bad query never has side effects.
 */
export function validatePageQuery(q: PageQuery): void {
  const { pageSize, nextPageToken, previousPageToken, startDate, endDate } = q;
  if (pageSize !== undefined && (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE)) {
    throw invalid('pageSize', `pageSize must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${String(pageSize)}`);
  }
  if (nextPageToken !== undefined && previousPageToken !== undefined) {
    throw invalid('previousPageToken', 'nextPageToken and previousPageToken cannot be combined');
  }
  for (const [name, d] of [['startDate', startDate], ['endDate', endDate]] as const) {
    if (d !== undefined && Number.isNaN(d.getTime())) throw invalid(name, `${name} is not a valid date`);
  }
  if (startDate && endDate && toSecond(endDate) < toSecond(startDate)) {
    throw invalid('endDate', 'endDate must not be before startDate');
  }
}

/**
 * Keep the items whose date lies within [startDate, endDate] (both inclusive, both optional), preserving order.
 * Dates are compared at whole-second precision, because the service did not support finer precision (seed);
 * an item without the date (e.g. not yet completed) is dropped as soon as either bound is given.
 *
 * @example
 * applyDateFilter(withdrawals, (w) => w.completedAt, { startDate: new Date('2021-06-01T00:00:00Z') })
 */
export function applyDateFilter<T>(items: readonly T[], dateOf: (item: T) => Date | undefined, q: PageQuery): T[] {
  validatePageQuery(q);
  const { startDate, endDate } = q;
  if (!startDate && !endDate) return [...items];
  const from = startDate ? toSecond(startDate) : -Infinity;
  const to = endDate ? toSecond(endDate) : Infinity;
  return items.filter((item) => {
    const d = dateOf(item);
    if (!d) return false;
    const s = toSecond(d);
    return s >= from && s <= to;
  });
}

/**
 * One page of `items` (already filtered and sorted in the endpoint's order):
 * - no token: the first `pageSize` items;
 * - `nextPageToken`: the `pageSize` items right after the item with that id;
 * - `previousPageToken`: the `pageSize` items right before the item with that id (still in list order),
 *   i.e. the previous page of a forward walk.
 * A token matching no item answers 400 INVALID_NEXT_PAGE_TOKEN / INVALID_PREVIOUS_PAGE_TOKEN.
 *
 * @example
 * paginate(closed, (o) => o.id, { pageSize: 10, nextPageToken: lastSeen.id })
 */
export function paginate<T>(items: readonly T[], idOf: (item: T) => string, q: PageQuery, retired?: (id: string) => boolean): T[] {
  validatePageQuery(q);
  const size = q.pageSize ?? DEFAULT_PAGE_SIZE;
  if (q.nextPageToken !== undefined) {
    const i = indexOfId(items, idOf, q.nextPageToken);
    if (i < 0 && retired?.(q.nextPageToken)) return [];
    if (i < 0) throw badRequest('INVALID_NEXT_PAGE_TOKEN', `no item with id ${q.nextPageToken}`);
    return items.slice(i + 1, i + 1 + size);
  }
  if (q.previousPageToken !== undefined) {
    const j = indexOfId(items, idOf, q.previousPageToken);
    if (j < 0 && retired?.(q.previousPageToken)) return items.slice(Math.max(0, items.length - size));
    if (j < 0) throw badRequest('INVALID_PREVIOUS_PAGE_TOKEN', `no item with id ${q.previousPageToken}`);
    return items.slice(Math.max(0, j - size), j);
  }
  return items.slice(0, size);
}

/**
 * The whole list-endpoint pipeline after the caller's own filters and sort: date filter (when `dateOf` is
 * given) then {@link paginate}. Tokens are looked up in the date-filtered list, as the page a client holds came
 * from the same query.
 */
export function listPage<T>(items: readonly T[], keys: PageKeys<T>, q: PageQuery): T[] {
  const dated = keys.dateOf ? applyDateFilter(items, keys.dateOf, q) : items;
  return paginate(dated, keys.idOf, q, keys.retired);
}

function indexOfId<T>(items: readonly T[], idOf: (item: T) => string, id: string): number {
  // Ids are uuids; the service compared them case-insensitively like every other uuid parameter.
  const wanted = id.toLowerCase();
  return items.findIndex((item) => idOf(item).toLowerCase() === wanted);
}

function toSecond(d: Date): number {
  return Math.floor(d.getTime() / 1000);
}

function invalid(parameter: string, detail: string) {
  return badRequest('BAD_REQUEST', detail, { invalidRequestParameters: [parameter] });
}
