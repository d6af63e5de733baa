/**
 * Candle time arithmetic: interval starts, the seed's `recent` windows and the date ranges of the
 * `historical/{year}/{month}/{day}` endpoint. All in UTC epoch milliseconds; intervals are aligned to the epoch,
 * so MINUTE_5 candles start at :00, :05, ... and DAY_1 candles at 00:00 UTC, as the service's did.
 */
import { CANDLE_INTERVAL_MS, type CandleInterval } from '../../model/enums.js';
import { badRequest } from '../sim-error.js';

const DAY_MS = 86_400_000;

/**
 * How far back `GET .../candles/{type}/{interval}/recent` reaches (seed section 8, "Candle windows").
 *
 * @example
 * RECENT_WINDOW_MS.HOUR_1 // 31 days in ms
 */
export const RECENT_WINDOW_MS: Readonly<Record<CandleInterval, number>> = {
  MINUTE_1: DAY_MS,
  MINUTE_5: DAY_MS,
  HOUR_1: 31 * DAY_MS,
  DAY_1: 366 * DAY_MS,
};

/**
 * Start (epoch ms) of the `interval` candle that contains `at`.
 *
 * @example
 * candleStart('MINUTE_5', Date.parse('2021-06-14T01:53:38Z')) // Date.parse('2021-06-14T01:50:00Z')
 */
export function candleStart(interval: CandleInterval, at: number): number {
  const len = CANDLE_INTERVAL_MS[interval];
  return Math.floor(at / len) * len;
}

/**
 * Earliest candle start that belongs to a window of `windowMs` ending with the candle that contains `now`:
 * the window holds exactly `windowMs / interval` candle slots, the current (still open) one included.
 *
 * @example
 * oldestStartInWindow('DAY_1', now, RECENT_WINDOW_MS.DAY_1) // start of the day 365 days before today
 */
export function oldestStartInWindow(interval: CandleInterval, now: number, windowMs: number): number {
  return candleStart(interval, now) - windowMs + CANDLE_INTERVAL_MS[interval];
}

/** A half-open time range `[from, to)` in epoch ms. */
export interface TimeRange {
  from: number;
  to: number;
}

/**
 * The range `historical/{year}/{month}/{day}` covers for `interval`: one UTC day for MINUTE_1 and MINUTE_5,
 * one month for HOUR_1, one year for DAY_1 (the endpoint's "only the portions needed for the interval").
 * Portions beyond those needed are ignored. A missing or out-of-range portion is 400 BAD_REQUEST with
 * `data.invalidRequestParameters` naming it — the generic validation answer the simulator uses for malformed
 * parameters (the seed gives no code for this case).
 *
 * @example
 * historicalRange('HOUR_1', 2021, 6) // { from: Date.UTC(2021, 5, 1), to: Date.UTC(2021, 6, 1) }
 */
export function historicalRange(interval: CandleInterval, year: number, month?: number, day?: number): TimeRange {
  // Years before the epoch or absurdly far ahead cannot hold simulated candles and would only hide typos.
  if (!Number.isInteger(year) || year < 1970 || year > 9999) throw invalid('year', `year must be 1970..9999, got ${String(year)}`);
  if (interval === 'DAY_1') return { from: Date.UTC(year, 0, 1), to: Date.UTC(year + 1, 0, 1) };
  if (month === undefined) throw invalid('month', `month is required for ${interval} candles`);
  if (!Number.isInteger(month) || month < 1 || month > 12) throw invalid('month', `month must be 1..12, got ${String(month)}`);
  if (interval === 'HOUR_1') return { from: Date.UTC(year, month - 1, 1), to: Date.UTC(year, month, 1) };
  if (day === undefined) throw invalid('day', `day is required for ${interval} candles`);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (!Number.isInteger(day) || day < 1 || day > daysInMonth) {
    throw invalid('day', `day must be 1..${daysInMonth} for ${year}-${month}, got ${String(day)}`);
  }
  const from = Date.UTC(year, month - 1, day);
  return { from, to: from + DAY_MS };
}

function invalid(parameter: string, detail: string) {
  return badRequest('BAD_REQUEST', detail, { invalidRequestParameters: [parameter] });
}
