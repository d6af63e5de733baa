/**
 * Trading state: while HALTED, risk-increasing orders are denied (TRADING_HALTED; with
 * `haltedAllowsReducing: false`, every order); while REDUCING, orders that do not reduce a position are denied
 * (TRADING_REDUCING).
 *
 * An order counts as reducing only if it says so AND the portfolio agrees: the strategy holds a position in the
 * market the other way, and the order's full fill is no larger than it (so it cannot flip the position). A wrong
 * `reducesPosition` flag from a planner must not open risk while the engine is restricting it.
 */
import { ZERO } from '../../core/decimal.js';
import type { ProposedOrder } from '../../model/intent.js';
import { baseSize, reason } from '../order-value.js';
import type { CheckContext, RiskCheck } from '../risk-context.js';

/** True when `order` claims to reduce its strategy's position and the portfolio confirms it can only shrink it. */
export function confirmedReducing(order: ProposedOrder, ctx: CheckContext): boolean {
  if (!order.reducesPosition) return false;
  const position = ctx.portfolio.position(order.marketSymbol, order.strategy);
  if (position.isZero()) return false;
  if (position.gt(ZERO) !== (order.direction === 'SELL')) return false;
  const size = baseSize(order, ctx);
  return size !== undefined && size.lte(position.abs());
}

/**
 * Denies by trading state.
 *
 * @example
 * engine.halt('operator');
 * engine.evaluate(newBuy); // { approved: false, reasons: [{ code: 'TRADING_HALTED', ... }] }
 */
export const tradingStateCheck: RiskCheck = {
  name: 'trading-state',
  check(order, ctx, config) {
    const state = ctx.tradingState;
    if (state === 'ACTIVE') return [];
    const reducing = confirmedReducing(order, ctx);
    if (state === 'HALTED') {
      if (reducing && config.haltedAllowsReducing) return [];
      const what = config.haltedAllowsReducing ? 'only orders that reduce a position pass' : 'no order passes';
      return [reason('TRADING_HALTED', `trading is halted: ${what}`)];
    }
    return reducing ? [] : [reason('TRADING_REDUCING', 'trading is reducing: only orders that reduce a position pass')];
  },
};
