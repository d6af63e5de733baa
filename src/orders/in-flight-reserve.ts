/**
 * Funds held by placements the exchange has not acknowledged yet. Until the answer (or the stream) arrives, the
 * account's available balance does not show them, so the risk engine adds these to avoid approving the same
 * funds twice. Buys hold quote (limit × quantity, or the ceiling; a market buy is valued at the best ask),
 * sells hold base (the quantity, or a ceiling converted at the limit or best bid).
 *
 * This is the notional figure for a risk context without `pendingOrders`. The kernel gives the risk engine
 * `OrderManager.pendingOrders()` instead, which it values by the exchange's own rule, commission and book walk
 * included (src/risk/order-reserve.ts).
 */
import { type Decimal, ZERO } from '../core/decimal.js';
import type { Market } from '../model/market.js';
import type { InFlightOrder } from './in-flight.js';
import type { MarketPrices } from './order-manager-deps.js';

/**
 * Sum of `currency` held by the unacknowledged entries among `entries` (the registry keeps them apart, so a
 * risk check costs the placements in flight, not every resting order).
 *
 * @example
 * unacknowledgedReserve(registry.unacknowledgedOrders(), 'USD', markets, marketStore) // 2900 for a 0.1 BTC bid at 29,000
 */
export function unacknowledgedReserve(
  entries: Iterable<InFlightOrder>,
  currency: string,
  markets: (symbol: string) => Market | undefined,
  prices: MarketPrices,
): Decimal {
  let sum = ZERO;
  for (const e of entries) {
    if (!e.isUnacknowledged || !e.request) continue;
    const m = markets(e.marketSymbol);
    if (!m) continue;
    const r = e.request;
    if (r.direction === 'BUY' && m.quoteCurrencySymbol === currency) {
      const price = r.limit ?? prices.bestAsk(r.marketSymbol)?.rate;
      sum = sum.add(r.ceiling ?? (r.quantity && price ? r.quantity.mul(price) : ZERO));
    } else if (r.direction === 'SELL' && m.baseCurrencySymbol === currency) {
      const price = r.limit ?? prices.bestBid(r.marketSymbol)?.rate;
      sum = sum.add(r.quantity ?? (r.ceiling && price ? r.ceiling.div(price) : ZERO));
    }
  }
  return sum;
}
