/**
 * Worst cases of an order, by the exchange's own rounding rule (src/model/trading-amounts.ts, the one the
 * simulator settles and reserves with):
 * - {@link reserveOf}: what the exchange holds when the order is placed, so the risk engine's estimate and the
 *   exchange's reservation agree to the last unit when `commissionRate` is the exchange's;
 * - {@link maxBase}: the most base quantity a full fill can trade (a ceiling order can fill better than its
 *   limit and so trade more than ceiling ÷ limit);
 * - {@link pendingExposure} and {@link pendingReserve}: the same, summed over the account's orders that are
 *   resting or still in flight, which every new order must be judged together with.
 */
import { type Decimal, ONE, ZERO } from '../core/decimal.js';
import type { ProposedOrder } from '../model/intent.js';
import type { Market } from '../model/market.js';
import { buyReserve, ceil8, SATOSHI } from '../model/trading-amounts.js';
import type { ReadonlyMarketStore } from '../store/market-store.js';
import { estimateFill, type FillEstimate } from './order-value.js';

/** An order as these rules see it. */
export type PricedOrder = Pick<ProposedOrder, 'marketSymbol' | 'direction' | 'type' | 'quantity' | 'limit' | 'ceiling'>;

/**
 * A live order of the account: resting on the exchange, or sent and not acknowledged yet. `quantity` is what is
 * still unfilled (quantity orders); `strategy` is undefined for an order this bot did not place.
 */
export interface PendingOrder extends PricedOrder {
  strategy: string | undefined;
  /** Not acknowledged yet: the available balance does not show its reservation. */
  unacknowledged: boolean;
}

/**
 * What the exchange holds for `order`, in the currency it spends (quote for a BUY, base for a SELL), at
 * commission rate `fee`; undefined when it cannot be valued (a market order on an empty book):
 * - BUY LIMIT: `ceil8(q × limit) + ceil8(q × limit × fee)` ({@link buyReserve}), exactly the simulator's;
 * - BUY MARKET: the book walk's exact cost rounded the same way, `ceil8(quote) + ceil8(quote × fee)` — never less
 *   than the exchange's (its per-fill amounts are rounded down);
 * - BUY CEILING_LIMIT / CEILING_MARKET: the ceiling (the commission is inside it);
 * - SELL LIMIT / MARKET: the quantity; SELL CEILING_*: the most base it can sell ({@link maxBase}).
 *
 * @example
 * reserveOf({ direction: 'BUY', type: 'LIMIT', quantity: dec('0.03'), limit: dec('30000'), ... }, est, dec('0.0035')) // 903.15
 */
export function reserveOf(order: PricedOrder, estimate: FillEstimate | undefined, fee: Decimal, store?: ReadonlyMarketStore): Decimal | undefined {
  if (order.direction === 'SELL') {
    if (order.type === 'LIMIT' || order.type === 'MARKET') return order.quantity;
    return maxBase(order, estimate, fee, store);
  }
  if (order.type === 'LIMIT') return order.quantity && order.limit ? buyReserve(order.quantity, order.limit, fee) : undefined;
  if (order.type === 'MARKET') return estimate ? ceil8(estimate.quote).plus(ceil8(estimate.quote.times(fee))) : undefined;
  return order.ceiling;
}

/**
 * The most base quantity a full fill of `order` can trade; undefined when it cannot be told:
 * - LIMIT / MARKET: the quantity;
 * - BUY CEILING_*: the ceiling at the lowest rate it can fill at — the best ask, or the limit if that is lower
 *   (the commission only lowers it);
 * - SELL CEILING_*: a sell receives `proceeds − commission ≤ ceiling`, so it sells the most at the lowest rate
 *   it reaches (its limit, or the deepest bid of a market order's walk): `ceil8((ceiling ÷ (1 − fee) + 1e-8) ÷ rate)`,
 *   the satoshi covering the proceeds' rounding down.
 */
export function maxBase(order: PricedOrder, estimate: FillEstimate | undefined, fee: Decimal, store?: ReadonlyMarketStore): Decimal | undefined {
  if (order.type === 'LIMIT' || order.type === 'MARKET') return order.quantity;
  const ceiling = order.ceiling;
  if (!ceiling) return undefined;
  if (order.direction === 'BUY') {
    const ask = store?.bestAsk(order.marketSymbol)?.rate ?? estimate?.worstRate;
    const limit = order.type === 'CEILING_LIMIT' ? order.limit : undefined;
    const rate = ask && limit ? (ask.lt(limit) ? ask : limit) : (ask ?? limit);
    return rate?.gt(ZERO) ? ceil8(ceiling.div(rate)) : undefined;
  }
  const rate = order.type === 'CEILING_LIMIT' ? order.limit : estimate?.worstRate;
  if (!rate?.gt(ZERO) || !fee.lt(ONE)) return undefined;
  return ceil8(ceiling.div(ONE.minus(fee)).plus(SATOSHI).div(rate));
}

/** The base quantity `pending` orders in `marketSymbol` can still buy and sell at most (of `strategy`, or of all). */
export function pendingExposure(
  pending: Iterable<PendingOrder>,
  marketSymbol: string,
  store: ReadonlyMarketStore,
  fee: Decimal,
  strategy?: string,
): { buy: Decimal; sell: Decimal } {
  let buy = ZERO;
  let sell = ZERO;
  for (const p of pending) {
    if (p.marketSymbol !== marketSymbol || (strategy !== undefined && p.strategy !== strategy)) continue;
    const size = maxBase(p, isQuantityOrder(p) ? undefined : estimateFill(p, store), fee, store);
    // A ceiling market order the book cannot value is counted at nothing: it trades nothing on an empty book.
    if (!size) continue;
    if (p.direction === 'BUY') buy = buy.plus(size);
    else sell = sell.plus(size);
  }
  return { buy, sell };
}

/** What the unacknowledged among `pending` hold in `currency` (not yet shown by the available balance). */
export function pendingReserve(
  pending: Iterable<PendingOrder>,
  currency: string,
  markets: (symbol: string) => Market | undefined,
  store: ReadonlyMarketStore,
  fee: Decimal,
): Decimal {
  let sum = ZERO;
  for (const p of pending) {
    if (!p.unacknowledged) continue;
    const m = markets(p.marketSymbol);
    if (!m || (p.direction === 'BUY' ? m.quoteCurrencySymbol : m.baseCurrencySymbol) !== currency) continue;
    const held = reserveOf(p, p.type === 'LIMIT' ? undefined : estimateFill(p, store), fee, store);
    if (held) sum = sum.plus(held);
  }
  return sum;
}

function isQuantityOrder(p: PricedOrder): boolean {
  return p.type === 'LIMIT' || p.type === 'MARKET';
}
