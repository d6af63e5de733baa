/**
 * Matching an incoming (taker) order against the opposite side of a book, as a PLAN: the walk reads the book
 * and computes every fill without changing anything, so the caller can still refuse the order (FILL_OR_KILL,
 * POST_ONLY, SELF_TRADE, INSUFFICIENT_FUNDS) with the exchange state untouched, and applies the plan otherwise.
 *
 * Price-time priority: levels from the best rate, and within a level the oldest order first. Every fill is at
 * the maker's rate.
 *
 * Ceiling orders name a quote amount instead of a base quantity, and rexbot counts commission inside it:
 * - BUY: quote paid + commission ≤ ceiling (the total leaving the account never exceeds the ceiling);
 * - SELL: quote received − commission ≤ ceiling (the net amount arriving never exceeds the ceiling).
 * The official description says "amount of quote currency you want to spend (or receive, if selling)", which is
 * exactly the amount that leaves or arrives in the balance.
 *
 * No fill for nothing: a fill's proceeds are `floor8(quantity × rate)` (src/model/trading-amounts.ts), and a fill
 * whose proceeds would round to zero does not happen — the seller would give base for no quote. The walk stops
 * there and the plan says `dust`: what is left of the order is too small to trade at this price (the original's
 * minTradeSize and dust rules refused such sizes outright), so it neither trades nor rests; the caller closes
 * it. A resting order whose remainder becomes dust at its own limit is closed the same way (trading-settle.ts).
 */
import { type Decimal, ZERO, dgt, dlt, dlte } from '../../core/decimal.js';
import { dsum } from '../../core/decimal-fast.js';
import type { OrderDirection } from '../../model/enums.js';
import { SATOSHI, buyCost, commissionOn, fillQuote, floor8, sellReceipt } from '../trading-amounts.js';
import type { BookSide } from './book-side.js';
import type { RestingOrder } from './price-level.js';

/** The incoming order, reduced to what matching needs. Exactly one of `quantity` and `ceiling` is set. */
export interface TakerOrder {
  accountId: string;
  direction: OrderDirection;
  /** Worst acceptable rate (LIMIT, CEILING_LIMIT); absent for market orders. */
  limit?: Decimal | undefined;
  /** Base quantity to fill (LIMIT, MARKET). */
  quantity?: Decimal | undefined;
  /** Quote amount including commission (CEILING_LIMIT, CEILING_MARKET); see the module note. */
  ceiling?: Decimal | undefined;
  /** The taker's commission rate. */
  takerFee: Decimal;
}

/** One fill of the plan. */
export interface PlannedFill {
  maker: RestingOrder;
  /** Base quantity. */
  quantity: Decimal;
  /** The maker's rate. */
  rate: Decimal;
  /** `floor8(quantity × rate)`. */
  quote: Decimal;
  /** The taker's commission on this fill. */
  takerCommission: Decimal;
}

/** The outcome of a walk. */
export interface MatchPlan {
  fills: PlannedFill[];
  /** Total base quantity. */
  filled: Decimal;
  /** Total quote amount (the taker order's proceeds). */
  quote: Decimal;
  /** Total taker commission. */
  commission: Decimal;
  /** True when the order's size (quantity or ceiling) is used up; false when liquidity or the limit ran out. */
  complete: boolean;
  /** The first resting order of the taker's own account the walk reached; the walk stops there. */
  selfTrade: RestingOrder | undefined;
  /** The walk stopped because what is left would trade for zero proceeds (see the module note); never rest it. */
  dust?: boolean;
}

/** Plan the fills of `taker` against `opposite` (asks for a BUY, bids for a SELL). Pure: the book is not changed. */
export function planMatch(opposite: BookSide, taker: TakerOrder): MatchPlan {
  const plan: MatchPlan = { fills: [], filled: ZERO, quote: ZERO, commission: ZERO, complete: false, selfTrade: undefined };
  const buy = taker.direction === 'BUY';
  let remaining = taker.quantity;
  let budget = taker.ceiling;
  if (remaining === undefined && budget === undefined) throw new Error('matcher: taker has neither quantity nor ceiling');

  walk: for (const level of opposite.fromBest()) {
    if (taker.limit !== undefined && (buy ? dgt(level.rate, taker.limit) : dlt(level.rate, taker.limit))) break;
    for (let maker = level.head; maker; maker = maker.next) {
      if (maker.accountId === taker.accountId) {
        plan.selfTrade = maker;
        break walk;
      }
      let quantity: Decimal;
      let sizeBound: boolean;
      let quote: Decimal;
      if (remaining !== undefined) {
        sizeBound = dlte(remaining, maker.remaining);
        quantity = sizeBound ? remaining : maker.remaining;
        quote = fillQuote(quantity, level.rate);
        if (quote.isZero()) {
          plan.dust = true;
          break walk;
        }
        remaining = sizeBound ? ZERO : remaining.minus(quantity);
      } else {
        const affordable = ceilingQuantity(budget!, level.rate, taker.takerFee, buy);
        sizeBound = dlte(affordable, maker.remaining);
        quantity = sizeBound ? affordable : maker.remaining;
        quote = fillQuote(quantity, level.rate);
        // What the ceiling still pays for is worth nothing at this rate: the ceiling is used up.
        if (quote.isZero()) {
          plan.complete = true;
          break walk;
        }
        const spent = buy ? buyCost(quantity, level.rate, taker.takerFee) : sellReceipt(quantity, level.rate, taker.takerFee);
        budget = budget!.minus(spent);
      }
      const takerCommission = commissionOn(quote, taker.takerFee);
      plan.fills.push({ maker, quantity, rate: level.rate, quote, takerCommission });
      plan.filled = dsum(plan.filled, quantity);
      plan.quote = dsum(plan.quote, quote);
      plan.commission = dsum(plan.commission, takerCommission);
      if (sizeBound) {
        plan.complete = true;
        break walk;
      }
    }
  }
  return plan;
}

/**
 * Largest base quantity (8 decimals) whose cost (BUY) or net receipt (SELL) at `rate` fits in `budget`.
 * The exact bound `budget ÷ (rate × (1 ± fee))` is only a start: both amounts are rounded down per fill, so a
 * larger quantity often still fits (by up to a few quote satoshis' worth of base). Cost and receipt never fall as
 * the quantity grows, so the largest fitting quantity is found by galloping up from the start and bisecting, in
 * satoshis; the start itself is first corrected down in the rare case a SELL's rounding pushes it over.
 */
function ceilingQuantity(budget: Decimal, rate: Decimal, fee: Decimal, buy: boolean): Decimal {
  if (budget.lte(0)) return ZERO;
  const perUnit = buy ? rate.times(fee.plus(1)) : rate.times(fee.negated().plus(1));
  const amount = buy ? buyCost : sellReceipt;
  const fits = (q: Decimal) => !amount(q, rate, fee).gt(budget);
  let q = floor8(budget.div(perUnit));
  while (q.gt(0) && !fits(q)) q = q.minus(SATOSHI);
  // Gallop: q fits; find a step that does not.
  let step = SATOSHI;
  while (fits(q.plus(step))) {
    q = q.plus(step);
    step = step.times(2);
  }
  // Bisect between q (fits) and q + step (does not).
  while (step.gt(SATOSHI)) {
    step = floor8(step.div(2));
    if (fits(q.plus(step))) q = q.plus(step);
  }
  return q;
}