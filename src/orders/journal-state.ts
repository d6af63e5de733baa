/**
 * What a journal says, folded per request: for every order and conditional order the bot ever accepted for
 * sending, who asked for it, the exact request, and how far it got (intent written, sent, acknowledged, closed,
 * rejected, lost); plus every journaled fill. Reconciliation starts from this after a restart.
 */
import type { Decimal } from '../core/decimal.js';
import type { NewConditionalOrder } from '../model/conditional-order.js';
import type { NewOrder } from '../model/order.js';
import type { BracketLegs, FillRecord, JournalRecord, OrderRole } from './journal-records.js';

/** How far a journaled request got. `intent` and `sent` mean the exchange's answer never made it to disk. */
export type JournaledStatus = 'intent' | 'sent' | 'acked' | 'rejected' | 'closed' | 'lost';

/** An order as the journal remembers it. */
export interface JournaledOrder {
  kind: 'order';
  clientOrderId: string;
  strategy: string;
  intentKey: string;
  role: OrderRole;
  request: NewOrder;
  bracket: BracketLegs | undefined;
  /** Set when it was part of a POST /batch. */
  batchId: string | undefined;
  /** When the intent record was written (epoch ms). */
  at: number;
  attempts: number;
  orderId: string | undefined;
  status: JournaledStatus;
  rejectCode: string | undefined;
  /** clientConditionalOrderIds of the bracket legs placed for this entry. */
  legs: string[];
  /** The bracket's legs were dealt with (see the `armed` record). */
  armed: boolean;
}

/** A conditional order as the journal remembers it. */
export interface JournaledConditional {
  kind: 'conditional';
  clientConditionalOrderId: string;
  strategy: string;
  intentKey: string;
  role: OrderRole;
  request: NewConditionalOrder;
  /** The bracket entry's clientOrderId, for bracket legs. */
  parent: string | undefined;
  at: number;
  attempts: number;
  /** The exchange's conditional order id. */
  id: string | undefined;
  /** The order it created when it triggered. */
  createdOrderId: string | undefined;
  status: JournaledStatus;
  rejectCode: string | undefined;
}

/** Either kind of journaled request. */
export type JournaledRequest = JournaledOrder | JournaledConditional;

/**
 * The journal folded by request id.
 *
 * @example
 * const state = JournalState.from(journal.replayed);
 * for (const r of state.unresolved()) await lookUp(r); // intent/sent/acked: the outcome must be checked
 */
export class JournalState {
  readonly orders = new Map<string, JournaledOrder>();
  readonly conditionals = new Map<string, JournaledConditional>();
  /** Journaled fills by execution id. */
  readonly fills = new Map<string, FillRecord>();
  /** The latest journaled fill by execution time (the point to fetch missed executions from). */
  lastFill: FillRecord | undefined;
  readonly #batches = new Map<string, string[]>();

  /** Fold `records` in order. */
  static from(records: Iterable<JournalRecord>): JournalState {
    const s = new JournalState();
    for (const r of records) s.apply(r);
    return s;
  }

  /** The request with this client id (order or conditional). */
  get(id: string): JournaledRequest | undefined {
    return this.orders.get(id) ?? this.conditionals.get(id);
  }

  /** Fold one record. Records about unknown ids (a compacted prefix) are ignored. */
  apply(r: JournalRecord): void {
    switch (r.t) {
      case 'order':
        this.orders.set(r.clientOrderId, newOrder(r.clientOrderId, r.strategy, r.intentKey, r.role, r.order, r.at, r.bracket, undefined));
        return;
      case 'batch': {
        for (const o of r.orders) {
          this.orders.set(o.clientOrderId, newOrder(o.clientOrderId, r.strategy, r.intentKey, 'quote', o.order, r.at, undefined, r.batchId));
        }
        this.#batches.set(r.batchId, r.orders.map((o) => o.clientOrderId));
        return;
      }
      case 'conditional': {
        this.conditionals.set(r.clientConditionalOrderId, {
          kind: 'conditional',
          clientConditionalOrderId: r.clientConditionalOrderId,
          strategy: r.strategy,
          intentKey: r.intentKey,
          role: r.role,
          request: r.order,
          parent: r.parent,
          at: r.at,
          attempts: 0,
          id: undefined,
          createdOrderId: undefined,
          status: 'intent',
          rejectCode: undefined,
        });
        if (r.parent !== undefined) this.orders.get(r.parent)?.legs.push(r.clientConditionalOrderId);
        return;
      }
      case 'sent': {
        for (const id of this.#batches.get(r.id) ?? [r.id]) {
          const e = this.get(id);
          if (!e) continue;
          e.attempts = Math.max(e.attempts, r.attempt);
          if (e.status === 'intent') e.status = 'sent';
        }
        return;
      }
      case 'ack': {
        const e = this.get(r.id);
        if (!e) return;
        if (e.kind === 'order') e.orderId = r.orderId;
        else e.id = r.orderId;
        if (e.status === 'intent' || e.status === 'sent' || e.status === 'lost') e.status = 'acked';
        return;
      }
      case 'rejected': {
        const e = this.get(r.id);
        if (!e) return;
        e.status = 'rejected';
        e.rejectCode = r.code;
        return;
      }
      case 'triggered': {
        const e = this.conditionals.get(r.id);
        if (e) e.createdOrderId = r.orderId;
        return;
      }
      case 'closed': {
        const e = this.get(r.id);
        if (e) e.status = 'closed';
        return;
      }
      case 'armed': {
        const e = this.orders.get(r.id);
        if (e) e.armed = true;
        return;
      }
      case 'lost': {
        const e = this.get(r.id);
        if (e && e.status !== 'closed' && e.status !== 'acked') e.status = 'lost';
        return;
      }
      case 'fill': {
        this.fills.set(r.executionId, r);
        if (!this.lastFill || r.executedAt.getTime() >= this.lastFill.executedAt.getTime()) this.lastFill = r;
        return;
      }
    }
  }

  /** Requests whose outcome is not known to be final: they must be looked up on the exchange. */
  unresolved(): JournaledRequest[] {
    const out: JournaledRequest[] = [];
    for (const e of this.orders.values()) if (isOpenStatus(e.status)) out.push(e);
    for (const e of this.conditionals.values()) if (isOpenStatus(e.status)) out.push(e);
    return out;
  }

  /** Sum of journaled fill quantities of the order with this client id. */
  filledQuantity(id: string, zero: Decimal): Decimal {
    let q = zero;
    for (const f of this.fills.values()) if (f.id === id) q = q.add(f.quantity);
    return q;
  }
}

function isOpenStatus(s: JournaledStatus): boolean {
  return s === 'intent' || s === 'sent' || s === 'acked';
}

function newOrder(
  clientOrderId: string,
  strategy: string,
  intentKey: string,
  role: OrderRole,
  request: NewOrder,
  at: number,
  bracket: BracketLegs | undefined,
  batchId: string | undefined,
): JournaledOrder {
  return {
    kind: 'order',
    clientOrderId,
    strategy,
    intentKey,
    role,
    request,
    bracket,
    batchId,
    at,
    attempts: 0,
    orderId: undefined,
    status: 'intent',
    rejectCode: undefined,
    legs: [],
    armed: false,
  };
}
