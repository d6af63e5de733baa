/**
 * The quotes of one market maker: L bid levels below and L ask levels above a mid, as a pure function so the
 * invariants (prices on the market's tick, strictly ordered levels, bid below ask, sizes at least the market's
 * minTradeSize) are tested without an engine.
 */
import { Decimal, type Decimal as DecimalT, dmax } from '../../core/decimal.js';
import type { OrderDirection } from '../../model/enums.js';

/** One order a maker wants resting. */
export interface LadderQuote {
  direction: OrderDirection;
  rate: DecimalT;
  quantity: DecimalT;
}

/** Input of {@link quoteLadder}. */
export interface LadderParams {
  mid: DecimalT;
  /** Decimals allowed in a price. */
  precision: number;
  minTradeSize: DecimalT;
  /** Distance of the best bid and best ask from the mid, in basis points of the mid. */
  halfSpreadBps: number;
  /** Distance between consecutive levels, in basis points of the mid (at least one tick). */
  levelSpacingBps: number;
  /** Quantity of each level, best first; its length is the number of levels per side. */
  bidSizes: DecimalT[];
  askSizes: DecimalT[];
}

const BPS = new Decimal('0.0001');

/**
 * Bid and ask ladders around `mid`. Bids are rounded down and asks up to the tick (so rounding never narrows the
 * spread), consecutive levels are at least one tick apart, the best bid stays below the best ask, bids at or
 * below zero are dropped, and every quantity is cut to 8 decimals but kept at least `minTradeSize`.
 *
 * @example
 * quoteLadder({ mid: dec('100'), precision: 2, minTradeSize: dec('0.01'), halfSpreadBps: 10, levelSpacingBps: 5,
 *   bidSizes: [dec('1'), dec('2')], askSizes: [dec('1'), dec('2')] });
 * // bids 99.90 x1, 99.85 x2; asks 100.10 x1, 100.15 x2
 */
export function quoteLadder(p: LadderParams): LadderQuote[] {
  const tick = new Decimal(1).div(new Decimal(10).pow(p.precision));
  const half = p.mid.times(BPS.times(p.halfSpreadBps));
  const step = dmax(p.mid.times(BPS.times(p.levelSpacingBps)), tick);
  const out: LadderQuote[] = [];

  let prevBid: DecimalT | undefined;
  for (let i = 0; i < p.bidSizes.length; i++) {
    let rate = p.mid.minus(half).minus(step.times(i)).toDecimalPlaces(p.precision, Decimal.ROUND_DOWN);
    if (rate.gte(p.mid)) rate = p.mid.minus(tick);
    if (prevBid && rate.gte(prevBid)) rate = prevBid.minus(tick);
    if (rate.lte(0)) break;
    out.push({ direction: 'BUY', rate, quantity: size(p.bidSizes[i] as DecimalT, p.minTradeSize) });
    prevBid = rate;
  }

  const bestBid = prevBid === undefined ? undefined : (out[0] as LadderQuote).rate;
  let prevAsk: DecimalT | undefined;
  for (let i = 0; i < p.askSizes.length; i++) {
    let rate = p.mid.plus(half).plus(step.times(i)).toDecimalPlaces(p.precision, Decimal.ROUND_UP);
    if (rate.lte(p.mid)) rate = p.mid.plus(tick);
    if (bestBid && rate.lte(bestBid)) rate = bestBid.plus(tick);
    if (prevAsk && rate.lte(prevAsk)) rate = prevAsk.plus(tick);
    out.push({ direction: 'SELL', rate, quantity: size(p.askSizes[i] as DecimalT, p.minTradeSize) });
    prevAsk = rate;
  }
  return out;
}

function size(q: DecimalT, min: DecimalT): DecimalT {
  return dmax(q.toDecimalPlaces(8, Decimal.ROUND_DOWN), min);
}
