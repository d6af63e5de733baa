/**
 * Trading state: while HALTED, risk-increasing orders are denied (TRADING_HALTED; with
 * `haltedAllowsReducing: false`, every order); while REDUCING, orders that do not reduce a position are denied
 * (TRADING_REDUCING).
 *
 * An order counts as reducing only if it says so AND the portfolio agrees, in the worst case: its largest full fill
 * ({@link maxBase}: a ceiling order can fill below its limit and trade more) together with every order of the
 * same side still resting or in flight can at most bring to flat both the strategy's own position in the market
 * and the market's position of all strategies together. So a reducing order never flips a position, two
 * reducing orders that each fit but not together are not both let through, and one strategy cannot "reduce"
 * its own position into the opposite risk of the account. A wrong `reducesPosition` flag from a planner must not
 * open risk while the engine is restricting it.
 */
import { type Decimal, ZERO } from '../../core/decimal.js';
import type { ProposedOrder } from '../../model/intent.js';
import { reason } from '../order-value.js';
import { maxBase, pendingExposure } from '../order-reserve.js';
import type { CheckContext, RiskCheck } from '../risk-context.js';

/**
 * True when `order` claims to reduce its strategy's position and, at worst with every pending order of its side,
 * can only shrink both that position and the market's total (commission rate `fee` sizes ceiling sells).
 */
export function confirmedReducing(order: ProposedOrder, ctx: CheckContext, fee: Decimal): boolean {
  if (!order.reducesPosition) return false;
  const size = maxBase(order, ctx.estimate(order), fee, ctx.marketStore);
  if (size === undefined) return false;
  const sell = order.direction === 'SELL';
  const pending = ctx.pendingOrders ? [...ctx.pendingOrders()] : [];
  const fits = (position: Decimal, strategy?: string): boolean => {
    if (sell ? !position.gt(ZERO) : !position.lt(ZERO)) return false;
    const p = pendingExposure(pending, order.marketSymbol, ctx.marketStore, fee, strategy);
    return size.plus(sell ? p.sell : p.buy).lte(position.abs());
  };
  return fits(ctx.portfolio.position(order.marketSymbol, order.strategy), order.strategy) && fits(ctx.portfolio.position(order.marketSymbol));
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
    const reducing = confirmedReducing(order, ctx, config.commissionRate);
    if (state === 'HALTED') {
      if (reducing && config.haltedAllowsReducing) return [];
      const what = config.haltedAllowsReducing ? 'only orders that reduce a position pass' : 'no order passes';
      return [reason('TRADING_HALTED', `trading is halted: ${what}`)];
    }
    return reducing ? [] : [reason('TRADING_REDUCING', 'trading is reducing: only orders that reduce a position pass')];
  },
};
