/**
 * The trigger of one conditional order: a constant price, or a trailing price that floats `trailingStopPercent`
 * below the highest (LTE) or above the lowest (GTE) trade price seen since placement (seed, "Conditional order
 * rules"). It is compared with each trade's price: LTE fires at or below, GTE at or above.
 */
import { Decimal, type Decimal as DecimalT } from '../../core/decimal.js';
import type { ConditionalOperand } from '../../model/enums.js';

/** What one observed trade did to a trigger. */
export interface TriggerObservation {
  /** The trade met the condition. */
  fired: boolean;
  /** The trailing trigger price changed (the order was modified and is published). */
  moved: boolean;
}

/**
 * Trigger state.
 *
 * A trailing trigger is kept at 8 decimals, rounded down for LTE and up for GTE: trade prices have at most 8
 * decimals, so `price <= floor8(exact)` exactly when `price <= exact` (and likewise for GTE) — the rounded value
 * the wire shows is also the one that decides.
 *
 * @example
 * const t = Trigger.trailing('LTE', dec('10'), dec('100')); // price 90
 * t.observe(dec('120')); // { fired: false, moved: true }, price 108
 * t.observe(dec('108')); // { fired: true, moved: false }
 */
export class Trigger {
  readonly operand: ConditionalOperand;
  readonly #percent: DecimalT | undefined;
  #extreme: DecimalT | undefined;
  #price: DecimalT | undefined;

  private constructor(operand: ConditionalOperand, price: DecimalT | undefined, percent: DecimalT | undefined) {
    this.operand = operand;
    this.#price = price;
    this.#percent = percent;
  }

  /** A constant trigger at `price`. */
  static fixed(operand: ConditionalOperand, price: DecimalT): Trigger {
    return new Trigger(operand, price, undefined);
  }

  /**
   * A trailing trigger `percent` away from the extreme trade price. `reference` is the market's last trade
   * price when the order is placed (the price in force at placement counts as seen); without one the trigger
   * price is unknown until the first trade.
   */
  static trailing(operand: ConditionalOperand, percent: DecimalT, reference: DecimalT | undefined): Trigger {
    const t = new Trigger(operand, undefined, percent);
    if (reference !== undefined) t.#follow(reference);
    return t;
  }

  /** The current trigger price (undefined for a trailing trigger before any trade). */
  get price(): DecimalT | undefined {
    return this.#price;
  }

  /** True for a trailing trigger. */
  get trailing(): boolean {
    return this.#percent !== undefined;
  }

  /** Feed one trade price: move a trailing trigger first (a new extreme can never meet it), then compare. */
  observe(rate: DecimalT): TriggerObservation {
    const moved = this.#percent !== undefined && this.#follow(rate);
    const p = this.#price;
    const fired = p !== undefined && (this.operand === 'LTE' ? rate.lte(p) : rate.gte(p));
    return { fired, moved };
  }

  /** Update the extreme with `rate`; returns true when the trigger price changed. */
  #follow(rate: DecimalT): boolean {
    const pct = this.#percent!;
    const lte = this.operand === 'LTE';
    if (this.#extreme !== undefined && (lte ? rate.lte(this.#extreme) : rate.gte(this.#extreme))) return false;
    this.#extreme = rate;
    const factor = lte ? new Decimal(100).minus(pct) : new Decimal(100).plus(pct);
    const next = rate.times(factor).div(100).toDecimalPlaces(8, lte ? Decimal.ROUND_DOWN : Decimal.ROUND_UP);
    const changed = this.#price === undefined || !next.eq(this.#price);
    this.#price = next;
    return changed;
  }
}
