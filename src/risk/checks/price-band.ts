/**
 * Price band: the fat-finger guard. A limit price may be at most `priceBand` (a fraction, 0.05 = 5 %) away from
 * the synchronized mid, on either side. A market order has no limit, so the check uses the far side of the
 * book: the worst rate a full fill would reach walking the opposite levels — which also catches a market order
 * too large for the book. Without a mid (one side of the book empty, or no book) nothing can be judged and the
 * order is denied.
 */
import { dcmp, Decimal, dgt, ZERO } from '../../core/decimal.js';
import { dsub } from '../../core/decimal-fast.js';
import { isMarketType, midOf, reason } from '../order-value.js';
import type { RiskCheck } from '../risk-context.js';

/**
 * `diff / mid ≤ band` decided without the division, when it can be: with `band × mid` exact (the digits of both
 * fit the precision, so the product is not rounded, and neither is `band`), `diff ≤ band × mid` means the exact
 * quotient is at most `band`, and so is the quotient rounded to the precision (rounding is monotonic). False
 * leaves it to the division (`mid` is positive here).
 */
function surelyWithin(diff: Decimal, mid: Decimal, band: Decimal): boolean {
  const edge = exactEdge(mid, band);
  return edge !== undefined && dcmp(diff, edge) <= 0;
}

/** The last (mid, band) pair's exact `band × mid` (undefined: it would be rounded). */
let last: { mid: Decimal; band: Decimal; precision: number; edge: Decimal | undefined } | undefined;

/**
 * `band × mid` when exact, else undefined. Kept for the last pair of objects (and precision): the orders of one
 * requote are judged against one mid object (midOf keeps it while the touch holds) and one configured band.
 */
function exactEdge(mid: Decimal, band: Decimal): Decimal | undefined {
  const precision = Decimal.precision;
  if (last && last.mid === mid && last.band === band && last.precision === precision) return last.edge;
  const edge = band.sd() + mid.sd() > precision ? undefined : band.times(mid);
  last = { mid, band, precision, edge };
  return edge;
}

/**
 * Denies orders priced too far from the mid (PRICE_BAND).
 *
 * @example
 * // mid 100, band 0.05
 * priceBandCheck.check({ ...buy, limit: dec('106') }, ctx, config); // [{ code: 'PRICE_BAND', ... }]
 */
export const priceBandCheck: RiskCheck = {
  name: 'price-band',
  check(order, ctx, config) {
    const band = config.priceBand;
    if (!band) return [];
    const mid = midOf(ctx.marketStore, order.marketSymbol);
    if (!mid || !dgt(mid, ZERO)) return [reason('PRICE_BAND', `${order.marketSymbol}: no mid price to check against`)];
    let rate = order.limit;
    if (isMarketType(order)) {
      const estimate = ctx.estimate(order);
      if (!estimate) return [reason('PRICE_BAND', `${order.marketSymbol}: no ${order.direction === 'BUY' ? 'asks' : 'bids'} to fill a market order`)];
      if (!estimate.complete) return [reason('PRICE_BAND', `${order.marketSymbol}: the book is too thin to fill the market order`)];
      rate = estimate.worstRate;
    }
    if (!rate) return [];
    // |rate − mid| as the difference taken the right way round: no second Decimal for abs() (the rounding mode is
    // symmetric, so mid − rate is exactly −(rate − mid)).
    const diff = dcmp(rate, mid) >= 0 ? dsub(rate, mid) : dsub(mid, rate);
    if (surelyWithin(diff, mid, band)) return [];
    const distance = diff.div(mid);
    if (distance.lte(band)) return [];
    return [reason('PRICE_BAND', `rate ${rate.toFixed()} is ${distance.times(100).toFixed(2)} % from mid ${mid.toFixed()} (band ${band.times(100).toFixed()} %)`)];
  },
};
