/**
 * Rounding prices to a market's precision. A strategy rounds its own prices in the direction that keeps its
 * intention (a bid rounds down, an ask rounds up, so neither becomes more aggressive than computed); the risk
 * engine would otherwise round or deny by its own configuration.
 */
import { Decimal } from '../core/decimal.js';
import { toPlaces } from '../core/decimal-round.js';

/** How to round: `down` toward zero (bids), `up` away from zero (asks), `nearest` half-even. */
export type RoundingMode = 'down' | 'up' | 'nearest';

/**
 * Round `rate` to `precision` decimals (a {@link Market}'s `precision`); unchanged when precision is unknown.
 *
 * @example
 * roundRate(dec('100.123456'), 2, 'down').toString(); // '100.12'
 * roundRate(dec('100.121'), 2, 'up').toString();      // '100.13'
 */
export function roundRate(rate: Decimal, precision: number | undefined, mode: RoundingMode): Decimal {
  if (precision === undefined || !Number.isInteger(precision) || precision < 0) return rate;
  // Down and up (every bid and ask a quoting strategy makes) without decimal.js's copy and general rounding.
  if (mode !== 'nearest') return toPlaces(rate, precision, mode === 'up');
  return rate.toDecimalPlaces(precision, Decimal.ROUND_HALF_EVEN);
}
