/**
 * A request a journal placed (an order, a batch, a conditional order), what became of it as its records say, and
 * the report line the two make (journal-fold.ts folds a journal into these). Outcome rules: an order journaled
 * `rejected` (or `lost`, and never found after) with nothing filled is REJECTED; one `closed` is CLOSED when its
 * fills reach its quantity and CANCELLED otherwise; the rest is OPEN.
 */
import { type Decimal, ZERO } from '../../src/core/decimal.js';
import type { NewConditionalOrder } from '../../src/model/conditional-order.js';
import type { NewOrder } from '../../src/model/order.js';
import { encodeRecord } from '../../src/orders/journal-records.js';
import type { ReportOrder } from './report-input.js';

/** A request the journal placed: where, when, by whom, and what. */
export interface Request {
  /** File line of its (first) record. */
  line: number;
  /** Its place among the requests, in file order (ranks the doubts found once the file is read). */
  seq: number;
  at: number;
  strategy: string;
  kind: 'order' | 'conditional' | 'batch';
  order?: NewOrder | undefined;
  conditional?: NewConditionalOrder | undefined;
}

/** What became of one request, as its records say. */
export interface Fate {
  ackAfterLost: boolean;
  rejected?: { line: number; at: number; code: string } | undefined;
  lost?: { line: number; at: number } | undefined;
  closed?: { line: number; at: number; filled: Decimal | undefined } | undefined;
  triggered?: { at: number; orderId: string } | undefined;
  ack?: string | undefined;
  /** Its first fill's line and exchange order id, and how many fills. */
  firstFill?: { line: number; orderId: string } | undefined;
  fills: number;
  filled: Decimal;
  /** Sum of quantity × rate, and of commission, over its fills. */
  proceeds: Decimal;
  commission: Decimal;
}

/** The fate of a request no record has told anything of yet. */
export function newFate(): Fate {
  return { ackAfterLost: false, fills: 0, filled: ZERO, proceeds: ZERO, commission: ZERO };
}

/** What two requests under one client id must agree on, as text: kind, strategy and the order (time and intent key aside). */
export function requestText(q: Request): string {
  if (q.kind === 'batch') return 'batch';
  if (q.kind === 'conditional') return encodeRecord({ t: 'conditional', at: 0, clientConditionalOrderId: '', strategy: q.strategy, intentKey: '', role: 'order', order: q.conditional! });
  return encodeRecord({ t: 'order', at: 0, clientOrderId: '', strategy: q.strategy, intentKey: '', role: 'order', order: q.order! });
}

/** The order a request places: its own, or the one a conditional order creates. */
export function placed(q: Request): NewOrder | undefined {
  return q.kind === 'order' ? q.order : q.conditional?.orderToCreate;
}

/** The report line of one order from its request and fate (outcome rules in the module note). */
export function orderLine(id: string, q: Request, o: NewOrder, createdAt: number, exchangeId: string | undefined, f: Fate): ReportOrder {
  const traded = f.filled.gt(0);
  let outcome: ReportOrder['outcome'] = 'OPEN';
  let rejectCode: string | undefined;
  let closedAt: number | undefined;
  if (f.rejected && !traded) {
    outcome = 'REJECTED';
    rejectCode = f.rejected.code;
    closedAt = f.rejected.at;
  } else if (f.lost && !f.ackAfterLost && !traded) {
    outcome = 'REJECTED';
    rejectCode = 'LOST';
    closedAt = f.lost.at;
  } else if (f.closed) {
    closedAt = f.closed.at;
    // Closed with less than asked for is a cancellation (possibly after part fills), as on the exchange.
    outcome = (o.quantity === undefined ? traded : f.filled.gte(o.quantity)) ? 'CLOSED' : 'CANCELLED';
  }
  return {
    clientOrderId: id,
    id: outcome === 'REJECTED' ? undefined : exchangeId,
    strategy: q.strategy,
    marketSymbol: o.marketSymbol,
    direction: o.direction,
    type: o.type,
    quantity: o.quantity?.toString(),
    limit: o.limit?.toString(),
    ceiling: o.ceiling?.toString(),
    timeInForce: o.timeInForce,
    createdAt,
    closedAt,
    outcome,
    rejectCode,
    fillQuantity: f.filled.toString(),
    proceeds: f.proceeds.toString(),
    commission: f.commission.toString(),
  };
}
