/**
 * Per-market state of the v1.1 hub: which rates the served book holds (so a level change is told apart as ADD,
 * UPDATE or REMOVE, which v1.1 distinguishes and v3 does not), the market's nonce, and the changes of the current
 * engine operation gathered into one uE.
 *
 * v3 sends book deltas and trades as separate messages; the original v1.1 server sent one uE per change of
 * exchange state, carrying both. The engine emits everything an operation does synchronously, so the changes
 * are gathered and flushed once per operation (a microtask), giving one uE and one nonce per operation.
 */
import type { Decimal } from '../../core/decimal.js';
import type { V1BookDelta, V1BookLevel, V1DeltaFill } from '../../wire/v1/hub/messages.js';

/** One gathered uE body, before the per-connection nonce is added. */
export interface PendingExchangeDelta {
  Buys: V1BookDelta[];
  Sells: V1BookDelta[];
  Fills: V1DeltaFill[];
}

/** A market someone queried or subscribed to: its served rates and its nonce. */
export class MarketDeltas {
  readonly marketName: string;
  /** Incremented once per uE; a connection sees it plus its own offset. */
  nonce = 0;
  readonly #buys = new Set<string>();
  readonly #sells = new Set<string>();
  #pending: PendingExchangeDelta | undefined;

  constructor(marketName: string, buys: readonly V1BookLevel[], sells: readonly V1BookLevel[]) {
    this.marketName = marketName;
    for (const l of buys) this.#buys.add(l.Rate.toString());
    for (const l of sells) this.#sells.add(l.Rate.toString());
  }

  /** True when a change is waiting for {@link take}. */
  get hasPending(): boolean {
    return this.#pending !== undefined;
  }

  /**
   * Record a level's new quantity (0 removes it). Returns true when this made the first pending change, i.e. the
   * caller must schedule a flush.
   */
  level(side: 'buy' | 'sell', rate: Decimal, quantity: Decimal): boolean {
    const set = side === 'buy' ? this.#buys : this.#sells;
    const key = rate.toString();
    let type: 0 | 1 | 2;
    if (quantity.isZero()) {
      // A removal of a level the served book never had changes nothing a client holds.
      if (!set.delete(key)) return false;
      type = 1;
    } else if (set.has(key)) {
      type = 2;
    } else {
      set.add(key);
      type = 0;
    }
    const first = this.#pending === undefined;
    const p = (this.#pending ??= { Buys: [], Sells: [], Fills: [] });
    (side === 'buy' ? p.Buys : p.Sells).push({ Type: type, Rate: rate, Quantity: quantity });
    return first;
  }

  /** Record a fill; returns true when it made the first pending change. */
  fill(fill: V1DeltaFill): boolean {
    const first = this.#pending === undefined;
    (this.#pending ??= { Buys: [], Sells: [], Fills: [] }).Fills.push(fill);
    return first;
  }

  /** The gathered changes, numbered: the market's nonce moves on by one. Undefined when nothing is pending. */
  take(): { nonce: number; delta: PendingExchangeDelta } | undefined {
    const delta = this.#pending;
    if (!delta) return undefined;
    this.#pending = undefined;
    return { nonce: ++this.nonce, delta };
  }
}
