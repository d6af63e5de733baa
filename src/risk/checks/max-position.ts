/**
 * Maximum position: the market's position of all strategies together may not go beyond `maxPosition` (absolute
 * base quantity) in the worst case — this order filled in full at its largest size ({@link maxBase}: a ceiling
 * order can fill below its limit and buy more) together with every order of the same side still resting or in
 * flight (`ctx.pendingOrders`). A BUY is judged on the long extreme `position + pending buys + size ≤ limit`, a
 * SELL on the short extreme `position − pending sells − size ≥ −limit`; so an order towards flat always passes
 * while it cannot overshoot past flat beyond the limit (it is how one gets back under it), and two orders that
 * each fit but not together are not both approved.
 */
import { limitFor } from '../risk-config.js';
import { reason } from '../order-value.js';
import { maxBase, pendingExposure } from '../order-reserve.js';
import type { RiskCheck } from '../risk-context.js';
import { ZERO } from '../../core/decimal.js';

/**
 * Denies orders that could leave a position over the limit (MAX_POSITION).
 *
 * @example
 * // maxPosition BTC-USD 1, long 0.8, a BUY 0.2 resting: another BUY 0.2 could leave 1.2
 * maxPositionCheck.check(buy02, ctx, config); // [{ code: 'MAX_POSITION', ... }]
 */
export const maxPositionCheck: RiskCheck = {
  name: 'max-position',
  check(order, ctx, config) {
    const limit = limitFor(config.maxPosition, order.marketSymbol);
    if (!limit) return [];
    const fee = config.commissionRate;
    const size = maxBase(order, ctx.estimate(order), fee, ctx.marketStore);
    if (size === undefined) return [reason('MAX_POSITION', `${order.marketSymbol}: the order's size cannot be estimated (no book)`)];
    const position = ctx.portfolio.position(order.marketSymbol);
    const pending = ctx.pendingOrders ? pendingExposure(ctx.pendingOrders(), order.marketSymbol, ctx.marketStore, fee) : { buy: ZERO, sell: ZERO };
    const buy = order.direction === 'BUY';
    const others = buy ? pending.buy : pending.sell;
    const worst = buy ? position.plus(others).plus(size) : position.minus(others).minus(size);
    if (buy ? worst.lte(limit) : worst.gte(limit.neg())) return [];
    const side = buy ? 'buys' : 'sells';
    return [reason('MAX_POSITION', `position ${position.toFixed()} with ${others.toFixed()} pending ${side} could become ${worst.toFixed()}, over the ${limit.toFixed()} limit on ${order.marketSymbol}`)];
  },
};
