/**
 * The replayed liquidity of one market: one resting LIMIT GOOD_TIL_CANCELLED order per recorded price level (top
 * `depth` levels per side), held by two ordinary accounts — one for bids, one for asks. Two accounts because the
 * engine caps open orders per account (`maxOpenOrders`, 500 by default, like the service) and a 500-level book has
 * up to 1 000 levels; and because the two sides can then never trip the engine's SELF_TRADE rule on each other.
 *
 * Policy (how recorded liquidity and user orders share one book):
 * - A snapshot replaces every replay order of the market with the snapshot's levels.
 * - A delta sets each level it names to the recorded quantity: the replay order at that rate (if still open) is
 *   cancelled and a new one placed with the recorded quantity (none when 0). Levels entering or leaving the top
 *   `depth` are placed or cancelled the same way.
 * - A user order may take replay liquidity; the level then stays depleted until the next recorded delta for that
 *   rate (or a new snapshot) restores the recorded quantity. Between deltas the engine's book therefore holds
 *   less than the recording at levels users traded, which is what "the user's order took that liquidity" means.
 * - A replay order placed across a user's resting order trades with it, like any incoming order.
 * - All cancellations of one event happen before its placements, so replay orders only ever rest at levels of the
 *   (never crossed) recorded book and never trade with each other.
 * Levels the engine refuses (e.g. below minTradeSize or the dust value of the configuration) are counted in the
 * driver's `rejected` stats and left out until the recording changes them again.
 */
import type { Decimal } from '../../core/decimal.js';
import { ZERO } from '../../core/decimal.js';
import type { OrderBookEntry } from '../../model/market.js';
import type { MarketConfig } from '../config.js';
import { buyReserve } from '../trading-amounts.js';
import type { Participant } from './participant.js';
import { RecordedBook, type RecordedSide, rateKey } from './recorded-book.js';
import type { ReplayOrderBookDelta, ReplaySnapshot } from './replay-events.js';

/** What the replay holds at one level: its order, or nothing when the engine refused the level. */
interface Placed {
  /** Undefined when the engine refused the order (or it filled completely on arrival). */
  orderId: string | undefined;
  rate: Decimal;
}

type Changed = Record<RecordedSide, Set<string>>;

const SIDES: readonly RecordedSide[] = ['bid', 'ask'];

/** Inputs of a {@link ReplayLiquidity}. */
export interface ReplayLiquidityDeps {
  market: MarketConfig;
  /** Holds the replayed bids (needs quote currency). */
  bids: Participant;
  /** Holds the replayed asks (needs base currency). */
  asks: Participant;
  /** Levels per side kept on the engine's book. */
  depth: number;
  /** The higher of the market's commission rates (what a buy reserves). */
  feeMax: Decimal;
}

/**
 * @example
 * const liq = new ReplayLiquidity({ market, bids, asks, depth: 500, feeMax });
 * liq.snapshot(snapshotEvent);
 * liq.delta(deltaEvent);
 * liq.recorded.top('ask', 5); // what the recording says the best asks are
 */
export class ReplayLiquidity {
  /** The recorded book (snapshot + deltas), independent of what users did. */
  readonly recorded = new RecordedBook();
  readonly #d: ReplayLiquidityDeps;
  readonly #placed: Record<RecordedSide, Map<string, Placed>> = { bid: new Map(), ask: new Map() };

  constructor(deps: ReplayLiquidityDeps) {
    this.#d = deps;
  }

  /** Replace the market's replayed liquidity with a snapshot. */
  snapshot(s: ReplaySnapshot): void {
    this.recorded.reset(s.bid, s.ask);
    this.#prefund();
    const all: Changed = { bid: new Set(this.#placed.bid.keys()), ask: new Set(this.#placed.ask.keys()) };
    for (const side of SIDES) for (const l of this.recorded.top(side, this.#d.depth)) all[side].add(rateKey(l.rate));
    this.#sync(all);
  }

  /** Apply one recorded delta (quantity 0 removes the level). */
  delta(d: ReplayOrderBookDelta): void {
    const changed: Changed = { bid: new Set(), ask: new Set() };
    for (const [side, entries] of [['bid', d.bidDeltas], ['ask', d.askDeltas]] as const) {
      for (const e of entries) {
        this.recorded.set(side, e.rate, e.quantity);
        changed[side].add(rateKey(e.rate));
      }
    }
    this.#sync(changed);
  }

  /** Put the recorded quantity back at the levels of these replay orders (after a replayed trade took them). */
  restore(orderIds: ReadonlySet<string>): void {
    const changed: Changed = { bid: new Set(), ask: new Set() };
    for (const side of SIDES) {
      for (const [key, p] of this.#placed[side]) if (p.orderId !== undefined && orderIds.has(p.orderId)) changed[side].add(key);
    }
    this.#sync(changed);
  }

  /** Cancel every replay order of this market. */
  clear(): void {
    for (const side of SIDES) {
      const owner = side === 'bid' ? this.#d.bids : this.#d.asks;
      for (const p of this.#placed[side].values()) if (p.orderId !== undefined) owner.cancel(p.orderId);
      this.#placed[side].clear();
    }
  }

  /** The two accounts holding this market's replayed liquidity (bids, asks). */
  owners(): Participant[] {
    return [this.#d.bids, this.#d.asks];
  }

  /**
   * Bring the engine in line with the top `depth` recorded levels: cancel replay orders at levels that changed or
   * left the top, then place orders at levels that changed or entered it. All cancels first (see module note).
   */
  #sync(changed: Changed): void {
    const desired: Record<RecordedSide, Map<string, OrderBookEntry>> = { bid: new Map(), ask: new Map() };
    for (const side of SIDES) {
      for (const l of this.recorded.top(side, this.#d.depth)) desired[side].set(rateKey(l.rate), l);
    }
    for (const side of SIDES) {
      const owner = side === 'bid' ? this.#d.bids : this.#d.asks;
      for (const [key, p] of [...this.#placed[side]]) {
        if (changed[side].has(key) || !desired[side].has(key)) {
          if (p.orderId !== undefined) owner.cancel(p.orderId);
          this.#placed[side].delete(key);
        }
      }
    }
    for (const side of SIDES) {
      for (const [key, l] of desired[side]) {
        if (this.#placed[side].has(key)) continue;
        // A refused level is remembered too, so it is retried only when the recording changes it again.
        this.#placed[side].set(key, { orderId: this.#place(side, l), rate: l.rate });
      }
    }
  }

  #place(side: RecordedSide, l: OrderBookEntry): string | undefined {
    const { market, feeMax } = this.#d;
    const buy = side === 'bid';
    const order = (buy ? this.#d.bids : this.#d.asks).place(
      { marketSymbol: market.symbol, direction: buy ? 'BUY' : 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: l.quantity, limit: l.rate },
      buy
        ? { currency: market.quoteCurrencySymbol, amount: buyReserve(l.quantity, l.rate, feeMax) }
        : { currency: market.baseCurrencySymbol, amount: l.quantity },
    );
    // An order filled completely on arrival (it met a user's order) leaves nothing to track.
    return order && order.status === 'OPEN' ? order.id : undefined;
  }

  /** Make the whole recorded top available at once (twice over), rather than one small credit per level. */
  #prefund(): void {
    const { market, feeMax, depth } = this.#d;
    let quote = ZERO;
    for (const l of this.recorded.top('bid', depth)) quote = quote.plus(buyReserve(l.quantity, l.rate, feeMax));
    let base = ZERO;
    for (const l of this.recorded.top('ask', depth)) base = base.plus(l.quantity);
    this.#d.bids.ensureAvailable(market.quoteCurrencySymbol, quote.times(2));
    this.#d.asks.ensureAvailable(market.baseCurrencySymbol, base.times(2));
  }
}
