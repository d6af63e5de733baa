/**
 * The exchange's rounding rule for money, in ONE place: the simulator settles and reserves with it, and the risk
 * engine (src/risk/order-reserve.ts) estimates what an order holds with it, so the two agree to the last unit
 * when the risk engine is configured with the exchange's commission rate.
 *
 * Amounts on the wire have 8 decimals, so every amount that moves money is cut to 8 decimals:
 * - a fill's quote amount (its proceeds) is `floor8(quantity × rate)`; buyer and seller both see exactly this
 *   amount, and a fill whose proceeds would round to zero does not happen (see src/sim/book/matcher.ts);
 * - commission is `floor8(quote × feeRate)` per fill and per side.
 * Rounding DOWN makes every per-fill amount at most its exact value, so a reservation computed by rounding the
 * exact maximum UP (see {@link buyReserve}) always covers every possible sequence of fills — no order can ever
 * spend more than it holds, which is what keeps `held ≥ 0` and conservation exact. A seller's proceeds can thus
 * fall short of `quantity × limit` by less than one satoshi per fill: that is the rounding, not a worse price.
 */
import { Decimal, type Decimal as DecimalT, dmax } from '../core/decimal.js';
import { toPlaces } from '../core/decimal-round.js';
import { dadd, dmul, dsub } from '../core/decimal-fast.js';

/** The smallest wire amount, 1e-8. */
export const SATOSHI: DecimalT = new Decimal('0.00000001');

/** Round down (towards zero) to 8 decimals: `d.toDecimalPlaces(8, ROUND_DOWN)`, by core/decimal-round.ts. */
export function floor8(d: DecimalT): DecimalT {
  return toPlaces(d, 8, false);
}

/** Round up (away from zero) to 8 decimals: `d.toDecimalPlaces(8, ROUND_UP)`, by core/decimal-round.ts. */
export function ceil8(d: DecimalT): DecimalT {
  return toPlaces(d, 8, true);
}

/** Quote amount of a fill: `floor8(quantity × rate)`. */
export function fillQuote(quantity: DecimalT, rate: DecimalT): DecimalT {
  return floor8(dmul(quantity, rate));
}

/** Commission on a quote amount: `floor8(quote × feeRate)`. */
export function commissionOn(quote: DecimalT, feeRate: DecimalT): DecimalT {
  return floor8(dmul(quote, feeRate));
}

/** The larger of a market's maker and taker rates: what a limit buy reserves for commission. */
export function maxFee(rates: { maker: DecimalT; taker: DecimalT }): DecimalT {
  return dmax(rates.maker, rates.taker);
}

/**
 * Quote a limit buy of `quantity` at `limit` keeps reserved: `ceil8(q × limit) + ceil8(q × limit × fee)`.
 * Every fill happens at or below the limit and pays at most the larger fee, each amount rounded down, so this
 * covers any sequence of fills of the remaining quantity (see the module note).
 */
export function buyReserve(quantity: DecimalT, limit: DecimalT, fee: DecimalT): DecimalT {
  const exact = dmul(quantity, limit);
  return dadd(ceil8(exact), ceil8(dmul(exact, fee)));
}

/** What a buyer pays for a fill: quote plus its commission. */
export function buyCost(quantity: DecimalT, rate: DecimalT, fee: DecimalT): DecimalT {
  const quote = fillQuote(quantity, rate);
  return dadd(quote, commissionOn(quote, fee));
}

/** What a seller receives for a fill: quote minus its commission. */
export function sellReceipt(quantity: DecimalT, rate: DecimalT, fee: DecimalT): DecimalT {
  const quote = fillQuote(quantity, rate);
  return dsub(quote, commissionOn(quote, fee));
}
