/**
 * The order tracker: applies what the exchange says (REST answers, the account store's order, conditional-order
 * and execution changes) to the in-flight entries, and turns each consequence into journal records and
 * {@link OrderEvent}s — accepted once per order, fills exactly once per execution id (and into the portfolio),
 * closed once the order is closed AND all its fills were reported (so a strategy sees fills before the close).
 *
 * REST fallbacks: an order that vanished from an open-orders snapshot is fetched by id; an order that closed with
 * fills the stream has not delivered gets them from GET /executions after a grace period.
 */
import type { TimerHandle } from '../core/clock.js';
import { type Decimal, dgte, ZERO } from '../core/decimal.js';
import type { ConditionalOrder } from '../model/conditional-order.js';
import type { Execution, Order } from '../model/order.js';
import type { AccountEvent } from '../store/account-store.js';
import { FillPositions, fillEventOf } from './fill-tracker.js';
import { InFlightConditional } from './in-flight-conditional.js';
import { InFlightOrder } from './in-flight.js';
import type { FillRecord } from './journal-records.js';
import type { PositionSnapshot } from '../portfolio/position.js';
import type { OrderEvent } from './order-events.js';
import type { OrderTrackerDeps } from './order-tracker-deps.js';
import { ReplayedFills } from './replayed-fills.js';

export type { OrderTrackerDeps, TrackerHooks } from './order-tracker-deps.js';

/** Applies exchange state to in-flight entries (see the module note). */
export class OrderTracker {
  readonly #d: OrderTrackerDeps;
  readonly #fillTimers = new Map<InFlightOrder, TimerHandle>();
  /** Positions from reported fills, per strategy and market (used when no portfolio is given). */
  readonly #positions = new FillPositions();
  /** Journaled fills replayed at start. */
  readonly #replayed = new ReplayedFills();

  constructor(deps: OrderTrackerDeps) {
    this.#d = deps;
  }

  /** The strategy's position from the portfolio, or from the fills this tracker reported. */
  position(marketSymbol: string, strategy: string): Decimal {
    return this.#d.portfolio?.position(marketSymbol, strategy) ?? this.#positions.get(marketSymbol, strategy);
  }

  /** Mark an entry as already announced (adopted at reconciliation with its journaled ack). */
  markAccepted(e: InFlightOrder | InFlightConditional): void {
    e.acceptedReported = true;
  }

  // ---- exchange state --------------------------------------------------------------------------------------

  /** The exchange's view of one of our orders (REST answer or stream). */
  applyOrder(entry: InFlightOrder, order: Order): void {
    const { registry, journal, clock } = this.#d;
    if (!entry.applyOrder(order)) return;
    registry.linkOrderId(entry, order.id);
    registry.revive(entry);
    // A flag on the entry, not a WeakSet of entries: a lookup per order update, and ephemerons the GC must trace.
    if (!entry.acceptedReported) {
      entry.acceptedReported = true;
      journal.append({ t: 'ack', at: clock.now(), id: entry.clientOrderId, orderId: order.id });
      this.#emit({ type: 'accepted', strategy: entry.strategy, intentKey: entry.intentKey, clientOrderId: entry.clientOrderId, order, at: clock.now() });
    }
    // Executions that arrived before the order was linked to its id.
    const parked = this.#d.fills.takeParked(order.id);
    if (parked.length > 0) this.onExecutions(parked);
    if (entry.cancelRequested && (entry.state === 'OPEN' || entry.state === 'PARTIALLY_FILLED')) this.#d.hooks.cancelRequested(entry);
    if (entry.state === 'CLOSED') this.#onClosed(entry);
    registry.update(entry);
    this.#d.hooks.keyChanged(entry.strategy, entry.intentKey);
  }

  /** The exchange's view of one of our conditional orders. */
  applyConditional(c: InFlightConditional, cond: ConditionalOrder): void {
    const { registry, journal, clock } = this.#d;
    const changed = c.applyConditional(cond);
    const lateCreated = cond.createdOrderId !== undefined && !registry.orderById(cond.createdOrderId);
    if (!changed && !lateCreated) return;
    registry.linkConditionalId(c, cond.id);
    registry.revive(c);
    if (!c.acceptedReported) {
      c.acceptedReported = true;
      journal.append({ t: 'ack', at: clock.now(), id: c.clientConditionalOrderId, orderId: cond.id });
    }
    this.#emit({ type: 'conditional', strategy: c.strategy, intentKey: c.intentKey, conditionalOrder: cond, at: clock.now() });
    if (c.cancelRequested && c.state === 'OPEN') this.#d.hooks.cancelRequested(c);
    if (lateCreated) this.#followCreatedOrder(c, cond.createdOrderId!);
    else if (c.state === 'CLOSED' && cond.createdOrderId === undefined) journal.append({ t: 'closed', at: clock.now(), id: c.clientConditionalOrderId });
    registry.update(c);
    this.#d.hooks.keyChanged(c.strategy, c.intentKey);
  }

  /** Follow the order a conditional order created (its fills belong to the same strategy and key). */
  followCreatedOrder(c: InFlightConditional, orderId: string, known?: Order): InFlightOrder {
    return this.#followCreatedOrder(c, orderId, known);
  }

  #followCreatedOrder(c: InFlightConditional, orderId: string, known?: Order): InFlightOrder {
    const { registry, journal, clock, account } = this.#d;
    const request = c.request.orderToCreate;
    const entry = new InFlightOrder({
      clientOrderId: c.clientConditionalOrderId,
      strategy: c.strategy,
      intentKey: c.intentKey,
      role: c.role,
      marketSymbol: c.marketSymbol,
      direction: request?.direction ?? 'SELL',
      createdAt: c.createdAt,
    });
    this.restoreFills(entry);
    entry.transition('SUBMITTED');
    registry.addOrder(entry);
    registry.linkOrderId(entry, orderId);
    journal.append({ t: 'triggered', at: clock.now(), id: c.clientConditionalOrderId, orderId });
    const local = known ?? account.order(orderId);
    if (local) this.applyOrder(entry, local);
    else this.#d.track(this.#fetchOrder(entry, orderId));
    const parked = this.#d.fills.takeParked(orderId);
    if (parked.length > 0) this.onExecutions(parked);
    return entry;
  }

  async #fetchOrder(entry: InFlightOrder, orderId: string): Promise<void> {
    try {
      this.applyOrder(entry, await this.#d.gateway.order(orderId));
    } catch (e) {
      this.#d.log.warn({ err: e, orderId, clientOrderId: entry.clientOrderId }, 'order lookup failed; waiting for the stream');
    }
  }

  /** A change of the account store. */
  onAccountEvent(e: AccountEvent): void {
    const { registry } = this.#d;
    switch (e.kind) {
      case 'order':
        this.#onOrder(e.order);
        return;
      case 'orders-reset':
        for (const o of e.open) this.#onOrder(o);
        for (const o of e.vanished) {
          const entry = registry.orderById(o.id);
          // Closed while the stream was down: the snapshot no longer lists it, so ask for its final state.
          if (entry && !entry.isFinal) this.#d.track(this.#fetchOrder(entry, o.id));
        }
        return;
      case 'conditionalOrder':
        this.#onConditional(e.order);
        return;
      case 'conditional-orders-reset':
        for (const c of e.open) this.#onConditional(c);
        for (const c of e.vanished) {
          const entry = registry.conditionalById(c.id);
          if (entry && !entry.isFinal) this.#d.track(this.#fetchConditional(entry, c.id));
        }
        return;
      case 'executions':
        this.onExecutions(e.executions);
        return;
      default:
        return;
    }
  }

  #onOrder(order: Order): void {
    const { registry } = this.#d;
    const entry = registry.orderById(order.id) ?? (order.clientOrderId !== undefined ? registry.order(order.clientOrderId) : undefined);
    if (entry) this.applyOrder(entry, order);
  }

  #onConditional(cond: ConditionalOrder): void {
    const { registry } = this.#d;
    const c =
      registry.conditionalById(cond.id) ??
      (cond.clientConditionalOrderId !== undefined ? registry.conditional(cond.clientConditionalOrderId) : undefined);
    if (c) this.applyConditional(c, cond);
  }

  async #fetchConditional(c: InFlightConditional, id: string): Promise<void> {
    try {
      this.applyConditional(c, await this.#d.gateway.conditionalOrder(id));
    } catch (e) {
      this.#d.log.warn({ err: e, id }, 'conditional order lookup failed; waiting for the stream');
    }
  }

  // ---- fills -----------------------------------------------------------------------------------------------

  /** New executions (any source, any order, duplicates allowed). */
  onExecutions(list: readonly Execution[]): void {
    const { registry, fills } = this.#d;
    for (const ex of list) {
      if (fills.seen(ex.id)) continue;
      const entry = registry.orderById(ex.orderId);
      if (!entry) {
        fills.park(ex);
        continue;
      }
      this.#reportFill(entry, ex);
    }
  }

  #reportFill(entry: InFlightOrder, ex: Execution): void {
    const { fills, journal, clock, portfolio, log } = this.#d;
    fills.markSeen(ex.id);
    entry.executions.add(ex.id);
    entry.filledByExecutions = entry.filledByExecutions.add(ex.quantity);
    const record: FillRecord = {
      t: 'fill',
      at: clock.now(),
      id: entry.clientOrderId,
      orderId: ex.orderId,
      executionId: ex.id,
      marketSymbol: ex.marketSymbol,
      direction: entry.direction,
      quantity: ex.quantity,
      rate: ex.rate,
      commission: ex.commission,
      isTaker: ex.isTaker,
      executedAt: ex.executedAt,
    };
    journal.append(record);
    const fill = fillEventOf(entry.strategy, entry.intentKey, record);
    this.#positions.add(fill);
    try {
      portfolio?.onFill(fill);
    } catch (e) {
      log.error({ err: e, executionId: ex.id }, 'portfolio refused a fill');
    }
    this.#emit(fill);
    if (entry.state === 'CLOSED' && !entry.closedReported && this.#fillsComplete(entry)) this.#finish(entry);
  }

  /** Replay a journaled fill at start: dedupe only — no event, no position (see {@link OrderTracker.restorePositions}). */
  replayFill(record: FillRecord): void {
    const { fills } = this.#d;
    if (fills.seen(record.executionId)) return;
    fills.markSeen(record.executionId);
    this.#replayed.add(record);
  }

  /** Restore the positions the journal's fills (and compaction checkpoints) add up to, in the portfolio or our own. */
  restorePositions(snapshots: readonly PositionSnapshot[]): void {
    for (const s of snapshots) {
      this.#positions.set(s.marketSymbol, s.strategy, s.quantity);
      this.#d.portfolio?.restorePosition(s);
    }
  }

  /** Credit an entry re-created at start with the fills journaled for its client id. */
  restoreFills(entry: InFlightOrder): void {
    this.#replayed.restore(entry);
  }

  #fillsComplete(entry: InFlightOrder): boolean {
    return dgte(entry.filledByExecutions, entry.order?.fillQuantity ?? ZERO);
  }

  // ---- closing ---------------------------------------------------------------------------------------------

  #onClosed(entry: InFlightOrder): void {
    if (entry.closedReported) return;
    if (this.#fillsComplete(entry)) {
      this.#finish(entry);
      return;
    }
    if (this.#fillTimers.has(entry)) return;
    // The order says it filled more than the stream has told: give the stream a moment, then ask REST.
    const timer = this.#d.clock.setTimeout(() => {
      this.#fillTimers.delete(entry);
      this.#d.track(this.#fetchMissingFills(entry).finally(() => this.#finish(entry)));
    }, this.#d.policy.fillGraceMs);
    this.#fillTimers.set(entry, timer);
  }

  async #fetchMissingFills(entry: InFlightOrder): Promise<void> {
    if (entry.closedReported || this.#fillsComplete(entry)) return;
    const since = new Date(entry.createdAt - 60_000);
    try {
      let token: string | undefined;
      for (let page = 0; page < 10 && !this.#fillsComplete(entry); page++) {
        const items = await this.#d.gateway.executions({ marketSymbol: entry.marketSymbol, startDate: since, pageSize: 200, nextPageToken: token });
        this.onExecutions(items.filter((x) => x.orderId === entry.orderId));
        if (items.length < 200) break;
        token = items[items.length - 1]!.id;
      }
    } catch (e) {
      this.#d.log.warn({ err: e, clientOrderId: entry.clientOrderId }, 'fetching missed executions failed');
    }
    if (!this.#fillsComplete(entry)) {
      this.#d.log.warn(
        { clientOrderId: entry.clientOrderId, filled: entry.order?.fillQuantity.toFixed(), reported: entry.filledByExecutions.toFixed() },
        'order closed with fills that could not be found yet',
      );
    }
  }

  #finish(entry: InFlightOrder): void {
    if (entry.closedReported || entry.state !== 'CLOSED' || !entry.order) return;
    const { journal, clock, registry } = this.#d;
    this.#fillTimers.get(entry)?.cancel();
    this.#fillTimers.delete(entry);
    entry.closedReported = true;
    journal.append({ t: 'closed', at: clock.now(), id: entry.clientOrderId, filled: entry.order.fillQuantity });
    this.#emit({ type: 'closed', strategy: entry.strategy, intentKey: entry.intentKey, clientOrderId: entry.clientOrderId, order: entry.order, at: clock.now() });
    registry.update(entry);
    this.#d.hooks.finished(entry);
    this.#d.hooks.keyChanged(entry.strategy, entry.intentKey);
  }

  /** An entry's state changed outside an exchange update (a reverted cancel): deferred intents may run. */
  changed(e: InFlightOrder | InFlightConditional): void {
    this.#d.hooks.keyChanged(e.strategy, e.intentKey);
  }

  // ---- failures --------------------------------------------------------------------------------------------

  /** The exchange refused (or the request could not be sent): nothing was placed. */
  fail(e: InFlightOrder | InFlightConditional, code: string, message: string): void {
    if (!e.isUnacknowledged) return;
    const { journal, clock, registry } = this.#d;
    e.transition('FAILED');
    const id = idOf(e);
    journal.append({ t: 'rejected', at: clock.now(), id, code });
    this.#emit({ type: 'rejected', strategy: e.strategy, intentKey: e.intentKey, clientOrderId: id, ...placedOn(e), code, message, at: clock.now() });
    registry.update(e);
    if (e instanceof InFlightOrder) this.#d.hooks.finished(e);
    this.#d.hooks.keyChanged(e.strategy, e.intentKey);
  }

  /** Sent, outcome unknown: being resolved by lookups. */
  ambiguous(e: InFlightOrder | InFlightConditional): void {
    if (!e.isUnacknowledged || e.state === 'AMBIGUOUS') return;
    e.transition('AMBIGUOUS');
    this.#emit({ type: 'ambiguous', strategy: e.strategy, intentKey: e.intentKey, clientOrderId: idOf(e), at: this.#d.clock.now() });
  }

  /** Still not found after the lookups: declared lost (a late appearance is still adopted). */
  lost(e: InFlightOrder | InFlightConditional): void {
    if (e.state !== 'AMBIGUOUS') return;
    const { journal, clock, registry } = this.#d;
    e.transition('LOST');
    const id = idOf(e);
    journal.append({ t: 'lost', at: clock.now(), id });
    this.#emit({
      type: 'rejected',
      strategy: e.strategy,
      intentKey: e.intentKey,
      clientOrderId: id,
      ...placedOn(e),
      code: 'LOST',
      message: `${id}: sent, but not found on the exchange after ${e.lookups} lookups`,
      at: clock.now(),
    });
    registry.update(e);
    if (e instanceof InFlightOrder) this.#d.hooks.finished(e);
    this.#d.hooks.keyChanged(e.strategy, e.intentKey);
  }

  /** Stop timers. */
  close(): void {
    for (const t of this.#fillTimers.values()) t.cancel();
    this.#fillTimers.clear();
  }

  #emit(event: OrderEvent): void {
    this.#d.emit(event);
  }
}

/** The market and side a placement was for, as its rejected event names them (a conditional's side: its order's). */
function placedOn(e: InFlightOrder | InFlightConditional): { marketSymbol?: string; direction?: 'BUY' | 'SELL' } {
  if (e instanceof InFlightOrder) return e.marketSymbol === '' ? {} : { marketSymbol: e.marketSymbol, direction: e.direction };
  const direction = e.request.orderToCreate?.direction;
  return direction === undefined ? { marketSymbol: e.request.marketSymbol } : { marketSymbol: e.request.marketSymbol, direction };
}

/** The client id of an entry. */
export function idOf(e: InFlightOrder | InFlightConditional): string {
  return e instanceof InFlightConditional ? e.clientConditionalOrderId : e.clientOrderId;
}
