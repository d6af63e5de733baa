/**
 * Maximum notional: one order's quote value (its estimated full fill, see order-value.ts) may not exceed the
 * market's `maxNotional` limit. An order that cannot be valued (a market order on an empty book) is denied
 * while a limit is configured: fail closed.
 */
import { limitFor } from '../risk-config.js';
import { reason } from '../order-value.js';
import type { RiskCheck } from '../risk-context.js';

/**
 * Denies orders worth more than the limit (MAX_NOTIONAL).
 *
 * @example
 * // maxNotional.default 1000: 11 BTC at 100 USD is 1100 USD
 * maxNotionalCheck.check(order, ctx, config); // [{ code: 'MAX_NOTIONAL', ... }]
 */
export const maxNotionalCheck: RiskCheck = {
  name: 'max-notional',
  check(order, ctx, config) {
    const limit = limitFor(config.maxNotional, order.marketSymbol);
    if (!limit) return [];
    const estimate = ctx.estimate(order);
    if (!estimate) return [reason('MAX_NOTIONAL', `${order.marketSymbol}: the order cannot be valued (no book)`)];
    if (estimate.quote.lte(limit)) return [];
    return [reason('MAX_NOTIONAL', `order value ${estimate.quote.toFixed()} exceeds the ${limit.toFixed()} limit on ${order.marketSymbol}`)];
  },
};
