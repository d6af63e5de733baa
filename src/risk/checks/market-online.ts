/**
 * Market status: the market must exist (MARKET_UNKNOWN), be ONLINE (MARKET_OFFLINE) and, when the config names
 * an allow-list, be on it (MARKET_NOT_PERMITTED). Checks that need the market's reference data skip unknown
 * markets, leaving this one to say why.
 */
import { reason } from '../order-value.js';
import type { RiskCheck } from '../risk-context.js';

/**
 * Denies unknown, offline and not permitted markets.
 *
 * @example
 * marketOnlineCheck.check({ ...order, marketSymbol: 'NOPE-USD' }, ctx, config); // [{ code: 'MARKET_UNKNOWN', ... }]
 */
export const marketOnlineCheck: RiskCheck = {
  name: 'market-online',
  check(order, ctx, config) {
    const reasons = [];
    if (config.allowedMarkets && !config.allowedMarkets.includes(order.marketSymbol)) {
      reasons.push(reason('MARKET_NOT_PERMITTED', `${order.marketSymbol} is not in the allowed markets`));
    }
    const market = ctx.market(order.marketSymbol);
    if (!market) reasons.push(reason('MARKET_UNKNOWN', `${order.marketSymbol} is not a known market`));
    else if (market.status !== 'ONLINE') reasons.push(reason('MARKET_OFFLINE', `${order.marketSymbol} is ${market.status}`));
    return reasons;
  },
};
