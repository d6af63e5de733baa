/**
 * Dust: an order's quote value must be worth at least `dustMinValueSatoshi` (50,000 by default) of BTC, the
 * exchange's DUST_TRADE_DISALLOWED_MIN_VALUE rule. The value is converted with `ctx.btcValue`; for a BTC-quoted
 * market it is the value itself. When no rate links the quote currency to BTC the rule cannot be evaluated and
 * is skipped — as the exchange simulator does — rather than refusing every order of that market.
 */
import { Decimal, dgte } from '../../core/decimal.js';
import { reason } from '../order-value.js';
import type { RiskCheck } from '../risk-context.js';

const SATOSHI_PER_BTC = 100_000_000;

/** The minimum in BTC of the last `dustMinValueSatoshi` seen: configs keep one value, and every order is checked against it. */
let minimum = { satoshi: Number.NaN, btc: new Decimal(0) };

function minimumBtc(satoshi: number): Decimal {
  if (minimum.satoshi !== satoshi) minimum = { satoshi, btc: new Decimal(satoshi).div(SATOSHI_PER_BTC) };
  return minimum.btc;
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
    const btc = quote === 'BTC' ? estimate.quote : ctx.btcValue?.(quote, estimate.quote);
    if (btc === undefined) return [];
    const min = minimumBtc(config.dustMinValueSatoshi);
    if (dgte(btc, min)) return [];
    return [reason('DUST', `order value ${btc.toFixed()} BTC is below the ${min.toFixed()} BTC minimum`)];
  },
};
