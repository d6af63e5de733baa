/**
 * What a compacted journal keeps: the fewest records that make a restart behave exactly as the whole journal
 * would. A restart needs (see journal-resume.ts and reconcile.ts):
 *
 * - every request whose outcome is not known to be final (intent written, sent, acknowledged — which covers
 *   ambiguous requests, open orders, trailing stops and bracket legs still live): reconciliation looks each up;
 * - a closed order whose `closed` record says it filled more than its journaled fills: kept with its fills, so
 *   the missing executions stay "ours" and can still be recovered;
 * - a bracket entry that a restart would still arm (filled or live, not `armed`, fewer than two legs, none of
 *   them finished), with every one of its legs — dropping a finished leg would make it look unarmed;
 * - the fills of everything kept (execution de-duplication and per-order fill quantities);
 * - the positions every fill adds up to and the newest fill (reconciliation pages executions from it): one
 *   `checkpoint` record, written after the kept fills because replaying it replaces the positions folded so far;
 * - the newest `limits` record (day-open equity, peaks, trading restriction), as it was.
 *
 * Everything else is a finished request — closed with its fills journaled, rejected, or lost (sent, never found:
 * nothing was placed) — and goes. Intent keys need nothing of their own: the journal never stopped a key from
 * being used again (a `place` under a live key replaces its order; one-off keys are unique by construction in
 * the strategies), and what stops a REQUEST from being sent twice is its clientOrderId, which is kept for as long
 * as the request is unresolved. Once it is settled, a new intent always gets a new clientOrderId.
 */
import { ZERO } from '../core/decimal.js';
import type { JournalRecord } from './journal-records.js';
import { isOpenStatus, type JournaledConditional, type JournaledOrder, type JournalState } from './journal-state.js';

/**
 * The records of a compacted journal for `state` (the fold of the whole journal), in an order whose replay
 * folds back to the same state for every kept request, the same fills of them, the same positions and last fill.
 *
 * @example
 * const records = compactRecords(journal.state, clock.now());
 */
export function compactRecords(state: JournalState, at: number): JournalRecord[] {
  const keepOrders = new Set<string>();
  const keepConditionals = new Set<string>();
  for (const o of state.orders.values()) {
    if (!needed(state, o)) continue;
    keepOrders.add(o.clientOrderId);
    // An entry that may still be armed: its legs, finished or not, decide whether and what to arm.
    if (o.bracket && !o.armed) for (const l of o.legs) keepConditionals.add(l);
  }
  for (const c of state.conditionals.values()) if (needed(state, c)) keepConditionals.add(c.clientConditionalOrderId);

  const out: JournalRecord[] = [];
  // Requests first (orders before conditional orders: a leg's record adds it to its entry's legs), then what
  // became of them, then their fills, then the checkpoint.
  const batches = new Map<string, JournaledOrder[]>();
  for (const id of keepOrders) {
    const o = state.orders.get(id)!;
    if (o.batchId === undefined) {
      out.push({ t: 'order', at: o.at, clientOrderId: o.clientOrderId, strategy: o.strategy, intentKey: o.intentKey, role: o.role, order: o.request, bracket: o.bracket });
      continue;
    }
    // Members of one POST /batch stay one batch record (its cancels are history: nothing to look up).
    let members = batches.get(o.batchId);
    if (!members) {
      members = [];
      batches.set(o.batchId, members);
      out.push({ t: 'batch', at: o.at, batchId: o.batchId, strategy: o.strategy, intentKey: o.intentKey, orders: [], cancels: [] });
    }
    members.push(o);
  }
  for (const r of out) {
    if (r.t === 'batch') r.orders = batches.get(r.batchId)!.map((o) => ({ clientOrderId: o.clientOrderId, order: o.request }));
  }
  for (const id of keepConditionals) {
    const c = state.conditionals.get(id)!;
    out.push({ t: 'conditional', at: c.at, clientConditionalOrderId: id, strategy: c.strategy, intentKey: c.intentKey, role: c.role, order: c.request, parent: c.parent });
  }
  for (const id of keepOrders) outcome(out, state.orders.get(id)!);
  for (const id of keepConditionals) outcome(out, state.conditionals.get(id)!);
  for (const f of state.fills.values()) if (keepOrders.has(f.id) || keepConditionals.has(f.id)) out.push(f);
  const positions = state.positions();
  if (positions.length > 0 || state.lastFill) out.push({ t: 'checkpoint', at, positions, lastFill: state.lastFill });
  if (state.limits) out.push(state.limits);
  return out;
}

/** Whether a restart still needs this request (see the module note). */
function needed(state: JournalState, r: JournaledOrder | JournaledConditional): boolean {
  if (isOpenStatus(r.status)) return true;
  const id = r.kind === 'order' ? r.clientOrderId : r.clientConditionalOrderId;
  if (r.status === 'closed' && r.closedFilled !== undefined && state.filledQuantity(id, ZERO).lt(r.closedFilled)) return true;
  return r.kind === 'order' && mayStillArm(state, r);
}

/** The condition under which reconcile.ts's bracketsToResume arms an entry, short of the exchange's answer. */
function mayStillArm(state: JournalState, o: JournaledOrder): boolean {
  if (!o.bracket || o.armed || o.legs.length >= 2) return false;
  const legs = o.legs.map((id) => state.conditionals.get(id));
  if (legs.some((l) => !l || l.status === 'closed' || l.status === 'rejected' || l.status === 'lost')) return false;
  return o.status === 'closed' && state.filledQuantity(o.clientOrderId, ZERO).gt(0);
}

/** The records that fold a fresh request record back to `r`'s state. */
function outcome(out: JournalRecord[], r: JournaledOrder | JournaledConditional): void {
  const id = r.kind === 'order' ? r.clientOrderId : r.clientConditionalOrderId;
  const at = r.at;
  if (r.attempts > 0) out.push({ t: 'sent', at, id, attempt: r.attempts });
  const exchangeId = r.kind === 'order' ? r.orderId : r.id;
  if (exchangeId !== undefined) out.push({ t: 'ack', at, id, orderId: exchangeId });
  if (r.kind === 'conditional' && r.createdOrderId !== undefined) out.push({ t: 'triggered', at, id, orderId: r.createdOrderId });
  if (r.status === 'rejected') out.push({ t: 'rejected', at, id, code: r.rejectCode ?? 'UNKNOWN' });
  else if (r.status === 'lost') out.push({ t: 'lost', at, id });
  else if (r.status === 'closed') out.push({ t: 'closed', at, id, filled: r.closedFilled });
  if (r.kind === 'order' && r.armed) out.push({ t: 'armed', at, id });
}
