/**
 * Available balance: the account must hold what a full fill spends, beyond what placements in flight have
 * already claimed (`ctx.inFlightReserved`, not yet reflected in the available balance).
 * - BUY: quote — the value plus `commissionRate` on it; a ceiling buy spends exactly its ceiling (commission is
 *   inside it on the exchange).
 * - SELL: base — the quantity; a ceiling sell the base its ceiling needs grossed up for the commission.
 * An order that cannot be valued (a market order on an empty book) is denied: fail closed.
 */
import { ONE } from '../../core/decimal.js';
import { isCeilingType, reason } from '../order-value.js';
import type { RiskCheck } from '../risk-context.js';

/**
 * Denies orders the account cannot pay for (INSUFFICIENT_BALANCE).
 *
 * @example
 * // 1000 USD available, 300 in flight: buying 7 at 100 needs 705.25 with 0.75 % commission
 * availableBalanceCheck.check(buy7, ctx, config); // [{ code: 'INSUFFICIENT_BALANCE', ... }]
 */
export const availableBalanceCheck: RiskCheck = {
  name: 'available-balance',
  check(order, ctx, config) {
    const market = ctx.market(order.marketSymbol);
    if (!market) return [];
    const estimate = ctx.estimate(order);
    if (!estimate) return [reason('INSUFFICIENT_BALANCE', `${order.marketSymbol}: the order cannot be valued (no book)`)];
    const buy = order.direction === 'BUY';
    const currency = buy ? market.quoteCurrencySymbol : market.baseCurrencySymbol;
    const fee = config.commissionRate;
    let need;
    if (buy) need = isCeilingType(order) ? estimate.quote : estimate.quote.times(ONE.plus(fee));
    else need = isCeilingType(order) && fee.lt(1) ? estimate.base.div(ONE.minus(fee)) : estimate.base;
    const free = ctx.available(currency).minus(ctx.inFlightReserved(currency));
    if (need.lte(free)) return [];
    return [reason('INSUFFICIENT_BALANCE', `needs ${need.toFixed()} ${currency}, ${free.toFixed()} available after in-flight orders`)];
  },
};
