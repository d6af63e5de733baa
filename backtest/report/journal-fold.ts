/**
 * A journal's records folded into the orders and fills a report lists, with the cross-record checks of
 * journal-checks.ts on the way. Two passes: the first finds every request (order, batch, conditional order) and
 * where it is, so that the second can tell a record for an order placed later in the file (or never) from one in
 * its place, and the outcome of each order does not depend on the order of its records.
 *
 * What an order line says (the same definitions as a backtest's, see metrics.ts OrderCounts): orders and batch
 * placements from their records; a conditional order becomes an order when it triggers (its fills carry its
 * client id) or when the venue refused it; an order journaled `rejected` (or `lost`, and never found after) is
 * REJECTED; one `closed` is CLOSED when its fills reach its quantity and CANCELLED otherwise; the rest is OPEN.
 */
import { type Decimal, ZERO } from '../../src/core/decimal.js';
import type { NewConditionalOrder } from '../../src/model/conditional-order.js';
import type { NewOrder } from '../../src/model/order.js';
import { encodeRecord, type FillRecord, type JournalRecord } from '../../src/orders/journal-records.js';
import type { JournalDoubts } from './journal-checks.js';
import type { ReportFill, ReportOrder } from './report-input.js';

/** A request the journal placed: where, when, by whom, and what. */
interface Request {
  index: number;
  at: number;
  strategy: string;
  kind: 'order' | 'conditional' | 'batch';
  order?: NewOrder | undefined;
  conditional?: NewConditionalOrder | undefined;
}

/** What became of one request, as its records say. */
interface Fate {
  ackAfterLost: boolean;
  rejected?: { index: number; at: number; code: string } | undefined;
  lost?: { index: number; at: number } | undefined;
  closed?: { index: number; at: number; filled: Decimal | undefined } | undefined;
  triggered?: { at: number; orderId: string } | undefined;
  ack?: string | undefined;
  fills: FillRecord[];
  filled: Decimal;
}

/** The folded journal. */
export interface FoldedJournal {
  orders: ReportOrder[];
  fills: ReportFill[];
  strategies: string[];
  from: number;
  to: number;
  checkpoints: number;
  /** Orders that end REJECTED because they were declared lost. */
  lost: number;
  /** Fill records that repeat an execution already journaled, with the same figures. */
  repeatedFills: number;
}

const LIFECYCLE = new Set(['sent', 'ack', 'rejected', 'triggered', 'closed', 'lost', 'armed', 'fill']);

const article = (word: string): string => (/^[aeiou]/.test(word) ? 'an' : 'a');

const iso = (ms: number): string => (Number.isFinite(ms) && Math.abs(ms) < 8.64e15 ? new Date(ms).toISOString() : String(ms));

/** Every request of `records` by client id (batch ids too), the first of each; a different request under a used id is refused. */
function requests(records: readonly JournalRecord[], doubts: JournalDoubts): Map<string, Request> {
  const out = new Map<string, Request>();
  const add = (id: string, r: Request, field: string): void => {
    const known = out.get(id);
    if (!known) out.set(id, r);
    // A `.history` file, or a compaction's rewrite, repeats a request as it was: only another one is a conflict.
    // (Compared as text only then: keeping every request's text would cost a long run's report ~200 bytes an order.)
    else if (requestText(known) !== requestText(r)) doubts.refuse(r.index, field, `${id} names another request than the one journaled at line ${doubts.line(known.index)}`);
  };
  for (const [index, r] of records.entries()) {
    if (r.t === 'order') {
      doubts.checkOrder(index, 'order', r.order);
      add(r.clientOrderId, { index, at: r.at, strategy: r.strategy, kind: 'order', order: r.order }, 'clientOrderId');
    } else if (r.t === 'batch') {
      add(r.batchId, { index, at: r.at, strategy: r.strategy, kind: 'batch' }, 'batchId');
      for (const [i, o] of r.orders.entries()) {
        doubts.checkOrder(index, `orders[${i}].order`, o.order);
        add(o.clientOrderId, { index, at: r.at, strategy: r.strategy, kind: 'order', order: o.order }, `orders[${i}].clientOrderId`);
      }
    } else if (r.t === 'conditional') {
      const c = r.order;
      if (c.triggerPrice) doubts.checkDecimal(index, 'order.triggerPrice', c.triggerPrice, true);
      if (c.trailingStopPercent) doubts.checkDecimal(index, 'order.trailingStopPercent', c.trailingStopPercent, true);
      if (c.orderToCreate) doubts.checkOrder(index, 'order.orderToCreate', c.orderToCreate);
      add(r.clientConditionalOrderId, { index, at: r.at, strategy: r.strategy, kind: 'conditional', conditional: c }, 'clientConditionalOrderId');
    }
  }
  return out;
}

/** What two requests under one client id must agree on, as text: kind, strategy and the order (time and intent key aside). */
function requestText(q: Request): string {
  if (q.kind === 'batch') return 'batch';
  if (q.kind === 'conditional') return encodeRecord({ t: 'conditional', at: 0, clientConditionalOrderId: '', strategy: q.strategy, intentKey: '', role: 'order', order: q.conditional! });
  return encodeRecord({ t: 'order', at: 0, clientOrderId: '', strategy: q.strategy, intentKey: '', role: 'order', order: q.order! });
}

/** The order a request places: its own, or the one a conditional order creates. */
function placed(q: Request): NewOrder | undefined {
  return q.kind === 'order' ? q.order : q.conditional?.orderToCreate;
}

/**
 * Fold `records` (see the module note). Throws a JournalCorruptError for what journal-checks.ts refuses; notes the
 * rest in `doubts`.
 */
export function foldJournal(records: readonly JournalRecord[], doubts: JournalDoubts): FoldedJournal {
  const byId = requests(records, doubts);
  const fates = new Map<string, Fate>();
  const fate = (id: string): Fate => {
    let f = fates.get(id);
    if (!f) fates.set(id, (f = { ackAfterLost: false, fills: [], filled: ZERO }));
    return f;
  };
  const executions = new Map<string, { index: number; record: FillRecord }>();
  const seenRequests = new Set<string>();
  const last = { order: -Infinity, conditional: -Infinity, fill: -Infinity };
  const lastIndex = { order: -1, conditional: -1, fill: -1 };
  const inOrder = (seq: 'order' | 'conditional' | 'fill', index: number, at: number): void => {
    if (at < last[seq]) doubts.warn('records out of time order', index, 'at', `is ${iso(at)}, before line ${doubts.line(lastIndex[seq])}'s ${iso(last[seq])}: journal lines are written in time order`);
    else {
      last[seq] = at;
      lastIndex[seq] = index;
    }
  };
  let checkpoints = 0;
  let repeatedFills = 0;
  let from = Infinity;
  let to = -Infinity;

  for (const [index, r] of records.entries()) {
    from = Math.min(from, r.at);
    to = Math.max(to, r.at);
    if (r.t === 'checkpoint') checkpoints++;
    if (r.t === 'order' || r.t === 'conditional') {
      const id = r.t === 'order' ? r.clientOrderId : r.clientConditionalOrderId;
      if (!seenRequests.has(id)) inOrder(r.t, index, r.at);
      seenRequests.add(id);
    } else if (r.t === 'batch') {
      if (!seenRequests.has(r.batchId)) inOrder('order', index, r.at);
      seenRequests.add(r.batchId);
    }
    if (!LIFECYCLE.has(r.t)) continue;
    const id = (r as { id: string }).id;
    const q = byId.get(id);
    if (!q) {
      if (r.t === 'fill') doubts.warn('fills for orders never placed', index, 'id', `${id}: a fill for an order the journal never placed (an edited or partly lost file?): it is in the PnL, in no order count, with no strategy`);
      else doubts.warn('records for orders never placed', index, 'id', `${id}: ${article(r.t)} ${r.t} record for an order the journal never placed: ignored`);
    } else {
      if (q.index > index) doubts.warn('records before their order', index, 'id', `${id}: ${article(r.t)} ${r.t} record before its order is placed (line ${doubts.line(q.index)})`);
      else if (r.at < q.at) doubts.warn('records out of time order', index, 'at', `is ${iso(r.at)}, before its order was placed (${iso(q.at)}, line ${doubts.line(q.index)})`);
    }
    const f = fate(id);
    switch (r.t) {
      case 'ack':
        if (f.lost) f.ackAfterLost = true;
        f.ack = r.orderId;
        break;
      case 'rejected':
        f.rejected ??= { index, at: r.at, code: r.code };
        break;
      case 'lost':
        f.lost = { index, at: r.at };
        f.ackAfterLost = false;
        break;
      case 'triggered':
        f.triggered ??= { at: r.at, orderId: r.orderId };
        break;
      case 'closed': {
        if (r.filled !== undefined) doubts.checkDecimal(index, 'filled', r.filled, false);
        const quantity = q ? placed(q)?.quantity : undefined;
        if (r.filled !== undefined && quantity !== undefined && r.filled.gt(quantity)) doubts.refuse(index, 'filled', `says order ${id} filled ${r.filled.toFixed()}, more than its quantity ${quantity.toFixed()} (line ${doubts.line(q!.index)})`);
        f.closed ??= { index, at: r.at, filled: r.filled };
        break;
      }
      case 'fill': {
        doubts.checkDecimal(index, 'quantity', r.quantity, true);
        doubts.checkDecimal(index, 'rate', r.rate, true);
        doubts.checkDecimal(index, 'commission', r.commission, false);
        const seen = executions.get(r.executionId);
        if (seen) {
          const differs = fillDifference(seen.record, r);
          if (differs) doubts.refuse(index, differs, `differs from the same execution ${r.executionId} at line ${doubts.line(seen.index)}`);
          repeatedFills++;
          break;
        }
        executions.set(r.executionId, { index, record: r });
        inOrder('fill', index, r.at);
        from = Math.min(from, r.executedAt.getTime());
        to = Math.max(to, r.executedAt.getTime());
        const o = q ? placed(q) : undefined;
        if (o && r.marketSymbol !== o.marketSymbol) doubts.refuse(index, 'marketSymbol', `is ${r.marketSymbol}, but order ${id} is on ${o.marketSymbol} (line ${doubts.line(q!.index)})`);
        if (o && r.direction !== o.direction) doubts.refuse(index, 'direction', `is ${r.direction}, but order ${id} is a ${o.direction} (line ${doubts.line(q!.index)})`);
        f.fills.push(r);
        f.filled = f.filled.plus(r.quantity);
        if (o?.quantity !== undefined && f.filled.gt(o.quantity)) {
          doubts.refuse(index, 'quantity', `brings order ${id}'s fills to ${f.filled.toFixed()}, more than its quantity ${o.quantity.toFixed()} (line ${doubts.line(q!.index)})`);
        }
        break;
      }
      default:
        break;
    }
  }

  const orders: ReportOrder[] = [];
  let lost = 0;
  for (const [id, q] of byId) {
    if (q.kind === 'batch') continue;
    const f = fates.get(id) ?? { ackAfterLost: false, fills: [], filled: ZERO };
    const traded = f.filled.gt(0);
    const o = placed(q);
    if (!o) continue;
    let createdAt = q.at;
    let exchangeId = f.ack;
    if (q.kind === 'conditional') {
      // A conditional order is an order once it created one (or the venue refused it), not before.
      if (f.triggered) {
        createdAt = f.triggered.at;
        exchangeId = f.triggered.orderId;
      } else if (traded) {
        doubts.warn('fills of a conditional order that never triggered', records.indexOf(f.fills[0]!), 'id', `${id}: fills of a conditional order with no triggered record: counted as the order it created`);
        exchangeId = f.fills[0]!.orderId;
      } else if (!f.rejected && !f.lost) continue;
      else exchangeId = undefined;
    }
    if (f.rejected && traded) {
      doubts.warn('fills of rejected orders', f.rejected.index, 'id', `${id}: journaled rejected (${f.rejected.code}), but ${f.fills.length} fill(s) of it are journaled: counted as placed and traded, not rejected`);
    }
    if (f.closed?.filled !== undefined && f.closed.filled.gt(f.filled)) {
      doubts.warn('orders missing fills', f.closed.index, 'filled', `says order ${id} filled ${f.closed.filled.toFixed()}, but the journal holds fills for ${f.filled.toFixed()}: the PnL leaves out the other ${f.closed.filled.minus(f.filled).toFixed()}`);
    }
    const line = orderLine(id, q, o, createdAt, exchangeId, f);
    if (line.rejectCode === 'LOST') lost++;
    orders.push(line);
  }
  orders.sort((a, b) => a.createdAt - b.createdAt);

  const fills: ReportFill[] = [];
  for (const { record: r } of executions.values()) {
    fills.push({
      at: r.executedAt.getTime(),
      marketSymbol: r.marketSymbol,
      orderId: r.orderId,
      clientOrderId: r.id,
      strategy: byId.get(r.id)?.strategy,
      direction: r.direction,
      quantity: r.quantity.toString(),
      rate: r.rate.toString(),
      commission: r.commission.toString(),
      isTaker: r.isTaker,
    });
  }
  fills.sort((a, b) => a.at - b.at);
  if (!Number.isFinite(from)) from = to = 0;
  const strategies = [...new Set([...byId.values()].map((q) => q.strategy))].sort();
  return { orders, fills, strategies, from, to, checkpoints, lost, repeatedFills };
}

/** The report line of one order from its request and fate (outcome rules in the module note). */
function orderLine(id: string, q: Request, o: NewOrder, createdAt: number, exchangeId: string | undefined, f: Fate): ReportOrder {
  let proceeds = ZERO;
  let commission = ZERO;
  for (const x of f.fills) {
    proceeds = proceeds.plus(x.quantity.times(x.rate));
    commission = commission.plus(x.commission);
  }
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
    proceeds: proceeds.toString(),
    commission: commission.toString(),
  };
}

/** The first field in which two journaled fills of one execution differ (its journal time aside), or undefined. */
function fillDifference(a: FillRecord, b: FillRecord): string | undefined {
  if (a.id !== b.id) return 'id';
  if (a.orderId !== b.orderId) return 'orderId';
  if (a.marketSymbol !== b.marketSymbol) return 'marketSymbol';
  if (a.direction !== b.direction) return 'direction';
  if (!a.quantity.eq(b.quantity)) return 'quantity';
  if (!a.rate.eq(b.rate)) return 'rate';
  if (!a.commission.eq(b.commission)) return 'commission';
  if (a.isTaker !== b.isTaker) return 'isTaker';
  if (a.executedAt.getTime() !== b.executedAt.getTime()) return 'executedAt';
  return undefined;
}

