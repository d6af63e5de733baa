/**
 * Available balance: the account must hold what the exchange will reserve for this order, beyond what
 * placements in flight have already claimed (not yet reflected in the available balance). Both are valued by
 * the exchange's own rule ({@link reserveOf}, src/risk/order-reserve.ts), so with `commissionRate` set to the
 * exchange's rate an order approved here is never refused for funds by the exchange, and vice versa:
 * - BUY LIMIT: `ceil8(q × limit) + ceil8(q × limit × fee)`; BUY MARKET: its walk of the book plus fee, rounded up
 *   the same way; a ceiling buy spends exactly its ceiling (commission is inside it on the exchange).
 * - SELL: base — the quantity; a ceiling sell the most base it can sell.
 * Placements in flight: from `ctx.pendingOrders` when the context gives them (each at the same rule), else
 * `ctx.inFlightReserved`. An order that cannot be valued (a market order on an empty book) is denied: fail closed.
 */
import { dlte } from '../../core/decimal.js';
import { dsub } from '../../core/decimal-fast.js';
import { reason } from '../order-value.js';
import { pendingReserve, reserveOf } from '../order-reserve.js';
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
    const fee = config.commissionRate;
    const need = estimate ? reserveOf(order, estimate, fee, ctx.marketStore) : undefined;
    if (!need) return [reason('INSUFFICIENT_BALANCE', `${order.marketSymbol}: the order cannot be valued (no book)`)];
    const currency = order.direction === 'BUY' ? market.quoteCurrencySymbol : market.baseCurrencySymbol;
    const inFlight = ctx.pendingOrders
      ? pendingReserve(ctx.pendingOrders(), currency, (s) => ctx.market(s), ctx.marketStore, fee)
      : ctx.inFlightReserved(currency);
    const free = dsub(ctx.available(currency), inFlight);
    if (dlte(need, free)) return [];
    return [reason('INSUFFICIENT_BALANCE', `needs ${need.toFixed()} ${currency}, ${free.toFixed()} available after in-flight orders`)];
  },
};
