/**
 * Dust: an order's quote value must be worth at least `dustMinValueSatoshi` (50,000 by default) of BTC, the
 * exchange's DUST_TRADE_DISALLOWED_MIN_VALUE rule. The value is converted with `ctx.btcValue`; for a BTC-quoted
 * market it is the value itself. When no rate links the quote currency to BTC the rule cannot be evaluated and
 * is skipped — as the exchange simulator does — rather than refusing every order of that market.
 */
import { Decimal, dgt, dgte, ZERO } from '../../core/decimal.js';
import { reason } from '../order-value.js';
import type { RiskCheck } from '../risk-context.js';

const SATOSHI_PER_BTC = 100_000_000;

/** The minimum in BTC of the last `dustMinValueSatoshi` seen: configs keep one value, and every order is checked against it. */
let minimum = { satoshi: Number.NaN, btc: new Decimal(0) };

function minimumBtc(satoshi: number): Decimal {
  if (minimum.satoshi !== satoshi) minimum = { satoshi, btc: new Decimal(satoshi).div(SATOSHI_PER_BTC) };
  return minimum.btc;
}

/** The last (minimum, rate) pair's exact `minimum × rate` (undefined: it would be rounded). */
let edge: { min: Decimal; rate: Decimal; precision: number; product: Decimal | undefined } | undefined;

/**
 * Whether `amount ÷ rate`, rounded to the precision as decimal.js divides, is surely at least `min` — decided by
 * the product instead of the division where it can be: with `min × rate` exact (the digits of both fit the
 * precision) and `rate` positive, `amount ≥ min × rate` means the exact quotient is at least `min`, and so is the
 * rounded one (rounding is monotonic, `min` is representable). False means "not sure": divide. The product is kept
 * for the last (min, rate) objects (one configured minimum; one mid object while the touch holds).
 *
 * @example
 * quotientSurelyAtLeast(dec('300'), dec('30000.5'), dec('0.0005')); // true: 300 ≥ 15.00025
 */
export function quotientSurelyAtLeast(amount: Decimal, rate: Decimal, min: Decimal): boolean {
  const precision = Decimal.precision;
  let e = edge;
  if (!e || e.min !== min || e.rate !== rate || e.precision !== precision) {
    const product = dgt(rate, ZERO) && min.sd() + rate.sd() <= precision ? min.times(rate) : undefined;
    e = edge = { min, rate, precision, product };
  }
  return e.product !== undefined && dgte(amount, e.product);
}

/**
 * Denies orders worth less than the dust minimum (DUST).
 *
 * @example
 * // 0.0001 ETH at 0.05 BTC = 0.000005 BTC < 0.0005 BTC
 * dustCheck.check(tinyEthBtcOrder, ctx, config); // [{ code: 'DUST', ... }]
 */
export const dustCheck: RiskCheck = {
  name: 'dust',
  check(order, ctx, config) {
    const market = ctx.market(order.marketSymbol);
    const estimate = ctx.estimate(order);
    if (!market || !estimate) return [];
    const quote = market.quoteCurrencySymbol;
    const min = minimumBtc(config.dustMinValueSatoshi);
    // Most orders are worth far more than the minimum: when the context can say so without dividing, done.
    if (quote !== 'BTC' && ctx.btcAtLeast?.(quote, estimate.quote, min)) return [];
    const btc = quote === 'BTC' ? estimate.quote : ctx.btcValue?.(quote, estimate.quote);
    if (btc === undefined) return [];
    if (dgte(btc, min)) return [];
    return [reason('DUST', `order value ${btc.toFixed()} BTC is below the ${min.toFixed()} BTC minimum`)];
  },
};
