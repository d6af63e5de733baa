/**
 * One strategy's position in one market, kept as FIFO lots.
 *
 * Why FIFO rather than average cost: with lots, every figure is a sum of products of wire decimals, so realized
 * PnL is exact to the last digit and never depends on a rounded division. The average entry price is derived
 * (cost ÷ quantity) only when someone asks for it.
 *
 * Sign convention: quantity > 0 is long base currency, < 0 short. A fill against the position closes the oldest
 * lots first; what is left of the fill after the position reached zero opens a new position the other way
 * (a flip). Commission is in the quote currency and is charged to realized PnL when paid (opening fills
 * included), which is the conservative choice for a risk limit: a loss shows as soon as the fee is gone.
 */
import { type Decimal, dlt, ZERO } from '../core/decimal.js';
import { dmul, dsub } from '../core/decimal-fast.js';

/** An open lot: `quantity` (always > 0) bought (long) or sold (short) at `rate`. */
interface Lot {
  quantity: Decimal;
  readonly rate: Decimal;
}

/** What one fill did to a position. */
export interface FillEffect {
  /** Base quantity that closed existing lots. */
  closed: Decimal;
  /** Trading PnL of the closed part (quote, before commission). */
  realized: Decimal;
  /** Base quantity that opened new exposure (same direction, or after a flip). */
  opened: Decimal;
}

/**
 * Everything a {@link Position} holds, exactly: enough to rebuild it without the fills (the order journal keeps
 * one per position when it compacts fills away). Lots are unsigned, oldest first; `quantity`'s sign says long or
 * short.
 */
export interface PositionSnapshot {
  strategy: string;
  marketSymbol: string;
  quantity: Decimal;
  lots: { quantity: Decimal; rate: Decimal }[];
  /** Σ lot quantity × rate, as the position kept it (not recomputed, so it matches to the last digit). */
  cost: Decimal;
  /** Closed-lot PnL before commission. */
  trading: Decimal;
  commission: Decimal;
  lastRate: Decimal;
}

/** A position snapshot for reports. */
export interface PositionView {
  strategy: string;
  marketSymbol: string;
  /** Quote currency of the market: every amount below is in it. */
  quoteCurrency: string;
  /** Signed base quantity (> 0 long, < 0 short). */
  quantity: Decimal;
  /** Cost of the open lots ÷ |quantity|; undefined when flat. */
  avgEntryPrice: Decimal | undefined;
  /** Closed-lot PnL minus all commission paid. */
  realizedPnl: Decimal;
  /** Commission paid. */
  commission: Decimal;
  /** Rate of the last fill (a fallback mark). */
  lastRate: Decimal;
}

/**
 * FIFO position of one (strategy, market).
 *
 * @example
 * const p = new Position('mm', 'BTC-USD', 'USD');
 * p.apply('BUY', dec('2'), dec('100'), dec('0.5'));
 * p.apply('SELL', dec('3'), dec('110'), dec('0.5'));
 * p.quantity.toString();    // '-1'  (flipped short)
 * p.realizedPnl.toString(); // '19'  (2 × 10 − 1 commission)
 */
export class Position {
  readonly strategy: string;
  readonly marketSymbol: string;
  readonly quoteCurrency: string;
  #quantity: Decimal = ZERO;
  // Lots as a queue: #head is the oldest live lot, so closing never shifts the array.
  #lots: Lot[] = [];
  #head = 0;
  /** Σ lot.quantity × lot.rate of the open lots (unsigned). */
  #cost: Decimal = ZERO;
  #trading: Decimal = ZERO;
  #commission: Decimal = ZERO;
  #realized: { trading: Decimal; commission: Decimal; value: Decimal } | undefined;
  #lastRate: Decimal = ZERO;

  constructor(strategy: string, marketSymbol: string, quoteCurrency: string) {
    this.strategy = strategy;
    this.marketSymbol = marketSymbol;
    this.quoteCurrency = quoteCurrency;
  }

  /** Signed base quantity. */
  get quantity(): Decimal {
    return this.#quantity;
  }

  /** Cost of the open lots (unsigned, quote). */
  get cost(): Decimal {
    return this.#cost;
  }

  /** Closed-lot PnL minus commission (quote). */
  get realizedPnl(): Decimal {
    // Read at every valuation (the risk engine values at each order it evaluates), changed only by fills: the
    // difference is kept for the pair of values it was made from.
    const memo = this.#realized;
    if (memo && memo.trading === this.#trading && memo.commission === this.#commission) return memo.value;
    const value = this.#trading.minus(this.#commission);
    this.#realized = { trading: this.#trading, commission: this.#commission, value };
    return value;
  }

  /** Commission paid (quote). */
  get commission(): Decimal {
    return this.#commission;
  }

  /** Rate of the last fill (zero before any). */
  get lastRate(): Decimal {
    return this.#lastRate;
  }

  /** Average entry price of the open lots; undefined when flat. */
  get avgEntryPrice(): Decimal | undefined {
    return this.#quantity.isZero() ? undefined : this.#cost.div(this.#quantity.abs());
  }

  /** PnL of the open lots at `mark`: quantity × mark − signed cost. */
  unrealizedPnl(mark: Decimal): Decimal {
    if (this.#quantity.isZero()) return ZERO;
    const signedCost = dlt(this.#quantity, ZERO) ? this.#cost.neg() : this.#cost;
    return dsub(dmul(this.#quantity, mark), signedCost);
  }

  /** Apply one fill of `quantity` (> 0) at `rate` paying `commission` (quote). */
  apply(direction: 'BUY' | 'SELL', quantity: Decimal, rate: Decimal, commission: Decimal): FillEffect {
    this.#commission = this.#commission.plus(commission);
    this.#lastRate = rate;
    const sign = direction === 'BUY' ? 1 : -1;
    const signedFill = sign === 1 ? quantity : quantity.neg();
    const sameWay = this.#quantity.isZero() || this.#quantity.gt(ZERO) === (sign === 1);
    if (sameWay) {
      this.#open(quantity, rate);
      this.#quantity = this.#quantity.plus(signedFill);
      return { closed: ZERO, realized: ZERO, opened: quantity };
    }
    // Against the position: close oldest lots first.
    const long = this.#quantity.gt(ZERO);
    let remaining = quantity;
    let realized = ZERO;
    // gt(ZERO), not isPositive(): decimal.js counts +0 as positive.
    while (remaining.gt(ZERO) && this.#head < this.#lots.length) {
      const lot = this.#lots[this.#head]!;
      const take = remaining.lt(lot.quantity) ? remaining : lot.quantity;
      const pnl = take.times(rate.minus(lot.rate));
      realized = realized.plus(long ? pnl : pnl.neg());
      this.#cost = this.#cost.minus(take.times(lot.rate));
      lot.quantity = lot.quantity.minus(take);
      remaining = remaining.minus(take);
      if (lot.quantity.isZero()) this.#head++;
    }
    const closed = quantity.minus(remaining);
    this.#trading = this.#trading.plus(realized);
    this.#quantity = this.#quantity.plus(sign === 1 ? closed : closed.neg());
    this.#compact();
    if (remaining.gt(ZERO)) {
      // Flip: the rest of the fill opens the opposite position at the fill rate.
      this.#open(remaining, rate);
      this.#quantity = sign === 1 ? remaining : remaining.neg();
    }
    return { closed, realized, opened: remaining };
  }

  /** The exact state, for {@link Position.restore}. */
  snapshot(): PositionSnapshot {
    return {
      strategy: this.strategy,
      marketSymbol: this.marketSymbol,
      quantity: this.#quantity,
      lots: this.#lots.slice(this.#head).map((l) => ({ quantity: l.quantity, rate: l.rate })),
      cost: this.#cost,
      trading: this.#trading,
      commission: this.#commission,
      lastRate: this.#lastRate,
    };
  }

  /**
   * The position a {@link PositionSnapshot} describes: applying further fills to it gives exactly what applying
   * them to the original would.
   *
   * @example
   * const copy = Position.restore(p.snapshot(), 'USD'); // copy.realizedPnl.eq(p.realizedPnl)
   */
  static restore(s: PositionSnapshot, quoteCurrency: string): Position {
    const p = new Position(s.strategy, s.marketSymbol, quoteCurrency);
    p.#quantity = s.quantity;
    p.#lots = s.lots.map((l) => ({ quantity: l.quantity, rate: l.rate }));
    p.#cost = s.cost;
    p.#trading = s.trading;
    p.#commission = s.commission;
    p.#lastRate = s.lastRate;
    return p;
  }

  /** A snapshot for reports. */
  view(): PositionView {
    return {
      strategy: this.strategy,
      marketSymbol: this.marketSymbol,
      quoteCurrency: this.quoteCurrency,
      quantity: this.#quantity,
      avgEntryPrice: this.avgEntryPrice,
      realizedPnl: this.realizedPnl,
      commission: this.#commission,
      lastRate: this.#lastRate,
    };
  }

  #open(quantity: Decimal, rate: Decimal): void {
    this.#lots.push({ quantity, rate });
    this.#cost = this.#cost.plus(quantity.times(rate));
  }

  // Drop consumed lots once they are the bulk of the array (amortized O(1) per fill).
  #compact(): void {
    if (this.#head === this.#lots.length) {
      this.#lots = [];
      this.#head = 0;
    } else if (this.#head > 32 && this.#head * 2 > this.#lots.length) {
      this.#lots = this.#lots.slice(this.#head);
      this.#head = 0;
    }
  }
}
