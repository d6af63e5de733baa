/**
 * Small exact indicators for strategies. Pure functions over Decimal series (oldest first), so a strategy can
 * compute them inside a `map` with no state of its own and a test can check them by hand.
 */
import { Decimal } from '../core/decimal.js';

/**
 * Simple moving average of the last `period` values, or undefined when there are fewer.
 *
 * @example
 * sma([dec(1), dec(2), dec(3), dec(4)], 2)?.toString(); // '3.5'
 */
export function sma(values: readonly Decimal[], period: number): Decimal | undefined {
  if (!Number.isInteger(period) || period < 1 || values.length < period) return undefined;
  let sum = new Decimal(0);
  for (let i = values.length - period; i < values.length; i++) sum = sum.plus(values[i]!);
  return sum.div(period);
}

/**
 * Highest of the last `period` values, or undefined when there are fewer.
 *
 * @example
 * highest([dec(5), dec(9), dec(7)], 2)?.toString(); // '9'
 */
export function highest(values: readonly Decimal[], period: number): Decimal | undefined {
  return extreme(values, period, (a, b) => a.gt(b));
}

/**
 * Lowest of the last `period` values, or undefined when there are fewer.
 *
 * @example
 * lowest([dec(5), dec(9), dec(7)], 2)?.toString(); // '7'
 */
export function lowest(values: readonly Decimal[], period: number): Decimal | undefined {
  return extreme(values, period, (a, b) => a.lt(b));
}

function extreme(values: readonly Decimal[], period: number, better: (a: Decimal, b: Decimal) => boolean): Decimal | undefined {
  if (!Number.isInteger(period) || period < 1 || values.length < period) return undefined;
  let best = values[values.length - period]!;
  for (let i = values.length - period + 1; i < values.length; i++) if (better(values[i]!, best)) best = values[i]!;
  return best;
}

/** Which way `fast` crossed `slow` between two observations. */
export type Cross = 'up' | 'down' | undefined;

/**
 * `'up'` when fast moved from at-or-below slow to above it (a golden cross), `'down'` for the reverse (a death
 * cross), undefined otherwise.
 *
 * @example
 * crossDirection({ fast: dec(9), slow: dec(10) }, { fast: dec(11), slow: dec(10) }); // 'up'
 */
export function crossDirection(prev: { fast: Decimal; slow: Decimal }, curr: { fast: Decimal; slow: Decimal }): Cross {
  const before = prev.fast.cmp(prev.slow);
  const after = curr.fast.cmp(curr.slow);
  if (before <= 0 && after > 0) return 'up';
  if (before >= 0 && after < 0) return 'down';
  return undefined;
}
