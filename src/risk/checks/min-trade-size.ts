/**
 * Minimum trade size: an order's base size must reach the market's minTradeSize (the exchange refuses smaller
 * ones with MIN_TRADE_REQUIREMENT_NOT_MET). A ceiling order's base size is its ceiling at its limit (or, for a
 * CEILING_MARKET, at the rates of the book walk).
 *
 * With `minTradeSizePolicy: 'round'` a too small order is enlarged to exactly the minimum (a ceiling to the quote
 * amount that buys it, rounded up to 8 decimals) — except an order that reduces a position: enlarging it could
 * flip the position, so it is denied instead.
 */
import { Decimal, dgte, ZERO } from '../../core/decimal.js';
import { baseSize, reason } from '../order-value.js';
import type { RiskCheck } from '../risk-context.js';
import { AMOUNT_DECIMALS } from './precision.js';

/**
 * Rounds up or denies orders below minTradeSize (MIN_TRADE_SIZE).
 *
 * @example
 * // minTradeSize 0.0001, policy 'round':
 * minTradeSizeCheck.check({ ...order, quantity: dec('0.00005') }, ctx, config); // { order: { ...order, quantity: 0.0001 } }
 */
export const minTradeSizeCheck: RiskCheck = {
  name: 'min-trade-size',
  check(order, ctx, config) {
    const market = ctx.market(order.marketSymbol);
    if (!market) return [];
    const size = baseSize(order, ctx);
    // An order that cannot be sized is denied by the checks that need its value.
    if (size === undefined || dgte(size, market.minTradeSize)) return [];
    if (config.minTradeSizePolicy === 'round' && !order.reducesPosition && size.gt(ZERO)) {
      if (order.type === 'LIMIT' || order.type === 'MARKET') return { order: { ...order, quantity: market.minTradeSize } };
      // Ceiling orders: scale the ceiling by minimum ÷ size (the average rate stays the same).
      const ceiling = order.ceiling!.times(market.minTradeSize).div(size).toDecimalPlaces(AMOUNT_DECIMALS, Decimal.ROUND_UP);
      return { order: { ...order, ceiling } };
    }
    return [reason('MIN_TRADE_SIZE', `size ${size.toFixed()} is below ${market.symbol} minimum trade size ${market.minTradeSize.toFixed()}`)];
  },
};
