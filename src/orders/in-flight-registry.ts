/**
 * Every order and conditional order the manager follows, indexed by client id, exchange id and
 * (strategy, intent key). Live entries stay until final; finished ones are kept in a bounded recent list so a
 * late stream update (or a "lost" order that turns up after all) is still recognised as ours.
 */
import type { InFlightConditional } from './in-flight-conditional.js';
import type { InFlightOrder } from './in-flight.js';

/** Which live entries to list. */
export interface InFlightFilter {
  strategy?: string | undefined;
  intentKey?: string | undefined;
  marketSymbol?: string | undefined;
}

const keyOf = (strategy: string, intentKey: string): string => `${strategy}\u0000${intentKey}`;

/**
 * The manager's book of in-flight entries.
 *
 * @example
 * registry.addOrder(o);                 // PENDING_SUBMIT, found by clientOrderId
 * registry.linkOrderId(o, ack.id);      // now also by exchange id
 * registry.liveOrders({ strategy: 'mm', intentKey: 'ladder' });
 */
export class InFlightRegistry {
  readonly #orders = new Map<string, InFlightOrder>();
  readonly #ordersById = new Map<string, InFlightOrder>();
  readonly #conditionals = new Map<string, InFlightConditional>();
  readonly #conditionalsById = new Map<string, InFlightConditional>();
  readonly #liveByKey = new Map<string, Set<InFlightOrder | InFlightConditional>>();
  readonly #live = new Set<InFlightOrder>();
  /**
   * The live orders the exchange has not acknowledged (PENDING_SUBMIT, SUBMITTED, AMBIGUOUS), kept by every state
   * change of an added order, so risk's reservation walks these and not every live order. Those states come
   * only before any other (an order never returns to them), so this holds them in the order they were added —
   * the order of `#live` among them.
   */
  readonly #unacknowledged = new Set<InFlightOrder>();
  readonly #liveConditionals = new Set<InFlightConditional>();
  /**
   * The most recent finished entries, at most `#maxFinished`: a ring once full (`#oldest` is where the next one
   * goes and the oldest leaves), not a list cut by shift(), which copies the whole list whenever V8 cannot move
   * its start (while the old generation is being marked, often in a long backtest).
   */
  readonly #finished: (InFlightOrder | InFlightConditional)[] = [];
  #oldest = 0;
  readonly #maxFinished: number;

  constructor(options: { maxFinished?: number } = {}) {
    this.#maxFinished = options.maxFinished ?? 5000;
  }

  addOrder(o: InFlightOrder): void {
    this.#orders.set(o.clientOrderId, o);
    if (o.orderId !== undefined) this.#ordersById.set(o.orderId, o);
    this.#index(o);
    o.onStateChange((e) => this.#noteState(e));
    this.#noteState(o);
  }

  addConditional(c: InFlightConditional): void {
    this.#conditionals.set(c.clientConditionalOrderId, c);
    if (c.id !== undefined) this.#conditionalsById.set(c.id, c);
    this.#index(c);
  }

  /** Record the exchange id of an order. */
  linkOrderId(o: InFlightOrder, orderId: string): void {
    this.#ordersById.set(orderId, o);
  }

  /** Record the exchange id of a conditional order. */
  linkConditionalId(c: InFlightConditional, id: string): void {
    this.#conditionalsById.set(id, c);
  }

  order(clientOrderId: string): InFlightOrder | undefined {
    return this.#orders.get(clientOrderId);
  }

  orderById(orderId: string): InFlightOrder | undefined {
    return this.#ordersById.get(orderId);
  }

  conditional(clientConditionalOrderId: string): InFlightConditional | undefined {
    return this.#conditionals.get(clientConditionalOrderId);
  }

  conditionalById(id: string): InFlightConditional | undefined {
    return this.#conditionalsById.get(id);
  }

  /** Live orders matching `filter`. */
  liveOrders(filter: InFlightFilter = {}): InFlightOrder[] {
    const source = this.#source(filter, this.#live);
    const out: InFlightOrder[] = [];
    for (const e of source) if (!('clientConditionalOrderId' in e) && matches(e, filter)) out.push(e);
    return out;
  }

  /** Live conditional orders matching `filter`. */
  liveConditionals(filter: InFlightFilter = {}): InFlightConditional[] {
    const source = this.#source(filter, this.#liveConditionals);
    const out: InFlightConditional[] = [];
    for (const e of source) if ('clientConditionalOrderId' in e && matches(e, filter)) out.push(e);
    return out;
  }

  /** Number of live orders (conditional orders rest nothing on the book, so they are not counted). */
  get liveOrderCount(): number {
    return this.#live.size;
  }

  /** Every live order, for counting. */
  allLiveOrders(): ReadonlySet<InFlightOrder> {
    return this.#live;
  }

  /** Live orders the exchange has not acknowledged yet: what risk reserves funds for (see in-flight-reserve.ts). */
  unacknowledgedOrders(): ReadonlySet<InFlightOrder> {
    return this.#unacknowledged;
  }

  /** Conditional orders whose bracket entry is `clientOrderId`. */
  legsOf(clientOrderId: string): InFlightConditional[] {
    const out: InFlightConditional[] = [];
    for (const c of this.#conditionals.values()) if (c.parent === clientOrderId) out.push(c);
    return out;
  }

  /** Re-check an entry after a state change: a done one leaves the live indexes (kept among recent ones). */
  update(e: InFlightOrder | InFlightConditional): void {
    if (!e.isDone) return;
    const isConditional = 'clientConditionalOrderId' in e;
    const wasLive = isConditional ? this.#liveConditionals.delete(e) : this.#live.delete(e);
    if (!wasLive) return;
    this.#liveByKey.get(keyOf(e.strategy, e.intentKey))?.delete(e);
    this.#keepFinished(e);
  }

  /** Put an entry that left a final state (a late appearance) back among the live ones. */
  revive(e: InFlightOrder | InFlightConditional): void {
    if (e.isDone) return;
    this.#index(e);
  }

  /** Keep `e` among the recent finished entries; forget the oldest when that makes one too many. */
  #keepFinished(e: InFlightOrder | InFlightConditional): void {
    const ring = this.#finished;
    const max = this.#maxFinished;
    if (ring.length < max) {
      ring.push(e);
      return;
    }
    if (max <= 0) return this.#forget(e);
    const oldest = ring[this.#oldest]!;
    ring[this.#oldest] = e;
    this.#oldest = (this.#oldest + 1) % max;
    this.#forget(oldest);
  }

  #noteState(o: InFlightOrder): void {
    if (o.isUnacknowledged) this.#unacknowledged.add(o);
    else this.#unacknowledged.delete(o);
  }

  #index(e: InFlightOrder | InFlightConditional): void {
    if (e.isDone) return;
    if ('clientConditionalOrderId' in e) this.#liveConditionals.add(e);
    else this.#live.add(e);
    const k = keyOf(e.strategy, e.intentKey);
    let set = this.#liveByKey.get(k);
    if (!set) this.#liveByKey.set(k, (set = new Set()));
    set.add(e);
  }

  #source<T>(filter: InFlightFilter, all: ReadonlySet<T>): Iterable<T | InFlightOrder | InFlightConditional> {
    if (filter.strategy !== undefined && filter.intentKey !== undefined) return this.#liveByKey.get(keyOf(filter.strategy, filter.intentKey)) ?? [];
    return all;
  }

  #forget(e: InFlightOrder | InFlightConditional): void {
    // Only forget it if it is still done: a revived entry stays known.
    if (!e.isDone) return;
    if ('clientConditionalOrderId' in e) {
      if (this.#conditionals.get(e.clientConditionalOrderId) === e) this.#conditionals.delete(e.clientConditionalOrderId);
      if (e.id !== undefined && this.#conditionalsById.get(e.id) === e) this.#conditionalsById.delete(e.id);
    } else {
      if (this.#orders.get(e.clientOrderId) === e) this.#orders.delete(e.clientOrderId);
      if (e.orderId !== undefined && this.#ordersById.get(e.orderId) === e) this.#ordersById.delete(e.orderId);
    }
  }
}

function matches(e: InFlightOrder | InFlightConditional, f: InFlightFilter): boolean {
  return (
    !e.isDone &&
    (f.strategy === undefined || e.strategy === f.strategy) &&
    (f.intentKey === undefined || e.intentKey === f.intentKey) &&
    (f.marketSymbol === undefined || e.marketSymbol === f.marketSymbol)
  );
}
