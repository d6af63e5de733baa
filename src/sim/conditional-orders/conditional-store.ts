/**
 * Where conditional orders live: by id, by account, the open ones per tracked market in placement order (the
 * order that decides which of two paired conditional orders triggered by the same trade wins), and the link from
 * an order on the book to the conditional order paired with it.
 *
 * Conditional orders are stored apart from orders and are not on the book (seed). Closed ones are kept, as the
 * service answered them from GET /conditional-orders/closed indefinitely.
 */
import type { TimerHandle } from '../../core/clock.js';
import type { ConditionalOrder } from '../../model/conditional-order.js';
import { notFound } from '../sim-error.js';
import type { Trigger } from './trigger.js';

/**
 * Lifecycle phase inside the engine (finer than the wire status, which stays OPEN until the action ran):
 * `watching` compares trades with the trigger; `pending` has fired and waits for the trigger delay; `running`
 * is executing its action (cancelling the pair, placing the order); `closed` is COMPLETED, CANCELLED or FAILED.
 */
export type Phase = 'watching' | 'pending' | 'running' | 'closed';

/** One conditional order and its engine state. `rec` is internal: callers get copies. */
export interface Entry {
  readonly accountId: string;
  readonly rec: ConditionalOrder;
  readonly trigger: Trigger;
  /** Placement rank, increasing. */
  readonly placed: number;
  phase: Phase;
  /** The delayed action while `pending`. */
  timer: TimerHandle | undefined;
}

/** Indexes over the conditional orders of every account. */
export class ConditionalStore {
  readonly #byId = new Map<string, Entry>();
  readonly #byAccount = new Map<string, Entry[]>();
  // Maps keep insertion order, which is placement order.
  readonly #openByMarket = new Map<string, Map<string, Entry>>();
  readonly #byPairedOrder = new Map<string, Entry>();

  /** Store a new (open) conditional order. */
  add(e: Entry): void {
    this.#byId.set(e.rec.id, e);
    let list = this.#byAccount.get(e.accountId);
    if (!list) this.#byAccount.set(e.accountId, (list = []));
    list.push(e);
    let open = this.#openByMarket.get(e.rec.marketSymbol);
    if (!open) this.#openByMarket.set(e.rec.marketSymbol, (open = new Map()));
    open.set(e.rec.id, e);
  }

  /** The entry with `id` (uuids compare case-insensitively), whoever owns it. */
  find(id: string): Entry | undefined {
    return this.#byId.get(id.toLowerCase());
  }

  /**
   * The entry with `id` owned by `accountId`. Unknown ids and other accounts' ids both answer 404 NOT_FOUND,
   * so an id reveals nothing about other accounts.
   */
  owned(accountId: string, id: string): Entry {
    const e = typeof id === 'string' ? this.find(id) : undefined;
    if (!e || e.accountId !== accountId) throw notFound('NOT_FOUND', `conditional order ${String(id)} does not exist`);
    return e;
  }

  /** Open entries tracking `marketSymbol`, in placement order (a snapshot, safe to mutate the store while iterating). */
  openOnMarket(marketSymbol: string): Entry[] {
    const open = this.#openByMarket.get(marketSymbol);
    return open ? [...open.values()] : [];
  }

  /** Whether any entry tracking `marketSymbol` is open (what {@link openOnMarket} would list, without the list). */
  anyOpenOnMarket(marketSymbol: string): boolean {
    const open = this.#openByMarket.get(marketSymbol);
    return open !== undefined && open.size > 0;
  }

  /** Take a closed entry out of the open index. */
  markClosed(e: Entry): void {
    this.#openByMarket.get(e.rec.marketSymbol)?.delete(e.rec.id);
  }

  /** Every entry of `accountId`, in placement order. */
  ofAccount(accountId: string): readonly Entry[] {
    return this.#byAccount.get(accountId) ?? [];
  }

  /** Remember that the order `orderId` (on the book) is paired with `e`. */
  linkOrder(orderId: string, e: Entry): void {
    this.#byPairedOrder.set(orderId.toLowerCase(), e);
  }

  /** The conditional order paired with the order `orderId`, if any. */
  pairedWithOrder(orderId: string): Entry | undefined {
    return this.#byPairedOrder.get(orderId.toLowerCase());
  }
}
