/**
 * One synthetic market maker: holds GOOD_TIL_CANCELLED limit orders at the levels of its ladder (see
 * {@link ladderLevels}) around a quoting centre. The centre follows the mid only when the mid has moved by more
 * than `requoteThresholdBps`; then the maker cancels the orders at levels that left its ladder and places the
 * new ones. Levels emptied by fills are refilled on the next tick. Cancelling before placing means a maker's new
 * orders never meet its own (the engine would refuse them with SELF_TRADE); they may meet another maker's stale
 * quotes, which is simply a trade.
 */
import { Decimal, type Decimal as DecimalT } from '../../core/decimal.js';
import type { MarketConfig } from '../config.js';
import { buyReserve } from '../trading-amounts.js';
import { ladderLevels } from './maker-ladder.js';
import type { Participant } from './participant.js';
import type { Prng } from './prng.js';
import type { MakerConfig } from './synthetic-config.js';

/** Inputs of a {@link MarketMaker}. */
export interface MarketMakerDeps {
  market: MarketConfig;
  participant: Participant;
  rng: Prng;
  config: MakerConfig;
  /** 0-based index among the market's makers; widens this maker's spread. */
  index: number;
  /** The higher of the market's maker and taker commission rates (what a buy reserves). */
  feeMax: DecimalT;
}

const levelKey = (direction: string, rate: DecimalT): string => `${direction}:${rate.toFixed()}`;

/**
 * @example
 * const maker = new MarketMaker({ market, participant, rng, config: cfg.makers, index: 0, feeMax: dec('0.0035') });
 * maker.tick(walk.mid()); // quotes, re-centres or refills as needed
 */
export class MarketMaker {
  readonly #d: MarketMakerDeps;
  #centre: DecimalT | undefined;

  constructor(deps: MarketMakerDeps) {
    this.#d = deps;
  }

  /** The participant quoting. */
  get participant(): Participant {
    return this.#d.participant;
  }

  /** Re-centre if the mid moved past the threshold, then make the resting orders match the ladder. */
  tick(mid: DecimalT): void {
    const { participant, config, market, rng, index, feeMax } = this.#d;
    const c = this.#centre;
    if (c === undefined || mid.minus(c).abs().div(c).times(10_000).gt(config.requoteThresholdBps)) this.#centre = mid;
    const levels = ladderLevels({
      mid: this.#centre as DecimalT,
      precision: market.precision,
      halfSpreadBps: config.halfSpreadBps + index * config.makerSpreadStepBps,
      levelSpacingBps: config.levelSpacingBps,
      levels: config.levels,
    });
    const wanted = new Map(levels.map((l) => [levelKey(l.direction, l.rate), l]));
    const held = new Set<string>();
    for (const o of [...participant.openOrders.values()]) {
      if (o.marketSymbol !== market.symbol || o.limit === undefined) continue;
      const key = levelKey(o.direction, o.limit);
      if (wanted.has(key) && !held.has(key)) held.add(key);
      else participant.cancel(o.id);
    }
    for (const [key, l] of wanted) {
      if (held.has(key)) continue;
      const quantity = market.minTradeSize.times(rng.intBetween(config.levelLots[0], config.levelLots[1]));
      const need =
        l.direction === 'BUY'
          ? { currency: market.quoteCurrencySymbol, amount: buyReserve(quantity, l.rate, feeMax) }
          : { currency: market.baseCurrencySymbol, amount: quantity };
      participant.place(
        { marketSymbol: market.symbol, direction: l.direction, type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity, limit: l.rate },
        need,
      );
    }
  }

  /** Inventory this maker starts with: `multiple` full ladders of the largest size, in base and in quote at `mid`. */
  startFunding(mid: DecimalT, multiple: number): { base: DecimalT; quote: DecimalT } {
    const { market, config } = this.#d;
    const ladder = market.minTradeSize.times(config.levelLots[1]).times(config.levels);
    const base = ladder.times(multiple).toDecimalPlaces(8, Decimal.ROUND_UP);
    return { base, quote: base.times(mid).times(1.1).toDecimalPlaces(8, Decimal.ROUND_UP) };
  }
}
