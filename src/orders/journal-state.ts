/**
 * What a journal says, folded per request: for every order and conditional order the bot ever accepted for
 * sending, who asked for it, the exact request, and how far it got (intent written, sent, acknowledged, closed,
 * rejected, lost); plus every journaled fill and the positions they add up to. Reconciliation starts from this
 * after a restart, and compaction (journal-compaction.ts) writes it back as the few records that rebuild it.
 */
import { type Decimal, ZERO } from '../core/decimal.js';
import type { NewConditionalOrder } from '../model/conditional-order.js';
import type { NewOrder } from '../model/order.js';
import { quoteOf } from '../portfolio/portfolio.js';
import { Position, type PositionSnapshot } from '../portfolio/position.js';
import type { BracketLegs, FillRecord, JournalRecord, LimitsRecord, OrderRole } from './journal-records.js';

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
  /** Fill quantity the `closed` record gave (undefined: not closed, or a journal from before the field). */
  closedFilled: Decimal | undefined;
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
  /** Fill quantity of the order it created, as its `closed` record gave it. */
  closedFilled: Decimal | undefined;
}

/** Either kind of journaled request. */
export type JournaledRequest = JournaledOrder | JournaledConditional;

/**
 * The journal folded by request id.
 *
 * @example
 * const state = JournalState.from(readJournal('var/mm-1.journal').records);
 * for (const r of state.unresolved()) await lookUp(r); // intent/sent/acked: the outcome must be checked
 */
export class JournalState {
  readonly orders = new Map<string, JournaledOrder>();
  readonly conditionals = new Map<string, JournaledConditional>();
  /** Journaled fills by execution id. */
  readonly fills = new Map<string, FillRecord>();
  /** The latest journaled fill by execution time (the point to fetch missed executions from). */
  lastFill: { executionId: string; executedAt: Date } | undefined;
  /** The newest limits record (equity curve and risk limit state): what a restart carries the limits on from. */
  limits: LimitsRecord | undefined;
  readonly #batches = new Map<string, string[]>();
  readonly #filledById = new Map<string, Decimal>();
  /**
   * Positions per strategy and market, folded exactly as the portfolio folds the replayed fills (same Position,
   * same order, same dedupe by execution id, invalid fills skipped as the portfolio refuses them), so a restart
   * can restore them even when a compaction has dropped the fills.
   */
  readonly #positions = new Map<string, Position>();

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
          closedFilled: undefined,
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
        if (!e) return;
        e.status = 'closed';
        e.closedFilled = r.filled;
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
        if (!this.fills.has(r.executionId)) {
          this.#filledById.set(r.id, (this.#filledById.get(r.id) ?? ZERO).add(r.quantity));
          this.#applyToPosition(r);
        }
        this.fills.set(r.executionId, r);
        this.#noteLastFill(r);
        return;
      }
      case 'limits':
        this.limits = r;
        return;
      case 'checkpoint': {
        this.#positions.clear();
        for (const p of r.positions) this.#positions.set(positionKey(p.strategy, p.marketSymbol), Position.restore(p, quoteOf(p.marketSymbol)));
        if (r.lastFill) this.#noteLastFill(r.lastFill);
        return;
      }
    }
  }

  /** Exact snapshots of every position the journal's fills (and checkpoints) add up to, first filled first. */
  positions(): PositionSnapshot[] {
    return [...this.#positions.values()].map((p) => p.snapshot());
  }

  #applyToPosition(f: FillRecord): void {
    // Quantity and rate are positive and commission non-negative: the record decoder refuses anything else.
    const strategy = this.get(f.id)?.strategy ?? '';
    const key = positionKey(strategy, f.marketSymbol);
    let p = this.#positions.get(key);
    if (!p) {
      p = new Position(strategy, f.marketSymbol, quoteOf(f.marketSymbol));
      this.#positions.set(key, p);
    }
    p.apply(f.direction, f.quantity, f.rate, f.commission);
  }

  #noteLastFill(f: { executionId: string; executedAt: Date }): void {
    if (!this.lastFill || f.executedAt.getTime() >= this.lastFill.executedAt.getTime()) this.lastFill = { executionId: f.executionId, executedAt: f.executedAt };
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
    return this.#filledById.get(id) ?? zero;
  }
}

function positionKey(strategy: string, marketSymbol: string): string {
  return `${strategy}|${marketSymbol}`;
}

/** Whether a journaled status still needs a lookup on the exchange (intent written, sent or acknowledged). */
export function isOpenStatus(s: JournaledStatus): boolean {
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
    closedFilled: undefined,
    legs: [],
    armed: false,
  };
}
