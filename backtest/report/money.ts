/** Money as the report writes it. */
import type { Decimal } from '../../src/core/decimal.js';

/**
 * `d` with 8 decimals, banker's rounding: every amount in report.json.
 *
 * @example
 * money(dec('1.5')) // '1.50000000'
 */
export function money(d: Decimal): string {
  return d.toFixed(8);
}
