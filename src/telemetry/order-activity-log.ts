/**
 * Order activity as a person reads it. Every acknowledgement used to be its own info line ("order accepted"), so a
 * market maker re-quoting four levels every two seconds buried everything else, while cancels were not logged at
 * all. Here, orders a strategy places or cancels together (a ladder refresh arrives as one batch, in one turn of
 * the event loop) become ONE short info line per strategy and market — `mm-btc BTC-USD: placed BUY 0.002@29990,
 * SELL 0.002@30010; cancelled 2` — a fill is always its own line, and the counts since the last summary feed the
 * periodic summary. The full acknowledgement stays available at debug.
 *
 * Grouping waits only for the current microtask checkpoint (no timer), so it behaves the same on a virtual clock.
 */
import type { Logger } from 'pino';
import type { OrderEvent } from '../orders/order-events.js';

type Accepted = Extract<OrderEvent, { type: 'accepted' }>;
type Closed = Extract<OrderEvent, { type: 'closed' }>;
type Fill = Extract<OrderEvent, { type: 'fill' }>;

/** Counts since the last {@link OrderActivityLog.takeCounts}. */
export interface ActivityCounts {
  placed: number;
  cancelled: number;
  fills: number;
  denied: number;
  rejected: number;
}

const zero = (): ActivityCounts => ({ placed: 0, cancelled: 0, fills: 0, denied: 0, rejected: 0 });

interface Pending {
  strategy: string;
  market: string;
  placed: string[];
  cancelled: number;
}

/** Turns order events into short info lines; see the file comment. */
export class OrderActivityLog {
  readonly #logger: Logger;
  readonly #pending = new Map<string, Pending>();
  #scheduled = false;
  #counts = zero();

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Feed one order event. */
  onEvent(e: OrderEvent): void {
    switch (e.type) {
      case 'accepted':
        this.#counts.placed++;
        this.#placed(e);
        break;
      case 'closed':
        if (isCancelled(e)) {
          this.#counts.cancelled++;
          if (this.#logger.isLevelEnabled('info')) this.#group(e.strategy, e.order.marketSymbol).cancelled++;
        }
        break;
      case 'fill':
        this.#counts.fills++;
        this.#fill(e);
        break;
      case 'denied':
        this.#counts.denied++;
        break;
      case 'rejected':
        this.#counts.rejected++;
        break;
      default:
        break;
    }
  }

  /** The counts since the previous call (for the periodic summary), and reset them. */
  takeCounts(): ActivityCounts {
    const c = this.#counts;
    this.#counts = zero();
    return c;
  }

  /** Write what is grouped now (also done automatically at the end of the current microtask checkpoint). */
  flush(): void {
    this.#scheduled = false;
    for (const p of this.#pending.values()) {
      const parts: string[] = [];
      if (p.placed.length > 0) parts.push(`placed ${p.placed.join(', ')}`);
      if (p.cancelled > 0) parts.push(`cancelled ${p.cancelled}`);
      this.#logger.info({ strategy: p.strategy, market: p.market, placed: p.placed.length, cancelled: p.cancelled }, `${p.strategy} ${p.market}: ${parts.join('; ')}`);
    }
    this.#pending.clear();
  }

  #placed(e: Accepted): void {
    // Lines nobody will see (info off, as in a backtest) are not put together: only the counts matter then.
    if (!this.#logger.isLevelEnabled('info')) return;
    const o = e.order;
    const price = o.limit !== undefined ? `@${o.limit.toFixed()}` : o.type === 'MARKET' ? ' at market' : '';
    const size = o.quantity !== undefined ? o.quantity.toFixed() : o.ceiling !== undefined ? `for ${o.ceiling.toFixed()}` : '';
    this.#group(e.strategy, o.marketSymbol).placed.push(`${o.direction} ${size}${price}`);
  }

  #fill(e: Fill): void {
    if (!this.#logger.isLevelEnabled('info')) return;
    this.#logger.info(
      { strategy: e.strategy, market: e.marketSymbol, side: e.direction, qty: e.quantity.toFixed(), rate: e.rate.toFixed(), fee: e.commission.toFixed(), taker: e.isTaker },
      `${e.strategy} ${e.marketSymbol}: filled ${e.direction} ${e.quantity.toFixed()}@${e.rate.toFixed()} (fee ${e.commission.toFixed()}${e.isTaker ? ', taker' : ''})`,
    );
  }

  #group(strategy: string, market: string): Pending {
    const key = `${strategy}\u0000${market}`;
    let p = this.#pending.get(key);
    if (!p) {
      p = { strategy, market, placed: [], cancelled: 0 };
      this.#pending.set(key, p);
    }
    if (!this.#scheduled) {
      this.#scheduled = true;
      queueMicrotask(() => this.flush());
    }
    return p;
  }
}

/** Closed without being completely filled: cancelled by us or by the venue (IOC/FOK remainder, a kill). */
function isCancelled(e: Closed): boolean {
  const o = e.order;
  if (o.quantity !== undefined) return o.fillQuantity.lt(o.quantity);
  // A ceiling order rarely spends its ceiling to the last unit (commission, precision): only one that bought
  // nothing reads as cancelled.
  return o.fillQuantity.isZero();
}
