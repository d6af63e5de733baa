/**
 * One market's order book as a v1.1 client holds it: built from a QueryExchangeState result and moved on by uE
 * rows in nonce order. v1.1 rows say ADD (0), REMOVE (1) or UPDATE (2); ADD and UPDATE both set the level's
 * quantity, REMOVE (or a zero quantity, v3's convention) deletes it.
 */
import type { Decimal } from '../../../core/decimal.js';
import type { OrderBookEntry } from '../../../model/market.js';
import type { V1BookDelta, V1ExchangeState } from '../../../wire/v1/hub/messages.js';

/** A v1.1 book at a nonce. */
export class V1LocalBook {
  readonly marketName: string;
  nonce: number;
  readonly #buys = new Map<string, OrderBookEntry>();
  readonly #sells = new Map<string, OrderBookEntry>();

  constructor(state: V1ExchangeState) {
    this.marketName = state.MarketName;
    this.nonce = state.Nonce;
    for (const l of state.Buys) this.#buys.set(l.Rate.toString(), { rate: l.Rate, quantity: l.Quantity });
    for (const l of state.Sells) this.#sells.set(l.Rate.toString(), { rate: l.Rate, quantity: l.Quantity });
  }

  /** Apply one uE's rows and take its nonce. The caller checks that the nonce is the next one. */
  apply(nonce: number, buys: readonly V1BookDelta[], sells: readonly V1BookDelta[]): void {
    for (const d of buys) set(this.#buys, d);
    for (const d of sells) set(this.#sells, d);
    this.nonce = nonce;
  }

  /** Bids, best (highest) first, at most `depth` levels. */
  bids(depth = Infinity): OrderBookEntry[] {
    return sorted(this.#buys, (a, b) => b.comparedTo(a), depth);
  }

  /** Asks, best (lowest) first, at most `depth` levels. */
  asks(depth = Infinity): OrderBookEntry[] {
    return sorted(this.#sells, (a, b) => a.comparedTo(b), depth);
  }

  /** True when the best bid is at or above the best ask (a book no real market shows). */
  crossed(): boolean {
    const [bid] = this.bids(1);
    const [ask] = this.asks(1);
    return bid !== undefined && ask !== undefined && bid.rate.gte(ask.rate);
  }
}

function set(side: Map<string, OrderBookEntry>, d: V1BookDelta): void {
  const key = d.Rate.toString();
  if (d.Type === 1 || d.Quantity.isZero()) side.delete(key);
  else side.set(key, { rate: d.Rate, quantity: d.Quantity });
}

function sorted(side: Map<string, OrderBookEntry>, cmp: (a: Decimal, b: Decimal) => number, depth: number): OrderBookEntry[] {
  const all = [...side.values()].sort((a, b) => cmp(a.rate, b.rate));
  return depth < all.length ? all.slice(0, depth) : all;
}
