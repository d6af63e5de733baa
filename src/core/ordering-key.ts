/**
 * {@link orderingKey}: a decimal's double without going through its text — what orders book levels (the
 * synchronized book, the backtest's recorded book and queues, the simulator's book sides).
 */
import type { Decimal } from './decimal.js';

const POW10 = [1, 1e7, 1e14, 1e21];
const MAX_EXACT = 2 ** 53;

/**
 * decimal.js's documented read-only representation: `d` base-1e7 words aligned on the decimal point (null for
 * NaN/Infinity), `e` the decimal exponent, `s` the sign.
 */
export interface DecimalParts {
  d: number[] | null;
  e: number;
  s: number;
}

/**
 * A double that orders like `d` does: the correctly rounded value of `d`. Built from the {@link DecimalParts}
 * because `toNumber()` goes through a string and costs ~10x more on this hot path. A word integer below 2^53
 * times or divided by an exact power of ten is one correctly rounded IEEE operation.
 */
export function orderingKey(d: Decimal): number {
  const words = (d as unknown as DecimalParts).d;
  if (words !== null && words.length <= 3) {
    let n = words[0]!;
    for (let i = 1; i < words.length; i++) n = n * 1e7 + words[i]!;
    const wordExp = Math.floor(d.e / 7) - (words.length - 1);
    if (n < MAX_EXACT && wordExp >= -3 && wordExp <= 3) {
      const v = wordExp >= 0 ? n * POW10[wordExp]! : n / POW10[-wordExp]!;
      return d.s < 0 ? -v : v;
    }
  }
  return d.toNumber();
}
