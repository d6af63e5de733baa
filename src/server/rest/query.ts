/**
 * Query-string parameters of the v3 list endpoints, parsed from the raw request target. Values that do not parse
 * answer 400 BAD_REQUEST naming the parameter; semantic checks (pageSize range, token rules) live in
 * src/sim/paginate.ts so the in-process gateway applies the very same rules.
 */
import { SimError } from '../../sim/sim-error.js';
import type { PageQuery } from '../../sim/paginate.js';

function invalid(name: string, detail: string): SimError {
  return new SimError(400, 'BAD_REQUEST', detail, { invalidRequestParameters: [name] });
}

/** A query parameter as a string, or undefined when absent or empty. */
export function qstr(q: URLSearchParams, name: string): string | undefined {
  const v = q.get(name);
  return v === null || v === '' ? undefined : v;
}

/** A boolean query parameter (`true`/`false`, any case). */
export function qbool(q: URLSearchParams, name: string): boolean | undefined {
  const v = qstr(q, name);
  if (v === undefined) return undefined;
  if (/^true$/i.test(v)) return true;
  if (/^false$/i.test(v)) return false;
  throw invalid(name, `${name} must be true or false`);
}

/** An integer query parameter. */
export function qint(q: URLSearchParams, name: string): number | undefined {
  const v = qstr(q, name);
  if (v === undefined) return undefined;
  if (!/^-?\d{1,9}$/.test(v)) throw invalid(name, `${name} must be an integer`);
  return Number(v);
}

/** A date-time query parameter (ISO 8601). */
export function qdate(q: URLSearchParams, name: string): Date | undefined {
  const v = qstr(q, name);
  if (v === undefined) return undefined;
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) throw invalid(name, `${name} must be an ISO 8601 date-time`);
  return new Date(ms);
}

/** One of a fixed set of values. */
export function qenum<const T extends readonly string[]>(q: URLSearchParams, name: string, values: T): T[number] | undefined {
  const v = qstr(q, name);
  if (v === undefined) return undefined;
  if (!values.includes(v)) throw invalid(name, `${name} must be one of ${values.join(', ')}`);
  return v as T[number];
}

/** The pagination and date parameters of a list endpoint. */
export function pageQuery(q: URLSearchParams): PageQuery {
  return {
    pageSize: qint(q, 'pageSize'),
    nextPageToken: qstr(q, 'nextPageToken'),
    previousPageToken: qstr(q, 'previousPageToken'),
    startDate: qdate(q, 'startDate'),
    endDate: qdate(q, 'endDate'),
  };
}
