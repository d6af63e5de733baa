/**
 * The replayed liquidity of one market: one resting LIMIT GOOD_TIL_CANCELLED order per recorded price level (top
 * `depth` levels per side), held by two ordinary accounts — one for bids, one for asks, so the two sides can never
 * trip the engine's SELF_TRADE rule on each other. (Placed as recorded liquidity, they are not subject to the
 * open-order cap, which a 500-level side would exceed.)
 *
 * Policy (how recorded liquidity and user orders share one book):
 * - Each recorded message is re-enacted as ONE engine transaction (`DriverEngine.transact`), so subscribers get
 *   one `orderBook` delta per depth with the new quantities and one sequence step, as the real service published
 *   one message per recorded change — never the book between a level's cancel and its new order.
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
 * - Levels are placed as recorded liquidity (`recordedLiquidity`): the venue that recorded them had accepted them,
 *   so levels below today's minTradeSize or dust value, or finer than the market's precision, are on the book as
 *   recorded. A level the engine still refuses is counted in the driver's `rejected` stats and left out until the
 *   recording changes it again; one that could never trade (its value rounds to zero) in `dustLevels`.
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
  /** Runs `fn`'s placements and cancellations on this market as one engine operation. */
  transact: <T>(fn: () => T) => T;
  /** Counts levels that could not rest because their value rounds to zero (they could never trade). */
  onDust?: () => void;
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

  /** Replace the market's replayed liquidity with a snapshot (one engine transaction). */
  snapshot(s: ReplaySnapshot): void {
    this.#d.transact(() => {
      this.recorded.reset(s.bid, s.ask);
      this.#prefund();
      const all: Changed = { bid: new Set(this.#placed.bid.keys()), ask: new Set(this.#placed.ask.keys()) };
      for (const side of SIDES) for (const l of this.recorded.top(side, this.#d.depth)) all[side].add(rateKey(l.rate));
      this.#sync(all);
    });
  }

  /** Apply one recorded delta message, every level it names at once (quantity 0 removes the level). */
  delta(d: ReplayOrderBookDelta): void {
    this.#d.transact(() => {
      const changed: Changed = { bid: new Set(), ask: new Set() };
      for (const [side, entries] of [['bid', d.bidDeltas], ['ask', d.askDeltas]] as const) {
        for (const e of entries) {
          this.recorded.set(side, e.rate, e.quantity);
          changed[side].add(rateKey(e.rate));
        }
      }
      this.#sync(changed);
    });
  }

  /** Run `fn` as one engine transaction (a recorded trade message and the levels it restores). */
  transact<T>(fn: () => T): T {
    return this.#d.transact(fn);
  }

  /**
   * Run `take` (a replayed trade taking liquidity from `side` down to `limit`), then put the recorded quantity
   * back at every replay level it took from: the recording's book already accounts for its trades. Levels it did
   * not touch keep what they hold (a level a user depleted stays depleted). Call it inside {@link transact}, so
   * the take and the restore are published as one operation and the book shows no change.
   */
  restoreAfter(side: RecordedSide, limit: Decimal, take: () => void): void {
    const owner = this.#owner(side);
    const reachable = (rate: Decimal) => (side === 'ask' ? rate.lte(limit) : rate.gte(limit));
    const before = new Map<string, { orderId: string; filled: Decimal }>();
    for (const [key, p] of this.#placed[side]) {
      if (p.orderId !== undefined && reachable(p.rate)) before.set(key, { orderId: p.orderId, filled: owner.order(p.orderId).fillQuantity });
    }
    take();
    const changed: Changed = { bid: new Set(), ask: new Set() };
    for (const [key, b] of before) {
      const now = owner.order(b.orderId);
      if (now.status !== 'OPEN' || !now.fillQuantity.eq(b.filled)) changed[side].add(key);
    }
    this.#sync(changed);
  }

  /** Cancel every replay order of this market (one engine transaction). */
  clear(): void {
    this.#d.transact(() => {
      for (const side of SIDES) {
        const owner = this.#owner(side);
        for (const p of this.#placed[side].values()) if (p.orderId !== undefined) owner.cancel(p.orderId);
        this.#placed[side].clear();
      }
    });
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
      const owner = this.#owner(side);
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

  #owner(side: RecordedSide): Participant {
    return side === 'bid' ? this.#d.bids : this.#d.asks;
  }

  #place(side: RecordedSide, l: OrderBookEntry): string | undefined {
    const { market, feeMax } = this.#d;
    const buy = side === 'bid';
    const order = this.#owner(side).place(
      { marketSymbol: market.symbol, direction: buy ? 'BUY' : 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: l.quantity, limit: l.rate },
      buy
        ? { currency: market.quoteCurrencySymbol, amount: buyReserve(l.quantity, l.rate, feeMax) }
        : { currency: market.baseCurrencySymbol, amount: l.quantity },
      { recordedLiquidity: true },
    );
    // An order filled completely on arrival (it met a user's order) leaves nothing to track; one that closed
    // without a fill could never trade at its rate (dust), which is worth counting.
    if (order && order.status !== 'OPEN' && order.fillQuantity.isZero()) this.#d.onDust?.();
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
