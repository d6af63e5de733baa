/**
 * Exactly-once fills. Executions reach the manager from the stream, from REST fallbacks and from reconciliation,
 * in any order and possibly twice; an execution is reported once, by id. One can also arrive before the manager
 * knows which of its orders it belongs to (the stream beats the REST answer carrying the order id): it is parked
 * by order id until the order is linked, then delivered.
 */
import { type Decimal, ZERO } from '../core/decimal.js';
import { OldestFirst } from '../core/oldest-first.js';
import { RecentIds } from '../core/recent-ids.js';
import type { Execution } from '../model/order.js';
import type { FillRecord } from './journal-records.js';
import type { FillEvent } from './order-manager-deps.js';

/**
 * Seen execution ids (bounded, oldest forgotten first) and parked executions of not-yet-linked orders.
 *
 * @example
 * if (!fills.seen(e.id)) { if (known(e.orderId)) { fills.markSeen(e.id); report(e); } else fills.park(e); }
 * for (const e of fills.takeParked(orderId)) report(e); // once the order id is linked
 */
export class FillTracker {
  readonly #seen: RecentIds;
  readonly #parked = new Map<string, Execution[]>();
  readonly #oldestParked = new OldestFirst(this.#parked);
  #parkedCount = 0;
  readonly #maxParked: number;

  constructor(options: { maxSeen?: number; maxParked?: number } = {}) {
    // At least the last maxSeen execution ids (src/core/recent-ids.ts says why two generations, not one trimmed set).
    this.#seen = new RecentIds(options.maxSeen ?? 100_000);
    this.#maxParked = options.maxParked ?? 10_000;
  }

  seen(executionId: string): boolean {
    return this.#seen.has(executionId);
  }

  markSeen(executionId: string): void {
    this.#seen.add(executionId);
  }

  /**
   * Keep an execution of an order not (yet) ours. Executions of orders that never become ours (manual orders)
   * are dropped oldest first once the bound is reached.
   */
  park(e: Execution): void {
    const list = this.#parked.get(e.orderId);
    if (list?.some((p) => p.id === e.id)) return;
    if (list) list.push(e);
    else this.#parked.set(e.orderId, [e]);
    this.#parkedCount++;
    while (this.#parkedCount > this.#maxParked) {
      const [, oldest] = this.#oldestParked.shift()!;
      this.#parkedCount -= oldest.length;
    }
  }

  /** Remove and return the parked executions of `orderId`. */
  takeParked(orderId: string): Execution[] {
    const list = this.#parked.get(orderId);
    if (!list) return [];
    this.#parked.delete(orderId);
    this.#parkedCount -= list.length;
    return list;
  }
}

/**
 * The fill event of a journaled fill record for `strategy`'s intent `intentKey`; `at` is the execution time.
 *
 * @example
 * emit(fillEventOf('mm', 'ladder', record)); // { type: 'fill', clientOrderId: record.id, executionId: record.executionId, ... }
 */
export function fillEventOf(strategy: string, intentKey: string, r: FillRecord): FillEvent {
  return {
    type: 'fill',
    strategy,
    intentKey,
    clientOrderId: r.id,
    orderId: r.orderId,
    marketSymbol: r.marketSymbol,
    direction: r.direction,
    quantity: r.quantity,
    rate: r.rate,
    commission: r.commission,
    isTaker: r.isTaker,
    executionId: r.executionId,
    at: r.executedAt.getTime(),
  };
}

/** Signed base positions per (strategy, market) from reported fills: the fallback when no portfolio is wired. */
export class FillPositions {
  readonly #positions = new Map<string, Decimal>();

  add(f: FillEvent): void {
    const k = `${f.strategy}|${f.marketSymbol}`;
    this.#positions.set(k, (this.#positions.get(k) ?? ZERO).add(f.direction === 'BUY' ? f.quantity : f.quantity.neg()));
  }

  /** Replace a position (restored from the journal at start). */
  set(marketSymbol: string, strategy: string, quantity: Decimal): void {
    this.#positions.set(`${strategy}|${marketSymbol}`, quantity);
  }

  get(marketSymbol: string, strategy: string): Decimal {
    return this.#positions.get(`${strategy}|${marketSymbol}`) ?? ZERO;
  }
}
