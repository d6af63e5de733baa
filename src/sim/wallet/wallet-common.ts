/**
 * Small rules shared by the wallet modules and transfers: amount validation, filter validation and the
 * newest-first ordering every wallet list uses.
 */
import type { Decimal } from '../../core/decimal.js';
import { badRequest } from '../sim-error.js';

/** The service kept 8 decimals for every currency amount. */
export const AMOUNT_DECIMALS = 8;

/** 400 BAD_REQUEST naming the parameter, the shape the service used for invalid parameters. */
export function invalidParameter(parameter: string, detail: string) {
  return badRequest('BAD_REQUEST', detail, { invalidRequestParameters: [parameter] });
}

/** Throw 400 unless `amount` is a positive decimal with at most 8 decimals. */
export function requirePositiveAmount(parameter: string, amount: Decimal): void {
  if (!amount.isFinite() || amount.lte(0)) throw invalidParameter(parameter, `${parameter} must be positive`);
  if (amount.decimalPlaces() > AMOUNT_DECIMALS) {
    throw invalidParameter(parameter, `${parameter} has more than ${AMOUNT_DECIMALS} decimals`);
  }
}

/** Throw 400 unless `value` is undefined or one of `allowed`. */
export function requireStatusFilter<S extends string>(value: string | undefined, allowed: readonly S[]): S | undefined {
  if (value === undefined) return undefined;
  const v = value.toUpperCase() as S;
  if (!allowed.includes(v)) throw invalidParameter('status', `status must be one of ${allowed.join(', ')}`);
  return v;
}

/** Sort newest first by `at`, ties by creation order (newest first), so pages are stable. */
export function newestFirst<T>(items: T[], at: (t: T) => number, seq: (t: T) => number): T[] {
  return items.sort((a, b) => at(b) - at(a) || seq(b) - seq(a));
}

/** At most this many results for the "open" lists (seed section 8). */
export const OPEN_LIST_LIMIT = 1000;
