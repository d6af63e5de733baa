/**
 * The in-flight order state machine (Hummingbot's in-flight orders, with an explicit AMBIGUOUS state).
 *
 * ```
 * PENDING_SUBMIT ──send──▶ SUBMITTED ──ack──▶ OPEN ──fill──▶ PARTIALLY_FILLED ──▶ CLOSED
 *       ▲                     │  │                │ cancel            │ cancel
 *       └──retry (same id)────┘  │                ▼                   ▼
 *                                │           CANCEL_PENDING ─────────▶ CLOSED
 *                 4xx ──▶ FAILED │
 *   timeout/5xx, retries spent ──▶ AMBIGUOUS ──found──▶ OPEN / PARTIALLY_FILLED / CLOSED
 *                                            └─not found after N lookups──▶ LOST
 * ```
 *
 * The exchange is the truth: an order state seen on the stream or in a REST answer moves the machine to the
 * state it implies from ANY non-closed state (a LOST or FAILED order that turns up is adopted, never placed
 * again). Updates are applied only when they are not older than what is known (fill quantity never goes back,
 * a closed order never reopens), because the stream and REST answers race each other.
 */
import { type Decimal, dgt, dlt, ZERO } from '../core/decimal.js';
import type { NewOrder, Order } from '../model/order.js';
import type { BracketLegs, OrderRole } from './journal-records.js';

/** States of an order the manager follows. */
export type InFlightState =
  | 'PENDING_SUBMIT'
  | 'SUBMITTED'
  | 'OPEN'
  | 'PARTIALLY_FILLED'
  | 'CANCEL_PENDING'
  | 'CLOSED'
  | 'FAILED'
  | 'AMBIGUOUS'
  | 'LOST';

/** Final states: nothing more will happen to the order. */
export const FINAL_STATES: ReadonlySet<InFlightState> = new Set(['CLOSED', 'FAILED', 'LOST']);

/** States in which the request may still be on its way (the exchange's view is unknown). */
export const UNACKNOWLEDGED_STATES: ReadonlySet<InFlightState> = new Set(['PENDING_SUBMIT', 'SUBMITTED', 'AMBIGUOUS']);

const TRANSITIONS: Record<InFlightState, readonly InFlightState[]> = {
  PENDING_SUBMIT: ['SUBMITTED', 'FAILED', 'AMBIGUOUS', 'OPEN', 'PARTIALLY_FILLED', 'CLOSED'],
  SUBMITTED: ['PENDING_SUBMIT', 'OPEN', 'PARTIALLY_FILLED', 'CLOSED', 'FAILED', 'AMBIGUOUS'],
  OPEN: ['PARTIALLY_FILLED', 'CANCEL_PENDING', 'CLOSED'],
  PARTIALLY_FILLED: ['CANCEL_PENDING', 'CLOSED'],
  CANCEL_PENDING: ['OPEN', 'PARTIALLY_FILLED', 'CLOSED'],
  AMBIGUOUS: ['PENDING_SUBMIT', 'OPEN', 'PARTIALLY_FILLED', 'CLOSED', 'LOST', 'FAILED'],
  // The exchange may prove a verdict wrong: a late request that did land is adopted.
  LOST: ['OPEN', 'PARTIALLY_FILLED', 'CLOSED'],
  FAILED: ['OPEN', 'PARTIALLY_FILLED', 'CLOSED'],
  CLOSED: [],
};

/** True when `from -> to` is a transition of the machine. */
export function canTransition(from: InFlightState, to: InFlightState): boolean {
  return TRANSITIONS[from].includes(to);
}

/** An illegal transition was attempted (a bug in the caller, never an exchange condition). */
export class InFlightTransitionError extends Error {
  constructor(clientOrderId: string, from: InFlightState, to: InFlightState) {
    super(`order ${clientOrderId}: illegal transition ${from} -> ${to}`);
    this.name = 'InFlightTransitionError';
  }
}

/**
 * One order the manager placed (or adopted) and follows until it is closed.
 *
 * @example
 * const o = new InFlightOrder({ clientOrderId, strategy: 'mm', intentKey: 'ladder', role: 'quote', request });
 * o.transition('SUBMITTED');
 * o.applyOrder(ackFromExchange);  // -> OPEN (or PARTIALLY_FILLED / CLOSED)
 */
export class InFlightOrder {
  readonly clientOrderId: string;
  readonly strategy: string;
  readonly intentKey: string;
  readonly role: OrderRole;
  /** The request as journaled and sent (absent for an order created by a conditional order). */
  readonly request: NewOrder | undefined;
  readonly marketSymbol: string;
  readonly direction: 'BUY' | 'SELL';
  /** Take-profit / stop-loss of a bracket entry. */
  readonly bracket: BracketLegs | undefined;
  /** When the intent was journaled (epoch ms): the earliest time the exchange can have seen it. */
  readonly createdAt: number;
  #state: InFlightState = 'PENDING_SUBMIT';
  #onStateChange: ((entry: InFlightOrder) => void) | undefined;
  /** The exchange's id, once known. */
  orderId: string | undefined;
  /** The latest exchange view of the order. */
  order: Order | undefined;
  /** Fill quantity accounted for by fill events (sum of distinct executions). */
  filledByExecutions: Decimal = ZERO;
  /** Execution ids already reported. */
  readonly executions = new Set<string>();
  /** A cancel was asked for before the exchange id was known: send it as soon as it is. */
  cancelRequested = false;
  /** Lookups made while AMBIGUOUS. */
  lookups = 0;
  /** The 'closed' event was emitted. */
  closedReported = false;
  /** The 'accepted' event was emitted and the ack journaled (or it was adopted with its journaled ack). */
  acceptedReported = false;

  constructor(init: {
    clientOrderId: string;
    strategy: string;
    intentKey: string;
    role: OrderRole;
    request?: NewOrder | undefined;
    marketSymbol?: string;
    direction?: 'BUY' | 'SELL';
    bracket?: BracketLegs | undefined;
    createdAt: number;
  }) {
    this.clientOrderId = init.clientOrderId;
    this.strategy = init.strategy;
    this.intentKey = init.intentKey;
    this.role = init.role;
    this.request = init.request;
    this.marketSymbol = init.marketSymbol ?? init.request?.marketSymbol ?? '';
    this.direction = init.direction ?? init.request?.direction ?? 'BUY';
    this.bracket = init.bracket;
    this.createdAt = init.createdAt;
  }

  /** Where the order is in the machine; only {@link InFlightOrder.transition} (and applyOrder) move it. */
  get state(): InFlightState {
    return this.#state;
  }

  /**
   * Be told after every state change (one listener: the registry that follows the entry keeps its index of
   * unacknowledged orders with it). Undefined stops it.
   */
  onStateChange(listener: ((entry: InFlightOrder) => void) | undefined): void {
    this.#onStateChange = listener;
  }

  /** No further change will happen. */
  get isFinal(): boolean {
    return FINAL_STATES.has(this.state);
  }

  /** The exchange has not confirmed the request yet. */
  get isUnacknowledged(): boolean {
    return UNACKNOWLEDGED_STATES.has(this.state);
  }

  /**
   * Nothing left to follow: final, and if closed, every fill reported. Until then the order stays among the live
   * entries of its key (a closed order whose fills are still on their way would otherwise let a target-position
   * intent plan on a stale position).
   */
  get isDone(): boolean {
    return this.isFinal && (this.state !== 'CLOSED' || this.closedReported);
  }

  /** Quantity still resting (request quantity minus fills), when known. */
  get remaining(): Decimal | undefined {
    const q = this.order?.quantity ?? this.request?.quantity;
    if (q === undefined) return undefined;
    const filled = this.order?.fillQuantity;
    // Unfilled (most orders, most of the time): the quantity itself, not an equal copy made by subtracting zero.
    return filled === undefined || filled.isZero() ? q : q.sub(filled);
  }

  /** Move to `to`; throws {@link InFlightTransitionError} when the machine has no such edge. */
  transition(to: InFlightState): void {
    if (this.#state === to) return;
    if (!canTransition(this.#state, to)) throw new InFlightTransitionError(this.clientOrderId, this.#state, to);
    this.#state = to;
    this.#onStateChange?.(this);
  }

  /**
   * Take the exchange's view of the order. Returns false (and changes nothing) when it is older than what is
   * known. A cancel in flight keeps CANCEL_PENDING until the order is seen closed.
   */
  applyOrder(order: Order): boolean {
    if (this.orderId !== undefined && order.id !== this.orderId) return false;
    const known = this.order;
    if (known) {
      if (known.status === 'CLOSED' && order.status === 'OPEN') return false;
      if (dlt(order.fillQuantity, known.fillQuantity)) return false;
    }
    if (this.state === 'CLOSED') return false;
    this.orderId = order.id;
    this.order = order;
    const next: InFlightState =
      order.status === 'CLOSED' ? 'CLOSED' : this.state === 'CANCEL_PENDING' ? 'CANCEL_PENDING' : dgt(order.fillQuantity, ZERO) ? 'PARTIALLY_FILLED' : 'OPEN';
    this.transition(next);
    return true;
  }
}
