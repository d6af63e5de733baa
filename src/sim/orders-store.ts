/**
 * Every order the simulated exchange ever accepted, indexed by id and per account into open and closed lists.
 * Ids are matched case-insensitively (they are uuids; clients may send them upper-case).
 */
import { notFound } from './sim-error.js';
import { DEFAULT_RETENTION, dropCount, type RetentionLimits, Tombstones } from './retention.js';
import type { OrderRecord } from './trading-types.js';

interface AccountOrders {
  /** Open orders in placement order. */
  open: Map<string, OrderRecord>;
  /** Closed orders in closing order. */
  closed: OrderRecord[];
}

/** Order records of all accounts. */
export class OrderStore {
  readonly #byId = new Map<string, OrderRecord>();
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

  /** Register a new (open) order. */
  add(rec: OrderRecord): void {
    this.#byId.set(rec.order.id.toLowerCase(), rec);
    this.#account(rec.accountId).open.set(rec.order.id, rec);
  }

  /** The record of `id`, whoever owns it. */
  get(id: string): OrderRecord | undefined {
    return this.#byId.get(id.toLowerCase());
  }

  /** The record of `id` owned by `accountId`; 404 NOT_FOUND when unknown or another account's (no information leak). */
  owned(accountId: string, id: string): OrderRecord {
    const rec = typeof id === 'string' ? this.get(id) : undefined;
    if (!rec || rec.accountId !== accountId) throw notFound('NOT_FOUND', `order ${String(id)} not found`);
    return rec;
  }

  /** Move an order from the open to the closed list (its status is set by the caller). */
  markClosed(rec: OrderRecord): void {
    const acc = this.#account(rec.accountId);
    if (!acc.open.delete(rec.order.id)) throw new Error(`orders: ${rec.order.id} is not open`);
    rec.closeSeq = ++this.#closeSeq;
    acc.closed.push(rec);
    const now = this.#now();
    const k = dropCount(acc.closed, this.#retention, closedAt, now);
    if (k === 0) return;
    for (const old of acc.closed.splice(0, k)) {
      this.#byId.delete(old.order.id.toLowerCase());
      this.dropped.add(old.order.id, now);
    }
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
    for (let i = acc.closed.length - 1; i >= 0; i--) {
      const rec = acc.closed[i]!;
      if (!marketSymbol || rec.order.marketSymbol === marketSymbol) out.push(rec);
    }
    return out;
  }

  #account(accountId: string): AccountOrders {
    let acc = this.#accounts.get(accountId);
    if (!acc) this.#accounts.set(accountId, (acc = { open: new Map(), closed: [] }));
    return acc;
  }
}

function closedAt(rec: OrderRecord): number | undefined {
  return rec.order.closedAt?.getTime();
}
