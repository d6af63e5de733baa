/**
 * How the checks value an order: its base size, its quote value and the worst rate it can trade at.
 *
 * - LIMIT: quantity at the limit (every fill is at the limit or better).
 * - CEILING_LIMIT: the ceiling (quote, commission inside it, as on the exchange) at the limit.
 * - MARKET / CEILING_MARKET: a walk of the opposite side of the book (asks for a BUY) for the order's size; the
 *   worst rate is the last level the walk reaches. If the book is too thin, the rest is valued at its last level
 *   and the estimate says it is incomplete.
 */
import { Decimal, deq, ZERO } from '../core/decimal.js';
import { dadd, dhalf, dmul, dsub } from '../core/decimal-fast.js';
import type { OrderBookEntry } from '../model/market.js';
import type { ProposedOrder, RiskReason } from '../model/intent.js';
import type { ReadonlyMarketStore } from '../store/market-store.js';

/** A denial reason. */
export function reason(code: string, message: string): RiskReason {
  return { code, message };
}

/** The estimated outcome of a full fill. */
export interface FillEstimate {
  /** Base quantity bought or sold. */
  base: Decimal;
  /** Quote amount paid or received, before commission (ceiling orders: the ceiling). */
  quote: Decimal;
  /** Worst rate the order trades at (its limit, or the deepest level a market order's walk reaches). */
  worstRate: Decimal;
  /** False when the book could not fill a market order completely. */
  complete: boolean;
}

/** True for MARKET and CEILING_MARKET. */
export function isMarketType(order: ProposedOrder): boolean {
  return order.type === 'MARKET' || order.type === 'CEILING_MARKET';
}

/** True for CEILING_LIMIT and CEILING_MARKET (sized by a quote amount). */
export function isCeilingType(order: ProposedOrder): boolean {
  return order.type === 'CEILING_LIMIT' || order.type === 'CEILING_MARKET';
}

/** Mid of the best bid and best ask, when both exist. */
export function midOf(store: ReadonlyMarketStore, marketSymbol: string): Decimal | undefined {
  const b = store.bestBid(marketSymbol);
  const a = store.bestAsk(marketSymbol);
  return b && a ? midRate(b.rate, a.rate) : undefined;
}

/** The last pair {@link midRate} was asked about and its answer. */
let last: { bid: Decimal; ask: Decimal; mid: Decimal } | undefined;

/**
 * `(bid + ask) / 2`. The risk engine asks for the same touch several times per order (marks, price band) and for
 * every order of a batch; the answer for the last pair asked is kept, and given again for an equal pair.
 */
export function midRate(bid: Decimal, ask: Decimal): Decimal {
  if (last && (bid === last.bid || deq(bid, last.bid)) && (ask === last.ask || deq(ask, last.ask))) return last.mid;
  last = { bid, ask, mid: dhalf(dadd(bid, ask)) };
  return last.mid;
}

const DEPTHS = [500, 25, 1] as const;

/**
 * Up to `max` levels of the side an order of `direction` takes from (asks for a BUY), best first, from the
 * deepest book held, and whether that side has more levels than returned.
 */
export function oppositeLevels(
  store: ReadonlyMarketStore,
  marketSymbol: string,
  direction: 'BUY' | 'SELL',
  max = Number.POSITIVE_INFINITY,
): { levels: readonly OrderBookEntry[]; more: boolean } {
  for (const depth of DEPTHS) {
    const book = store.book(marketSymbol, depth);
    if (!book) continue;
    const count = direction === 'BUY' ? book.askCount : book.bidCount;
    if (count === 0) continue;
    const n = Math.min(count, max);
    const ladder = book.top(n);
    return { levels: direction === 'BUY' ? ladder.ask : ladder.bid, more: count > n };
  }
  return { levels: [], more: false };
}

// Most market orders fill within the first levels; copying a 500-level side for each would dominate evaluate().
const FIRST_LEVELS = 16;

/**
 * Estimate a full fill of `order`; undefined when the order lacks its size or limit, or a market order meets an
 * empty book.
 *
 * @example
 * estimateFill({ type: 'LIMIT', quantity: dec('2'), limit: dec('100'), ... }, store)
 * // { base: 2, quote: 200, worstRate: 100, complete: true }
 */
export function estimateFill(order: Pick<ProposedOrder, 'marketSymbol' | 'direction' | 'type' | 'quantity' | 'limit' | 'ceiling'>, store: ReadonlyMarketStore): FillEstimate | undefined {
  if (order.type === 'LIMIT') {
    if (!order.quantity || !order.limit) return undefined;
    return { base: order.quantity, quote: dmul(order.quantity, order.limit), worstRate: order.limit, complete: true };
  }
  if (order.type === 'CEILING_LIMIT') {
    if (!order.ceiling || !order.limit?.gt(ZERO)) return undefined;
    return { base: order.ceiling.div(order.limit), quote: order.ceiling, worstRate: order.limit, complete: true };
  }
  const walk = (levels: readonly OrderBookEntry[]) => (order.type === 'MARKET' ? walkByBase(levels, order.quantity) : walkByQuote(levels, order.ceiling));
  const first = oppositeLevels(store, order.marketSymbol, order.direction, FIRST_LEVELS);
  if (first.levels.length === 0) return undefined;
  const estimate = walk(first.levels);
  if (!estimate || estimate.complete || !first.more) return estimate;
  return walk(oppositeLevels(store, order.marketSymbol, order.direction).levels);
}

function walkByBase(levels: readonly OrderBookEntry[], quantity: Decimal | undefined): FillEstimate | undefined {
  if (!quantity) return undefined;
  let left = quantity;
  let quote = ZERO;
  let worst = levels[0]!.rate;
  for (const level of levels) {
    if (!left.gt(ZERO)) break;
    const take = left.lt(level.quantity) ? left : level.quantity;
    quote = dadd(quote, dmul(take, level.rate));
    left = dsub(left, take);
    worst = level.rate;
  }
  const complete = !left.gt(ZERO);
  if (!complete) quote = quote.plus(left.times(worst));
  return { base: quantity, quote, worstRate: worst, complete };
}

function walkByQuote(levels: readonly OrderBookEntry[], ceiling: Decimal | undefined): FillEstimate | undefined {
  if (!ceiling) return undefined;
  let left = ceiling;
  let base = ZERO;
  let worst = levels[0]!.rate;
  for (const level of levels) {
    if (!left.gt(ZERO)) break;
    const value = level.quantity.times(level.rate);
    const spend = left.lt(value) ? left : value;
    base = base.plus(spend.div(level.rate));
    left = left.minus(spend);
    worst = level.rate;
  }
  const complete = !left.gt(ZERO);
  if (!complete) base = base.plus(left.div(worst));
  return { base, quote: ceiling, worstRate: worst, complete };
}

/** Base quantity of a full fill, when it can be estimated (for position and size checks). */
export function baseSize(order: ProposedOrder, ctx: { estimate(order: ProposedOrder): FillEstimate | undefined }): Decimal | undefined {
  if (order.type === 'LIMIT' || order.type === 'MARKET') return order.quantity;
  return ctx.estimate(order)?.base;
}
