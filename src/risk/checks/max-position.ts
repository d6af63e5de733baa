/**
 * Maximum position: the market's position of all strategies together, after a full fill of this order, may not
 * exceed `maxPosition` in absolute base quantity. An order that moves the position towards flat always passes,
 * even while the position is still over the limit (it is how one gets back under it). Resting orders are not
 * counted: the limit is on what a fill of THIS order would leave.
 */
import { limitFor } from '../risk-config.js';
import { baseSize, reason } from '../order-value.js';
import type { RiskCheck } from '../risk-context.js';

/**
 * Denies orders that would leave a position over the limit (MAX_POSITION).
 *
 * @example
 * // maxPosition BTC-USD 1, long 0.8: buying 0.3 would leave 1.1
 * maxPositionCheck.check(buy03, ctx, config); // [{ code: 'MAX_POSITION', ... }]
 */
export const maxPositionCheck: RiskCheck = {
  name: 'max-position',
  check(order, ctx, config) {
    const limit = limitFor(config.maxPosition, order.marketSymbol);
    if (!limit) return [];
    const size = baseSize(order, ctx);
    if (size === undefined) return [reason('MAX_POSITION', `${order.marketSymbol}: the order's size cannot be estimated (no book)`)];
    const position = ctx.portfolio.position(order.marketSymbol);
    const after = order.direction === 'BUY' ? position.plus(size) : position.minus(size);
    if (after.abs().lte(limit) || after.abs().lt(position.abs())) return [];
    return [reason('MAX_POSITION', `position ${position.toFixed()} would become ${after.toFixed()}, over the ${limit.toFixed()} limit on ${order.marketSymbol}`)];
  },
};
