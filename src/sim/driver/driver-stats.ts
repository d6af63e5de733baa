/**
 * Counters of what a market driver did, so a demo or a test can see that liquidity is flowing and why orders were
 * refused, without the driver ever throwing out of a timer.
 */

/** What a driver has done since it started. */
export interface DriverStats {
  /** Orders the engine accepted. */
  placed: number;
  /** Orders the driver cancelled. */
  cancelled: number;
  /** Refusals by error code (`INSUFFICIENT_FUNDS`, `MIN_TRADE_REQUIREMENT_NOT_MET`, ...). */
  rejected: Record<string, number>;
  /** Funding deposits made to participants (start funding included). */
  credits: number;
  /** Unexpected failures (not engine refusals) caught at a timer boundary. */
  errors: number;
}

/** Fresh zeroed counters. */
export function newDriverStats(): DriverStats {
  return { placed: 0, cancelled: 0, rejected: {}, credits: 0, errors: 0 };
}

/** Count one refusal. */
export function countRejection(stats: DriverStats, code: string): void {
  stats.rejected[code] = (stats.rejected[code] ?? 0) + 1;
}
