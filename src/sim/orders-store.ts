/**
 * Every order the simulated exchange ever accepted, indexed by id and per account into open and closed lists.
 * Ids are matched case-insensitively (they are uuids; clients may send them upper-case).
 */
import { LazyIdList } from './lazy-id-list.js';
import { notFound } from './sim-error.js';
import { DEFAULT_RETENTION, dropCount, type RetentionLimits, Tombstones } from './retention.js';
import type { OrderRecord } from './trading-types.js';

interface AccountOrders {
  /** Open orders in placement order. */
  open: Map<string, OrderRecord>;
  /** Closed orders in closing order. */
  closed: LazyIdList<OrderRecord>;
}

/**
 * Order records of all accounts.
 *
 * Open orders are indexed by id as they are added (fills look their makers up). Closed orders are indexed per
 * account when a lookup asks, from where the previous one stopped: an order that trades and closes while it is
 * being placed (an IMMEDIATE_OR_CANCEL taker, the usual bot order) is never {@link add}ed as open, and is only
 * appended to its account's closed list, instead of costing four map operations (id index and open list, in and
 * out) on the order path for a lookup most clients never make. Answers are those of an index kept up to date.
 */
export class OrderStore {
  readonly #openById = new Map<string, OrderRecord>();
  readonly #accounts = new Map<string, AccountOrders>();
  #closeSeq = 0;
  readonly #retention: RetentionLimits;
  readonly #now: () => number;
  /** Ids of closed orders dropped by retention (retention.ts). */
  readonly dropped = new Tombstones();

  /** `now` is the engine clock; closed orders are kept per `retention` (default {@link DEFAULT_RETENTION}). */
  constructor(now: () => number = Date.now, retention: RetentionLimits = DEFAULT_RETENTION) {
    this.#now = now;
    this.#retention = retention;
  }

  /** Register an order that is open after its placement (one that closes during it needs only {@link markClosed}). */
  add(rec: OrderRecord): void {
    this.#openById.set(rec.order.id.toLowerCase(), rec);
    this.#account(rec.accountId).open.set(rec.order.id, rec);
  }

  /** The record of `id`, whoever owns it. */
  get(id: string): OrderRecord | undefined {
    const key = id.toLowerCase();
    const open = this.#openById.get(key);
    if (open) return open;
    // Closed orders are indexed per account; fills only ever look up open makers, so this walk is rare.
    for (const acc of this.#accounts.values()) {
      const rec = acc.closed.get(key);
      if (rec) return rec;
    }
    return undefined;
  }

  /** The record of `id` owned by `accountId`; 404 NOT_FOUND when unknown or another account's (no information leak). */
  owned(accountId: string, id: string): OrderRecord {
    let rec: OrderRecord | undefined;
    if (typeof id === 'string') {
      const key = id.toLowerCase();
      rec = this.#openById.get(key);
      if (!rec) {
        const acc = this.#accounts.get(accountId);
        rec = acc ? acc.closed.get(key) : undefined;
      }
    }
    if (!rec || rec.accountId !== accountId) throw notFound('NOT_FOUND', `order ${String(id)} not found`);
    return rec;
  }

  /**
   * Move an order to the closed list (its status is set by the caller): from the open list when it was
   * {@link add}ed, else it closed during its placement. Closing an order twice is a bug. `now` (default the
   * clock's) is the time retention judges ages by.
   */
  markClosed(rec: OrderRecord, now: number = this.#now()): void {
    if (rec.closeSeq !== 0) throw new Error(`orders: ${rec.order.id} is not open`);
    const acc = this.#account(rec.accountId);
    if (acc.open.delete(rec.order.id)) this.#openById.delete(rec.order.id.toLowerCase());
    rec.closeSeq = ++this.#closeSeq;
    acc.closed.push(rec);
    const k = dropCount(acc.closed.items, this.#retention, closedAt, now);
    if (k > 0) this.dropped.addAll(acc.closed.dropFront(k), now);
  }

  /** Number of open orders of an account. */
  openCount(accountId: string): number {
    return this.#accounts.get(accountId)?.open.size ?? 0;
  }

  /** Open orders of an account, newest first, optionally of one market. */
  open(accountId: string, marketSymbol?: string): OrderRecord[] {
    const acc = this.#accounts.get(accountId);
    if (!acc) return [];
    const out: OrderRecord[] = [];
    for (const rec of acc.open.values()) if (!marketSymbol || rec.order.marketSymbol === marketSymbol) out.push(rec);
    return out.reverse();
  }

  /** Closed orders of an account, most recently closed first, optionally of one market. */
  closed(accountId: string, marketSymbol?: string): OrderRecord[] {
    const acc = this.#accounts.get(accountId);
    if (!acc) return [];
    const out: OrderRecord[] = [];
    const closed = acc.closed.items;
    for (let i = closed.length - 1; i >= 0; i--) {
      const rec = closed[i]!;
      if (!marketSymbol || rec.order.marketSymbol === marketSymbol) out.push(rec);
    }
    return out;
  }

  #account(accountId: string): AccountOrders {
    let acc = this.#accounts.get(accountId);
    if (!acc) this.#accounts.set(accountId, (acc = { open: new Map(), closed: new LazyIdList(closedId) }));
    return acc;
  }
}

function closedId(rec: OrderRecord): string {
  return rec.order.id;
}

function closedAt(rec: OrderRecord): number | undefined {
  return rec.order.closedAt?.getTime();
}
