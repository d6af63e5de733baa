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
    const count = ctx.approvalsInWindow;
    if (count < maxOrders) return [];
    return [reason('SUBMIT_RATE', message(count, windowMs, maxOrders))];
  },
};

/** The last denial's message: a strategy over the rate is denied at every requote, with the same three numbers. */
let last = { count: -1, windowMs: -1, maxOrders: -1, text: '' };

function message(count: number, windowMs: number, maxOrders: number): string {
  if (last.count !== count || last.windowMs !== windowMs || last.maxOrders !== maxOrders) {
    last = { count, windowMs, maxOrders, text: `${count} orders approved in the last ${windowMs} ms, the limit is ${maxOrders}` };
  }
  return last.text;
}
