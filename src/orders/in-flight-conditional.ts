/**
 * A conditional order the manager placed (bracket legs, trailing stops) and follows: the same states and
 * transitions as {@link InFlightOrder} without partial fills — a conditional order is OPEN until it is
 * COMPLETED, CANCELLED or FAILED on the exchange (all CLOSED here). The order it creates when it triggers is
 * followed as an ordinary {@link InFlightOrder} (its fills belong to the same strategy and intent).
 */
import type { ConditionalOrder, NewConditionalOrder } from '../model/conditional-order.js';
import { canTransition, FINAL_STATES, InFlightTransitionError, UNACKNOWLEDGED_STATES, type InFlightState } from './in-flight.js';
import type { OrderRole } from './journal-records.js';

/**
 * One conditional order in flight.
 *
 * @example
 * const c = new InFlightConditional({ clientConditionalOrderId, strategy, intentKey, role: 'trailingStop', request, createdAt });
 * c.transition('SUBMITTED');
 * c.applyConditional(answer); // OPEN; later COMPLETED with createdOrderId -> CLOSED
 */
export class InFlightConditional {
  readonly clientConditionalOrderId: string;
  readonly strategy: string;
  readonly intentKey: string;
  readonly role: OrderRole;
  readonly request: NewConditionalOrder;
  /** clientOrderId of the bracket entry this leg protects. */
  readonly parent: string | undefined;
  readonly createdAt: number;
  state: InFlightState = 'PENDING_SUBMIT';
  /** The exchange's id, once known. */
  id: string | undefined;
  /** The latest exchange view. */
  conditional: ConditionalOrder | undefined;
  cancelRequested = false;
  lookups = 0;
  /** The ack was journaled (or it was adopted with its journaled ack). */
  acceptedReported = false;

  constructor(init: {
    clientConditionalOrderId: string;
    strategy: string;
    intentKey: string;
    role: OrderRole;
    request: NewConditionalOrder;
    parent?: string | undefined;
    createdAt: number;
  }) {
    this.clientConditionalOrderId = init.clientConditionalOrderId;
    this.strategy = init.strategy;
    this.intentKey = init.intentKey;
    this.role = init.role;
    this.request = init.request;
    this.parent = init.parent;
    this.createdAt = init.createdAt;
  }

  get marketSymbol(): string {
    return this.request.marketSymbol;
  }

  get isFinal(): boolean {
    return FINAL_STATES.has(this.state);
  }

  /** Nothing left to follow (the order it created, if any, is followed separately). */
  get isDone(): boolean {
    return this.isFinal;
  }

  get isUnacknowledged(): boolean {
    return UNACKNOWLEDGED_STATES.has(this.state);
  }

  /** Move to `to`; throws {@link InFlightTransitionError} when the machine has no such edge. */
  transition(to: InFlightState): void {
    if (this.state === to) return;
    if (!canTransition(this.state, to) || to === 'PARTIALLY_FILLED') {
      throw new InFlightTransitionError(this.clientConditionalOrderId, this.state, to);
    }
    this.state = to;
  }

  /** Take the exchange's view; false when it is stale (a closed conditional order never reopens) or a repeat. */
  applyConditional(c: ConditionalOrder): boolean {
    if (this.id !== undefined && c.id !== this.id) return false;
    if (this.conditional && this.conditional.status !== 'OPEN' && c.status === 'OPEN') return false;
    if (this.state === 'CLOSED') {
      // Still record late details (createdOrderId) of a closed one.
      if (c.status !== 'OPEN') this.conditional = c;
      return false;
    }
    if (this.conditional && sameState(this.conditional, c)) return false;
    this.id = c.id;
    this.conditional = c;
    this.transition(c.status !== 'OPEN' ? 'CLOSED' : this.state === 'CANCEL_PENDING' ? 'CANCEL_PENDING' : 'OPEN');
    return true;
  }
}

/** Same status, trigger, created order and update time: a repeat (REST answer and stream both told). */
function sameState(a: ConditionalOrder, b: ConditionalOrder): boolean {
  return (
    a.status === b.status &&
    a.createdOrderId === b.createdOrderId &&
    a.updatedAt?.getTime() === b.updatedAt?.getTime() &&
    (a.triggerPrice === undefined ? b.triggerPrice === undefined : b.triggerPrice !== undefined && a.triggerPrice.eq(b.triggerPrice))
  );
}
