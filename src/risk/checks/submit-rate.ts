/**
 * Submit rate: at most `submitRate.maxOrders` orders approved per rolling `submitRate.windowMs` of the engine's
 * clock. Only approvals count (a denied order sends nothing); the engine keeps their times and hands the count
 * inside the window to this check as `ctx.approvalsInWindow`. This is a brake on a runaway strategy, separate from
 * the REST throttler, which shapes calls rather than refusing them.
 */
import { reason } from '../order-value.js';
import type { RiskCheck } from '../risk-context.js';

/**
 * Denies orders over the rate (SUBMIT_RATE).
 *
 * @example
 * // submitRate { maxOrders: 2, windowMs: 1000 }, two approved in the last second
 * submitRateCheck.check(order, ctx, config); // [{ code: 'SUBMIT_RATE', ... }]
 */
export const submitRateCheck: RiskCheck = {
  name: 'submit-rate',
  check(_order, ctx, config) {
    const { maxOrders, windowMs } = config.submitRate;
    if (ctx.approvalsInWindow < maxOrders) return [];
    return [reason('SUBMIT_RATE', `${ctx.approvalsInWindow} orders approved in the last ${windowMs} ms, the limit is ${maxOrders}`)];
  },
};
