/**
 * Maximum open orders: a resting order is denied once the account has `maxOpenOrders` open (placements in flight
 * included). Immediate orders (IMMEDIATE_OR_CANCEL, FILL_OR_KILL — every market order) never rest, so they pass:
 * a full book of quotes must not block the order that closes a position.
 */
import { reason } from '../order-value.js';
import type { RiskCheck } from '../risk-context.js';

/**
 * Denies resting orders over the open-order limit (MAX_OPEN_ORDERS).
 *
 * @example
 * // maxOpenOrders 2, two open
 * maxOpenOrdersCheck.check(gtcBid, ctx, config); // [{ code: 'MAX_OPEN_ORDERS', ... }]
 */
export const maxOpenOrdersCheck: RiskCheck = {
  name: 'max-open-orders',
  check(order, ctx, config) {
    if (order.timeInForce === 'IMMEDIATE_OR_CANCEL' || order.timeInForce === 'FILL_OR_KILL') return [];
    const open = ctx.openOrderCount();
    if (open < config.maxOpenOrders) return [];
    return [reason('MAX_OPEN_ORDERS', `${open} orders open, the limit is ${config.maxOpenOrders}`)];
  },
};
