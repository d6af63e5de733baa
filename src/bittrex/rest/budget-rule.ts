/**
 * The numbers every process sharing one API key's call budget must agree on, validated. Apart from the Redis store
 * (shared-budget.ts) so that reading a bot config never loads the Redis client.
 */
import { ValidationError } from '../../core/errors.js';

/** Which cap a call is checked against: cancels may use the reserve, everything else may not. */
export type BudgetClass = 'cancel' | 'other';

/** The numbers every process of one key must agree on (they come from the same bot config). */
export interface BudgetRule {
  /** Calls the key may make per calendar minute. */
  callsPerMinute: number;
  /** Calls per minute only cancels may use. */
  cancelReserve: number;
  /** Processes that may share the key (declared; a larger real number breaks the fallback guarantee). */
  maxProcesses: number;
  /** Calls per minute one process may make on its own while Redis is unreachable. */
  fallbackShare: number;
}

function checkInt(field: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) throw new ValidationError(field, `must be a whole number >= ${min}, got ${String(value)}`);
  return value;
}

/** Validate and complete the sharing numbers; throws a ValidationError naming the field. */
export function budgetRule(o: { callsPerMinute: number; maxProcesses: number; fallbackShare?: number | undefined; cancelReserve?: number | undefined }): BudgetRule {
  const callsPerMinute = checkInt('callsPerMinute', o.callsPerMinute, 1);
  const maxProcesses = checkInt('maxProcesses', o.maxProcesses, 1);
  const fallbackShare = checkInt('fallbackShare', o.fallbackShare ?? Math.floor(callsPerMinute / maxProcesses), 1);
  if (fallbackShare * maxProcesses > callsPerMinute) {
    throw new ValidationError('fallbackShare', `${fallbackShare} calls x ${maxProcesses} processes exceeds the key's ${callsPerMinute} calls a minute`);
  }
  const cancelReserve = checkInt('cancelReserve', o.cancelReserve ?? Math.ceil(callsPerMinute / 10), 0);
  if (cancelReserve >= callsPerMinute) throw new ValidationError('cancelReserve', `must be below callsPerMinute (${callsPerMinute}), got ${cancelReserve}`);
  return { callsPerMinute, maxProcesses, fallbackShare, cancelReserve };
}
