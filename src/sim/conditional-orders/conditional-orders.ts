/**
 * Conditional orders (stop, stop-limit, trailing stop, take-profit, one-cancels-the-other) of the simulated
 * exchange: POST/GET/DELETE /conditional-orders, the open and closed lists, triggering on trades, and the
 * `conditionalOrder` stream (per-account sequence shared with HEAD /conditional-orders/open).
 *
 * Behaviour, from the seed's "Conditional order rules" and transition table, with the simulator's choices:
 * - A trigger is compared with each trade on the tracked market, trades after placement only (a trigger already
 *   met when the order is placed fires on the next trade). LTE fires at or below, GTE at or above. A trailing
 *   trigger floats `trailingStopPercent` below the highest (LTE) or above the lowest (GTE) trade price seen since
 *   placement, the market's last trade price at placement included; `triggerPrice` always reports its current
 *   value (seed: "the interface itself returns current values") and every move is published.
 * - `operand` is taken as given; with trailingStopPercent it may be left out and is "set automatically" (seed) from
 *   orderToCreate: a SELL trails below (LTE), a BUY above (GTE) — see decodeNewConditionalOrder (model).
 * - Once the condition is met the action runs `config.conditionalTriggerDelayMs` later (seed: "a small delay
 *   after the trade"); the order stays OPEN meanwhile. The action first cancels the paired item (an order on the
 *   book through the order port, freeing its funds; a paired conditional order becomes CANCELLED), then places
 *   `orderToCreate`: COMPLETED with createdOrderId on success, FAILED with orderCreationErrorCode = the refusal's
 *   code otherwise (balance was never reserved). Without orderToCreate the order just COMPLETES.
 * - Of two paired conditional orders whose conditions are met by the same trade, the first placed triggers and
 *   the other is cancelled by its action; a conditional order never triggers while its partner's action is
 *   pending.
 * - When a paired order on the book executes (first fill), the engine calls {@link ConditionalOrders.onOrderExecuted}
 *   and the conditional order is CANCELLED.
 * - Pairing (orderToCancel) is reciprocal and links exactly two items, one of which is a conditional order —
 *   always true here, since only a conditional order can name a partner (a NewOrder has no orderToCancel). A
 *   paired order on the book is told through {@link OrderPort.linkOrderToCancel}, so it shows the link back.
 * - DELETE cancels only the addressed conditional order; its partner stays open and stays paired (seed: the
 *   pairing "cannot be broken except by cancelling and replacing both"), so the partner can never be paired again.
 *
 * Refusals where the seed names no code (request-only rules: see validate-new-conditional.ts):
 * - unknown id or another account's: 404 NOT_FOUND (get, cancel, orderToCancel target of type CONDITIONAL_ORDER;
 *   an ORDER target answers whatever the order port's getOrder answers for an unknown order);
 * - cancelling a conditional order that is not OPEN: 409 CONDITIONAL_ORDER_NOT_OPEN;
 * - orderToCancel target not open: 409 CONDITIONAL_ORDER_NOT_OPEN / ORDER_NOT_OPEN (as cancelling it would);
 * - orderToCancel target already paired (no more than two may be linked): 409 NOT_ALLOWED;
 * - clientConditionalOrderId repeated within 24 h: 409 CLIENTCONDITIONALORDERID_ALREADY_EXISTS with
 *   `data.existingConditionalOrderId`.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import type { Decimal } from '../../core/decimal.js';
import type { ConditionalOrder, NewConditionalOrder } from '../../model/conditional-order.js';
import type { ConditionalOrderStatus } from '../../model/enums.js';
import type { Trade } from '../../model/market.js';
import type { NewOrder, Order, OrderToCancel } from '../../model/order.js';
import type { Catalog } from '../catalog.js';
import type { SimConfig } from '../config.js';
import type { SimEventBus } from '../events.js';
import type { IdempotencyIndex } from '../idempotency.js';
import { type PageQuery, listPage, validatePageQuery } from '../paginate.js';
import { type SequenceCounters, seqKey } from '../sequences.js';
import { SimError, conflict } from '../sim-error.js';
import { ConditionalStore, type Entry } from './conditional-store.js';
import { Trigger } from './trigger.js';
import { validateNewConditional, validateOrderShape } from './validate-new-conditional.js';

/**
 * What conditional orders need from the order lifecycle (TRADING implements it on the book). Every method throws
 * the SimError the corresponding REST call would answer.
 */
export interface OrderPort {
  /** Place an order for `accountId` (POST /orders semantics). */
  placeOrder(accountId: string, o: NewOrder): Order;
  /** Cancel an open order of `accountId` (DELETE /orders/{id} semantics). */
  cancelOrder(accountId: string, id: string): Order;
  /** An order of `accountId` (GET /orders/{id} semantics: 404 for unknown or another account's). */
  getOrder(accountId: string, id: string): Order;
  /** Set (or clear) the order's `orderToCancel`, so the Order shows the reciprocal link to its conditional order. */
  linkOrderToCancel(accountId: string, orderId: string, link: OrderToCancel | undefined): void;
  /**
   * Optional: throw what placeOrder would throw for reasons that do not depend on balances or the book (types,
   * timeInForce, amounts, market status...). When absent, the simulator's own request-only checks are used.
   */
  validateOrder?(accountId: string, o: NewOrder): void;
}

/** What {@link ConditionalOrders} needs from the engine. */
export interface ConditionalOrdersDeps {
  clock: Clock;
  bus: SimEventBus;
  sequences: SequenceCounters;
  idempotency: IdempotencyIndex;
  catalog: Catalog;
  orders: OrderPort;
  config: SimConfig;
}

/** Query of GET /conditional-orders/closed (dates apply to closedAt). */
export interface ClosedConditionalQuery extends PageQuery {
  marketSymbol?: string | undefined;
}

/**
 * The conditional-order book of every account.
 *
 * @example
 * const co = new ConditionalOrders({ clock, bus, sequences, idempotency, catalog, orders, config });
 * const stop = co.create(acct, { marketSymbol: 'BTC-USD', operand: 'LTE', triggerPrice: dec('30000'),
 *   orderToCreate: { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'MARKET', quantity: dec('0.1'), timeInForce: 'IMMEDIATE_OR_CANCEL' } });
 * // a trade at or below 30000, then conditionalTriggerDelayMs later: stop is COMPLETED with createdOrderId
 */
export class ConditionalOrders {
  readonly #d: ConditionalOrdersDeps;
  readonly #store = new ConditionalStore();
  readonly #lastRate = new Map<string, Decimal>();
  /** The market name {@link onTrades} was last given, and the catalog's symbol for it. */
  #tradesName: string | undefined;
  #tradesSymbol = '';
  #placed = 0;

  constructor(deps: ConditionalOrdersDeps) {
    this.#d = deps;
  }

  /** POST /conditional-orders (201). All checks happen before any change; see the module note for the codes. */
  create(accountId: string, n: NewConditionalOrder): ConditionalOrder {
    const { catalog, orders, idempotency, clock } = this.#d;
    const market = validateNewConditional(catalog, n, (o) =>
      orders.validateOrder ? orders.validateOrder(accountId, o) : validateOrderShape(catalog, o),
    );
    const key = n.clientConditionalOrderId === undefined ? undefined : idemKey(n.clientConditionalOrderId);
    const existing = key === undefined ? undefined : idempotency.find(accountId, key);
    if (existing !== undefined) {
      throw conflict('CLIENTCONDITIONALORDERID_ALREADY_EXISTS', `clientConditionalOrderId ${n.clientConditionalOrderId} was used`, {
        existingConditionalOrderId: existing,
      });
    }
    const target = n.orderToCancel ? this.#pairTarget(accountId, n.orderToCancel) : undefined;

    const id = randomUUID();
    const now = new Date(clock.now());
    // The only call that may still refuse: do it before anything changes here.
    if (target?.kind === 'order') orders.linkOrderToCancel(accountId, target.id, { type: 'CONDITIONAL_ORDER', id });

    const trigger =
      n.trailingStopPercent !== undefined
        ? Trigger.trailing(n.operand, n.trailingStopPercent, this.#lastRate.get(market.symbol))
        : Trigger.fixed(n.operand, n.triggerPrice!);
    const rec: ConditionalOrder = { id, marketSymbol: market.symbol, operand: n.operand, status: 'OPEN', createdAt: now, updatedAt: now };
    if (trigger.price !== undefined) rec.triggerPrice = trigger.price;
    if (n.trailingStopPercent !== undefined) rec.trailingStopPercent = n.trailingStopPercent;
    if (n.orderToCreate) rec.orderToCreate = { ...n.orderToCreate, marketSymbol: catalog.market(n.orderToCreate.marketSymbol).symbol };
    if (target) rec.orderToCancel = { type: target.kind === 'order' ? 'ORDER' : 'CONDITIONAL_ORDER', id: target.id };
    if (n.clientConditionalOrderId !== undefined) rec.clientConditionalOrderId = n.clientConditionalOrderId;
    const entry: Entry = { accountId, rec, trigger, placed: ++this.#placed, phase: 'watching', timer: undefined };

    this.#store.add(entry);
    if (target?.kind === 'order') this.#store.linkOrder(target.id, entry);
    if (target?.kind === 'conditional') {
      target.entry.rec.orderToCancel = { type: 'CONDITIONAL_ORDER', id };
      target.entry.rec.updatedAt = now;
    }
    if (key !== undefined) idempotency.remember(accountId, key, id);
    this.#publish(entry);
    if (target?.kind === 'conditional') this.#publish(target.entry);
    return copy(rec);
  }

  /** GET /conditional-orders/{id}: 404 NOT_FOUND when unknown or another account's. */
  get(accountId: string, id: string): ConditionalOrder {
    return copy(this.#store.owned(accountId, id).rec);
  }

  /** DELETE /conditional-orders/{id}: OPEN -> CANCELLED with closedAt; 409 CONDITIONAL_ORDER_NOT_OPEN otherwise. */
  cancel(accountId: string, id: string): ConditionalOrder {
    const e = this.#store.owned(accountId, id);
    if (e.rec.status !== 'OPEN' || e.phase === 'running') {
      throw conflict('CONDITIONAL_ORDER_NOT_OPEN', `conditional order ${e.rec.id} is ${e.rec.status}`);
    }
    this.#close(e, 'CANCELLED');
    return copy(e.rec);
  }

  /** GET /conditional-orders/open (newest first) with the Sequence of the account's conditionalOrder stream. */
  listOpen(accountId: string, marketSymbol?: string): { data: ConditionalOrder[]; sequence: number } {
    const market = marketSymbol === undefined ? undefined : this.#d.catalog.market(marketSymbol).symbol;
    const data = this.#store
      .ofAccount(accountId)
      .filter((e) => e.rec.status === 'OPEN' && (market === undefined || e.rec.marketSymbol === market))
      .sort(newestFirst)
      .map((e) => copy(e.rec));
    return { data, sequence: this.openSequence(accountId) };
  }

  /** HEAD /conditional-orders/open: the account's conditionalOrder stream sequence. */
  openSequence(accountId: string): number {
    return this.#d.sequences.current(seqKey.account('conditionalOrder', accountId));
  }

  /** GET /conditional-orders/closed: by closedAt descending, market filter, pagination and dates on closedAt. */
  listClosed(accountId: string, q: ClosedConditionalQuery = {}): ConditionalOrder[] {
    validatePageQuery(q);
    const market = q.marketSymbol === undefined ? undefined : this.#d.catalog.market(q.marketSymbol).symbol;
    const closed = this.#store
      .ofAccount(accountId)
      .filter((e) => e.rec.closedAt !== undefined && (market === undefined || e.rec.marketSymbol === market))
      .sort((a, b) => b.rec.closedAt!.getTime() - a.rec.closedAt!.getTime() || b.placed - a.placed);
    return listPage(closed, { idOf: (e) => e.rec.id, dateOf: (e) => e.rec.closedAt }, q).map((e) => copy(e.rec));
  }

  /**
   * Trades happened on `marketSymbol` (called by the engine after recording them). Moves trailing triggers and
   * schedules the action of every conditional order whose condition a trade met, in placement order.
   */
  onTrades(marketSymbol: string, trades: readonly Trade[]): void {
    if (trades.length === 0) return;
    // The catalog's lookup upper-cases its argument (a new string per call): the last answer is kept for the same name.
    let symbol = this.#tradesSymbol;
    if (marketSymbol !== this.#tradesName) {
      symbol = this.#d.catalog.market(marketSymbol).symbol;
      this.#tradesName = marketSymbol;
      this.#tradesSymbol = symbol;
    }
    if (!this.#store.anyOpenOnMarket(symbol)) {
      // Nothing watches this market (the usual case, on every recorded trade of a backtest): only the last rate is
      // remembered, as the loop below would leave it, without a snapshot of the open ones and a set of modified.
      this.#lastRate.set(symbol, trades[trades.length - 1]!.rate);
      return;
    }
    const modified = new Set<Entry>();
    // Nothing closes while trades are observed (actions run later, through the clock), so one snapshot serves.
    const open = this.#store.openOnMarket(symbol);
    for (const t of trades) {
      this.#lastRate.set(symbol, t.rate);
      for (const e of open) {
        if (e.phase !== 'watching') continue;
        const { fired, moved } = e.trigger.observe(t.rate);
        if (moved) {
          e.rec.triggerPrice = e.trigger.price!;
          e.rec.updatedAt = new Date(this.#d.clock.now());
          modified.add(e);
        }
        if (fired && !this.#partnerTriggered(e)) this.#fire(e);
      }
    }
    for (const e of modified) this.#publish(e);
  }

  /** An order got its first fill: the conditional order paired with it (if any, and still open) is cancelled. */
  onOrderExecuted(accountId: string, orderId: string): void {
    const e = this.#store.pairedWithOrder(orderId);
    if (!e || e.accountId !== accountId) return;
    if (e.rec.status === 'OPEN' && e.phase !== 'running') this.#close(e, 'CANCELLED');
  }

  /** Resolve and check an orderToCancel target (it must exist, belong to the account, be open and unpaired). */
  #pairTarget(accountId: string, link: OrderToCancel): { kind: 'order'; id: string } | { kind: 'conditional'; id: string; entry: Entry } {
    if (link.type === 'CONDITIONAL_ORDER') {
      const entry = this.#store.owned(accountId, link.id);
      if (entry.rec.status !== 'OPEN') throw conflict('CONDITIONAL_ORDER_NOT_OPEN', `conditional order ${entry.rec.id} is ${entry.rec.status}`);
      if (entry.rec.orderToCancel) throw alreadyPaired(entry.rec.id);
      return { kind: 'conditional', id: entry.rec.id, entry };
    }
    const order = this.#d.orders.getOrder(accountId, link.id);
    if (order.status !== 'OPEN') throw conflict('ORDER_NOT_OPEN', `order ${order.id} is ${order.status}`);
    if (order.orderToCancel || this.#store.pairedWithOrder(order.id)) throw alreadyPaired(order.id);
    return { kind: 'order', id: order.id };
  }

  /** True when `e`'s paired conditional order has already triggered (it wins; `e` will be cancelled by it). */
  #partnerTriggered(e: Entry): boolean {
    const link = e.rec.orderToCancel;
    if (link?.type !== 'CONDITIONAL_ORDER') return false;
    const p = this.#store.find(link.id);
    return p !== undefined && (p.phase === 'pending' || p.phase === 'running');
  }

  #fire(e: Entry): void {
    e.phase = 'pending';
    // Always through the clock, even with a zero delay: the engine calls onTrades in the middle of a match, and
    // placing an order from there would re-enter the matcher.
    e.timer = this.#d.clock.setTimeout(() => this.#act(e), this.#d.config.conditionalTriggerDelayMs);
  }

  /** The delayed action: cancel the paired item first (frees funds), then place orderToCreate. */
  #act(e: Entry): void {
    e.timer = undefined;
    if (e.phase !== 'pending') return;
    e.phase = 'running';
    const link = e.rec.orderToCancel;
    if (link?.type === 'CONDITIONAL_ORDER') {
      const p = this.#store.find(link.id);
      if (p && p.rec.status === 'OPEN' && p.phase !== 'running') this.#close(p, 'CANCELLED');
    } else if (link?.type === 'ORDER') {
      try {
        this.#d.orders.cancelOrder(e.accountId, link.id);
      } catch {
        // Already closed (filled, cancelled by the user): nothing to free, and nothing to report on this order.
      }
    }
    if (!e.rec.orderToCreate) {
      this.#close(e, 'COMPLETED');
      return;
    }
    try {
      const placed = this.#d.orders.placeOrder(e.accountId, { ...e.rec.orderToCreate });
      e.rec.createdOrderId = placed.id;
      this.#close(e, 'COMPLETED');
    } catch (err) {
      // Any refusal is the order's outcome, never an engine failure; a non-SimError is an engine bug, reported
      // with the service's internal-error code rather than escaping from a timer.
      e.rec.orderCreationErrorCode = err instanceof SimError ? err.code : 'ORDER_ERROR_CONTACT_SUPPORT';
      this.#close(e, 'FAILED');
    }
  }

  #close(e: Entry, status: Exclude<ConditionalOrderStatus, 'OPEN'>): void {
    e.timer?.cancel();
    e.timer = undefined;
    e.phase = 'closed';
    const now = new Date(this.#d.clock.now());
    e.rec.status = status;
    e.rec.closedAt = now;
    e.rec.updatedAt = now;
    this.#store.markClosed(e);
    this.#publish(e);
  }

  #publish(e: Entry): void {
    const sequence = this.#d.sequences.next(seqKey.account('conditionalOrder', e.accountId));
    this.#d.bus.emit({ kind: 'conditionalOrder', accountId: e.accountId, sequence, delta: copy(e.rec) });
  }
}

// The idempotency index is shared by every kind of client key of an account; a prefix keeps a
// clientConditionalOrderId from ever colliding with the same uuid used as a clientOrderId.
function idemKey(clientConditionalOrderId: string): string {
  return `conditional:${clientConditionalOrderId.toLowerCase()}`;
}

function alreadyPaired(id: string): SimError {
  return conflict('NOT_ALLOWED', `${id} is already paired; no more than two orders may be linked`);
}

function newestFirst(a: Entry, b: Entry): number {
  return b.rec.createdAt.getTime() - a.rec.createdAt.getTime() || b.placed - a.placed;
}

/** A caller's copy: the stored record keeps changing, what was answered must not. */
function copy(r: ConditionalOrder): ConditionalOrder {
  const c: ConditionalOrder = { ...r, createdAt: new Date(r.createdAt) };
  if (r.updatedAt) c.updatedAt = new Date(r.updatedAt);
  if (r.closedAt) c.closedAt = new Date(r.closedAt);
  if (r.orderToCreate) c.orderToCreate = { ...r.orderToCreate };
  if (r.orderToCancel) c.orderToCancel = { ...r.orderToCancel };
  return c;
}
