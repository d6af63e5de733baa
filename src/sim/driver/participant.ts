/**
 * A driver's trading account: an ordinary engine account (no special case anywhere in the engine) that knows its
 * open orders, funds itself with completed deposits when it runs short, and turns the engine's
 * refusals into counted outcomes instead of exceptions — a timer callback must never throw.
 *
 * Open orders are tracked from the engine's own `order` events (full order state after every change), so a
 * participant learns about fills caused by other accounts without polling.
 */
import type { Decimal } from '../../core/decimal.js';
import type { NewOrder, Order } from '../../model/order.js';
import type { SimEvent } from '../events.js';
import type { PlaceOptions } from '../trading.js';
import { SimError } from '../sim-error.js';
import type { DriverEngine } from './driver-engine.js';
import { type DriverStats, countRejection } from './driver-stats.js';

/** Money an order needs available: the currency it reserves and an estimate of the amount. */
export interface FundingNeed {
  currency: string;
  amount: Decimal;
}

/** Engine codes that mean "the order or its target is already gone": expected races, not failures. */
const ALREADY_GONE = new Set(['ORDER_NOT_OPEN', 'NOT_FOUND']);

/**
 * @example
 * const p = pool.create('maker BTC-USD #0');
 * p.fund('USD', dec('100000'));
 * const order = p.place({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED',
 *   quantity: dec('0.01'), limit: dec('29990') }, { currency: 'USD', amount: dec('300') });
 * p.openOrders.size; // 1 while it rests
 */
export class Participant {
  readonly accountId: string;
  /** Human-readable role, for logs and stats. */
  readonly label: string;
  readonly #engine: DriverEngine;
  readonly #stats: DriverStats;
  readonly #open = new Map<string, Order>();

  constructor(engine: DriverEngine, accountId: string, label: string, stats: DriverStats) {
    this.#engine = engine;
    this.accountId = accountId;
    this.label = label;
    this.#stats = stats;
  }

  /** Orders of this participant still open, by id (latest state seen). */
  get openOrders(): ReadonlyMap<string, Order> {
    return this.#open;
  }

  /** Credit `amount` of `currency` as a completed deposit (money entering the exchange, counted by the audit). */
  fund(currency: string, amount: Decimal): void {
    if (!amount.isPositive() || amount.isZero()) return;
    this.#engine.fund(this.accountId, currency, amount);
    this.#stats.credits++;
  }

  /** Top up so that at least `amount` of `currency` is available. */
  ensureAvailable(currency: string, amount: Decimal): void {
    const available = this.#engine.ledger.get(this.accountId, currency).available;
    if (available.lt(amount)) this.fund(currency, amount.minus(available));
  }

  /**
   * Place an order. With `need`, that much is made available first, and one INSUFFICIENT_FUNDS refusal (the
   * estimate was short, e.g. a market order walking a thin book) is answered by a larger top-up and one retry.
   * Refusals are counted and give `undefined`; anything else (a bug) is rethrown for the timer boundary.
   * `opts` goes to the engine (`recordedLiquidity` for replayed levels).
   */
  place(order: NewOrder, need?: FundingNeed, opts?: PlaceOptions): Order | undefined {
    if (need) this.ensureAvailable(need.currency, need.amount);
    for (let attempt = 0; ; attempt++) {
      try {
        const placed = this.#engine.placeOrder(this.accountId, order, opts);
        this.#stats.placed++;
        // The returned state is final for this call; events emitted during it came before it.
        if (placed.status === 'OPEN') this.#open.set(placed.id, placed);
        return placed;
      } catch (err) {
        if (!(err instanceof SimError)) throw err;
        if (err.code === 'INSUFFICIENT_FUNDS' && need && attempt === 0) {
          // Available already covered the estimate, so the estimate was short: add twice as much again.
          this.fund(need.currency, need.amount.times(2));
          continue;
        }
        countRejection(this.#stats, err.code);
        return undefined;
      }
    }
  }

  /** The current state of one of this participant's orders (read from the engine, so also inside a transaction). */
  order(orderId: string): Order {
    return this.#engine.getOrder(this.accountId, orderId);
  }

  /** Cancel one of this participant's orders. False when it was no longer open (filled meanwhile). */
  cancel(orderId: string): boolean {
    if (!this.#open.has(orderId)) return false;
    try {
      this.#engine.cancelOrder(this.accountId, orderId);
      this.#stats.cancelled++;
      return true;
    } catch (err) {
      if (!(err instanceof SimError)) throw err;
      if (!ALREADY_GONE.has(err.code)) countRejection(this.#stats, err.code);
      return false;
    } finally {
      this.#open.delete(orderId);
    }
  }

  /** Cancel every open order (of one market, when given). Returns how many were cancelled. */
  cancelAll(marketSymbol?: string): number {
    let n = 0;
    for (const [id, o] of [...this.#open]) {
      if (marketSymbol === undefined || o.marketSymbol === marketSymbol) n += this.cancel(id) ? 1 : 0;
    }
    return n;
  }

  /** Apply an `order` event of this account (called by {@link ParticipantPool}). */
  onOrder(order: Order): void {
    if (this.#open.has(order.id)) {
      if (order.status === 'OPEN') this.#open.set(order.id, order);
      else this.#open.delete(order.id);
    }
  }
}

/**
 * The participants of one driver, with the single bus subscription that routes `order` events to them.
 *
 * @example
 * const pool = new ParticipantPool(engine, stats);
 * const maker = pool.create('maker BTC-USD #0');
 * pool.dispose(); // on stop
 */
export class ParticipantPool {
  readonly #engine: DriverEngine;
  readonly #stats: DriverStats;
  readonly #byAccount = new Map<string, Participant>();
  #unsubscribe: (() => void) | undefined;

  constructor(engine: DriverEngine, stats: DriverStats) {
    this.#engine = engine;
    this.#stats = stats;
    this.#unsubscribe = engine.bus.on((e: SimEvent) => {
      if (e.kind === 'order') this.#byAccount.get(e.accountId)?.onOrder(e.delta);
    });
  }

  /** Open a new master account and wrap it. */
  create(label: string): Participant {
    const accountId = this.#engine.createParticipant();
    const p = new Participant(this.#engine, accountId, label, this.#stats);
    this.#byAccount.set(accountId, p);
    return p;
  }

  /** Every participant, in creation order. */
  all(): Participant[] {
    return [...this.#byAccount.values()];
  }

  /** Stop listening to the bus. */
  dispose(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }
}
