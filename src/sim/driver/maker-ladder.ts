/**
 * The price levels of one market maker: L bids below and L asks above a mid, on a price grid, as a pure function
 * so the invariants (prices on the market's tick, strictly ordered levels, bids below and asks above the mid) are
 * tested without an engine.
 *
 * Levels sit on multiples of a "nice" step (1, 2 or 5 × 10^k price ticks, about `levelSpacingBps` of the mid), as
 * real market makers' quotes did. That is what keeps quoting cheap: when the mid moves by less than a step most
 * levels keep their exact rate, so a maker only replaces the levels at the edges instead of its whole ladder.
 */
import { Decimal, type Decimal as DecimalT } from '../../core/decimal.js';
import type { OrderDirection } from '../../model/enums.js';

/** One price level a maker wants to hold. */
export interface LadderLevel {
  direction: OrderDirection;
  rate: DecimalT;
}

/** Input of {@link ladderLevels}. */
export interface LadderParams {
  mid: DecimalT;
  /** Decimals allowed in a price. */
  precision: number;
  /** Distance of the best bid and best ask from the mid, in basis points of the mid (at least to the grid). */
  halfSpreadBps: number;
  /** Approximate distance between consecutive levels, in basis points of the mid (at least one tick). */
  levelSpacingBps: number;
  /** Levels per side. */
  levels: number;
}

const BPS = new Decimal('0.0001');

/**
 * The grid step for `raw`: the smallest 1, 2 or 5 × 10^k multiple of `tick` that is at least `raw`.
 *
 * @example
 * gridStep(dec('12'), dec('0.001'));    // 20
 * gridStep(dec('0.0001'), dec('0.01')); // 0.01 (never below a tick)
 */
export function gridStep(raw: DecimalT, tick: DecimalT): DecimalT {
  if (raw.lte(tick)) return tick;
  let unit = tick;
  for (;;) {
    for (const m of [1, 2, 5]) {
      const step = unit.times(m);
      if (step.gte(raw)) return step;
    }
    unit = unit.times(10);
  }
}

/**
 * Bid and ask levels around `mid`, best first on each side. The best bid is the grid line at or below
 * `mid × (1 - halfSpread)` (and strictly below the mid), the best ask the grid line at or above
 * `mid × (1 + halfSpread)` (strictly above the mid); further levels are one step apart. Bids at or below zero are
 * dropped.
 *
 * @example
 * ladderLevels({ mid: dec('100'), precision: 2, halfSpreadBps: 10, levelSpacingBps: 5, levels: 2 });
 * // BUY 99.9, BUY 99.85, SELL 100.1, SELL 100.15
 */
export function ladderLevels(p: LadderParams): LadderLevel[] {
  const tick = new Decimal(1).div(new Decimal(10).pow(p.precision));
  const step = gridStep(p.mid.times(BPS.times(p.levelSpacingBps)), tick);
  const half = p.mid.times(BPS.times(p.halfSpreadBps));
  let bid = p.mid.minus(half).div(step).floor().times(step);
  if (bid.gte(p.mid)) bid = bid.minus(step);
  let ask = p.mid.plus(half).div(step).ceil().times(step);
  if (ask.lte(p.mid)) ask = ask.plus(step);
  const out: LadderLevel[] = [];
  for (let i = 0; i < p.levels; i++) {
    const rate = bid.minus(step.times(i));
    if (rate.lte(0)) break;
    out.push({ direction: 'BUY', rate });
  }
  for (let i = 0; i < p.levels; i++) out.push({ direction: 'SELL', rate: ask.plus(step.times(i)) });
  return out;
}
