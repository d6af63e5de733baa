/**
 * The noise taker of one synthetic market: at random times it sends an IMMEDIATE_OR_CANCEL order of random side
 * and size — a MARKET order, or (a configurable share) a LIMIT order a little through the mid — so the makers'
 * quotes trade. It never rests, so it can never meet an order of its own.
 *
 * Arrivals are a self-exciting (Hawkes) process, as real order flow is: a baseline Poisson rate plus, after each
 * order, an extra intensity that decays exponentially, so orders come in bursts and quiet spells. `clustering` is
 * the branching ratio (the share of orders triggered by earlier ones; 0 = plain Poisson), so the long-run rate is
 * ratePerMinute / (1 − clustering).
 */
import type { Clock, TimerHandle } from '../../core/clock.js';
import { Decimal, type Decimal as DecimalT } from '../../core/decimal.js';
import type { NewOrder } from '../../model/order.js';
import type { MarketConfig } from '../config.js';
import { buyReserve } from '../trading-amounts.js';
import type { FundingNeed, Participant } from './participant.js';
import type { Prng } from './prng.js';
import type { TakerConfig } from './synthetic-config.js';

/** Inputs of a {@link NoiseTaker}. */
export interface NoiseTakerDeps {
  clock: Clock;
  market: MarketConfig;
  participant: Participant;
  rng: Prng;
  config: TakerConfig;
  /** The current mid (for limit prices and funding estimates). */
  mid: () => DecimalT;
  /** The higher of the market's commission rates. */
  feeMax: DecimalT;
  /** Called with anything unexpected thrown while sending (the timer itself never throws). */
  onError: (err: unknown) => void;
}

/** A market order may walk past the mid; its funding estimate allows this much slippage. */
const MARKET_SLIPPAGE = new Decimal('1.05');

/**
 * @example
 * const taker = new NoiseTaker({ clock, market, participant, rng, config: cfg.takers, mid: () => walk.mid(), feeMax, onError });
 * taker.start(); // first order after an exponential wait
 * taker.stop();
 */
export class NoiseTaker {
  readonly #d: NoiseTakerDeps;
  #timer: TimerHandle | undefined;
  #running = false;
  /** Extra intensity (orders per ms) from past orders, as of {@link NoiseTaker.#excitedAt}. */
  #excitation = 0;
  #excitedAt = 0;

  constructor(deps: NoiseTakerDeps) {
    this.#d = deps;
  }

  /** Schedule the first arrival (no-op when the rate is 0). */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#schedule();
  }

  /** Cancel the pending arrival. */
  stop(): void {
    this.#running = false;
    this.#timer?.cancel();
    this.#timer = undefined;
  }

  /** Send one random taker order now. */
  fire(): void {
    const { market, participant, rng, config, feeMax } = this.#d;
    const direction = rng.chance(0.5) ? 'BUY' : 'SELL';
    const quantity = market.minTradeSize.times(rng.intBetween(config.lots[0], config.lots[1]));
    const useLimit = rng.chance(config.limitShare);
    const mid = this.#d.mid();
    const order: NewOrder = { marketSymbol: market.symbol, direction, type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity };
    let need: FundingNeed;
    if (useLimit) {
      const through = new Decimal(1).plus(new Decimal(config.limitSlippageBps).div(10_000).times(direction === 'BUY' ? 1 : -1));
      const rounding = direction === 'BUY' ? Decimal.ROUND_UP : Decimal.ROUND_DOWN;
      const limit = mid.times(through).toDecimalPlaces(market.precision, rounding);
      if (limit.lte(0)) return;
      order.type = 'LIMIT';
      order.limit = limit;
      need =
        direction === 'BUY'
          ? { currency: market.quoteCurrencySymbol, amount: buyReserve(quantity, limit, feeMax) }
          : { currency: market.baseCurrencySymbol, amount: quantity };
    } else {
      need =
        direction === 'BUY'
          ? { currency: market.quoteCurrencySymbol, amount: buyReserve(quantity, mid.times(MARKET_SLIPPAGE), feeMax) }
          : { currency: market.baseCurrencySymbol, amount: quantity };
    }
    participant.place(order, need);
  }

  /** Inventory the taker starts with: `multiple` of its largest order, in base and in quote at `mid`. */
  startFunding(mid: DecimalT, multiple: number): { base: DecimalT; quote: DecimalT } {
    const { market, config } = this.#d;
    const base = market.minTradeSize.times(config.lots[1]).times(multiple).toDecimalPlaces(8, Decimal.ROUND_UP);
    return { base, quote: base.times(mid).times(1.1).toDecimalPlaces(8, Decimal.ROUND_UP) };
  }

  #schedule(): void {
    const { clock, rng, config } = this.#d;
    if (!this.#running || !(config.ratePerMinute > 0)) return;
    const now = clock.now();
    const base = config.ratePerMinute / 60_000; // orders per ms
    const decay = 1 / config.clusterDecayMs;
    let excitation = this.#excitation * Math.exp(-decay * Math.max(0, now - this.#excitedAt));
    // Ogata thinning: between orders the intensity only decays, so its value now bounds it until the next one.
    let wait = 0;
    for (;;) {
      const bound = base + excitation;
      const step = rng.exponential(bound);
      wait += step;
      excitation *= Math.exp(-decay * step);
      if (rng.next() * bound <= base + excitation) break;
    }
    // At least 1 ms so time always advances.
    const waitMs = Math.max(1, Math.round(wait));
    this.#timer = clock.setTimeout(() => {
      // Each order adds clustering × decay to the intensity: on average `clustering` more orders follow it.
      this.#excitation = excitation + config.clustering * decay;
      this.#excitedAt = clock.now();
      try {
        this.fire();
      } catch (err) {
        this.#d.onError(err);
      }
      this.#schedule();
    }, waitMs);
  }
}
