/**
 * A journal's records folded into the orders and fills a report lists, with the cross-record checks of
 * journal-checks.ts on the way, one record at a time as the file is read ({@link JournalFold}): what is held is
 * the report's own orders and fills and what each order's outcome needs, never the records (a long run's journal
 * is mostly send retries, acknowledgements and limits records, which the report needs only as they pass).
 *
 * A record for an order not yet placed in the file is kept aside until the order comes (then it is folded as if
 * it had come after it, with a warning), or the end (then it is for an order never placed); a bot never writes
 * one, so little is ever kept aside. What comes of it is what reading the whole file first would give: the outcome
 * of each order does not depend on the order of its records, and the warnings are listed in file order.
 *
 * What an order line says (the same definitions as a backtest's, see metrics.ts OrderCounts): orders and batch
 * placements from their records; a conditional order becomes an order when it triggers (its fills carry its
 * client id) or when the venue refused it; its outcome as journal-order-line.ts decides.
 */
import type { FillRecord, JournalRecord } from '../../src/orders/journal-records.js';
import type { JournalDoubts } from './journal-checks.js';
import { type Fate, newFate, orderLine, placed, type Request, requestText } from './journal-order-line.js';
import type { ReportFill, ReportOrder } from './report-input.js';

/** A lifecycle record for an order not (yet) placed in the file, kept aside. */
interface Aside {
  record: LifecycleRecord;
  line: number;
  /** A fill repeating an execution already journaled (counted once, folded into no order). */
  repeated: boolean;
}

type LifecycleRecord = Extract<JournalRecord, { t: 'sent' | 'ack' | 'rejected' | 'triggered' | 'closed' | 'lost' | 'armed' | 'fill' }>;

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

/**
 * Ranks of the doubts (JournalDoubts): a record's own doubts by its line — first what it says about its order
 * (`RELATION`), then a fill's place in time (`FILL_TIME`) — and after every line's, each order's doubts found once
 * the whole file is read, in the order the orders were placed.
 */
const RELATION = 0;
const FILL_TIME = 1;
const AT_END = 2 ** 51;
const rankOf = (line: number, slot: number): number => line * 2 + slot;
const endRank = (q: Request, slot: number): number => AT_END + q.seq * 4 + slot;

/**
 * A journal folded one record at a time (see the module note): {@link add} each record with its file line, in file
 * order, then {@link finish}. Throws a JournalCorruptError for what journal-checks.ts refuses, as soon as it is
 * known; notes the rest in `doubts`.
 *
 * @example
 * const fold = new JournalFold(new JournalDoubts('demo-paper.jsonl'));
 * for (const [i, record] of records.entries()) fold.add(record, i + 1); // or as journal-report.ts reads a file
 * const { orders, fills } = fold.finish();
 */
export class JournalFold {
  readonly #doubts: JournalDoubts;
  readonly #byId = new Map<string, Request>();
  readonly #fates = new Map<string, Fate>();
  readonly #aside = new Map<string, Aside[]>();
  readonly #executions = new Map<string, { line: number; record: FillRecord }>();
  readonly #last = { order: -Infinity, conditional: -Infinity, fill: -Infinity };
  readonly #lastLine = { order: 0, conditional: 0, fill: 0 };
  #checkpoints = 0;
  #repeatedFills = 0;
  #from = Infinity;
  #to = -Infinity;

  constructor(doubts: JournalDoubts) {
    this.#doubts = doubts;
  }

  /** Fold `r`, the record at file line `line` (lines rising). */
  add(r: JournalRecord, line: number): void {
    this.#from = Math.min(this.#from, r.at);
    this.#to = Math.max(this.#to, r.at);
    if (r.t === 'checkpoint') this.#checkpoints++;
    else if (r.t === 'order') {
      this.#doubts.checkOrder(line, 'order', r.order);
      this.#request(r.clientOrderId, { line, seq: 0, at: r.at, strategy: r.strategy, kind: 'order', order: r.order }, 'clientOrderId', 'order');
    } else if (r.t === 'batch') {
      this.#request(r.batchId, { line, seq: 0, at: r.at, strategy: r.strategy, kind: 'batch' }, 'batchId', 'order');
      for (const [i, o] of r.orders.entries()) {
        this.#doubts.checkOrder(line, `orders[${i}].order`, o.order);
        this.#request(o.clientOrderId, { line, seq: 0, at: r.at, strategy: r.strategy, kind: 'order', order: o.order }, `orders[${i}].clientOrderId`, undefined);
      }
    } else if (r.t === 'conditional') {
      const c = r.order;
      if (c.triggerPrice) this.#doubts.checkDecimal(line, 'order.triggerPrice', c.triggerPrice, true);
      if (c.trailingStopPercent) this.#doubts.checkDecimal(line, 'order.trailingStopPercent', c.trailingStopPercent, true);
      if (c.orderToCreate) this.#doubts.checkOrder(line, 'order.orderToCreate', c.orderToCreate);
      this.#request(r.clientConditionalOrderId, { line, seq: 0, at: r.at, strategy: r.strategy, kind: 'conditional', conditional: c }, 'clientConditionalOrderId', 'conditional');
    } else if (LIFECYCLE.has(r.t)) this.#lifecycle(r as LifecycleRecord, line);
  }

  /**
   * A request under client id `id`: the first under it is the one, a repeat of it (a compaction's rewrite, a
   * `.history` file) is as a bot writes it, another one is refused. `seq` says which time sequence it starts in.
   */
  #request(id: string, q: Request, field: string, seq: 'order' | 'conditional' | undefined): void {
    const known = this.#byId.get(id);
    if (known) {
      // Compared as text only then: keeping every request's text would cost a long run's report ~200 bytes an order.
      if (requestText(known) !== requestText(q)) this.#doubts.refuse(q.line, field, `${id} names another request than the one journaled at line ${known.line}`);
      return;
    }
    if (seq) this.#inOrder(seq, q.line, q.at, RELATION);
    q.seq = this.#byId.size;
    this.#byId.set(id, q);
    const aside = this.#aside.get(id);
    if (!aside) return;
    this.#aside.delete(id);
    for (const a of aside) {
      this.#doubts.warn('records before their order', a.line, 'id', `${id}: ${article(a.record.t)} ${a.record.t} record before its order is placed (line ${q.line})`, rankOf(a.line, RELATION));
      this.#apply(a.record, a.line, q, a.repeated);
    }
  }

  /** Warn when `at` is before the last time of sequence `seq`; else it is the last. */
  #inOrder(seq: 'order' | 'conditional' | 'fill', line: number, at: number, slot: number): void {
    if (at < this.#last[seq]) {
      this.#doubts.warn('records out of time order', line, 'at', `is ${iso(at)}, before line ${this.#lastLine[seq]}'s ${iso(this.#last[seq])}: journal lines are written in time order`, rankOf(line, slot));
    } else {
      this.#last[seq] = at;
      this.#lastLine[seq] = line;
    }
  }

  /** A record of what became of a request: folded now if its request is known, else kept aside until it is. */
  #lifecycle(r: LifecycleRecord, line: number): void {
    let repeated = false;
    if (r.t === 'fill') {
      // Which execution a fill is does not depend on its order: decided in file order, as it is read.
      this.#doubts.checkDecimal(line, 'quantity', r.quantity, true);
      this.#doubts.checkDecimal(line, 'rate', r.rate, true);
      this.#doubts.checkDecimal(line, 'commission', r.commission, false);
      const seen = this.#executions.get(r.executionId);
      if (seen) {
        const differs = fillDifference(seen.record, r);
        if (differs) this.#doubts.refuse(line, differs, `differs from the same execution ${r.executionId} at line ${seen.line}`);
        this.#repeatedFills++;
        repeated = true;
      } else {
        this.#executions.set(r.executionId, { line, record: r });
        this.#inOrder('fill', line, r.at, FILL_TIME);
        this.#from = Math.min(this.#from, r.executedAt.getTime());
        this.#to = Math.max(this.#to, r.executedAt.getTime());
      }
    }
    const q = this.#byId.get(r.id);
    // A `sent` record changes no figure, and one under an id no record places is what a bot writes for every
    // POST /batch of cancels only (order-requests.ts journals the attempt under the batch's id, and a batch record
    // only when it places): not a doubt, and not kept aside (a market maker sends one every few seconds).
    if (!q && r.t === 'sent') return;
    if (!q) {
      const aside = this.#aside.get(r.id);
      if (aside) aside.push({ record: r, line, repeated });
      else this.#aside.set(r.id, [{ record: r, line, repeated }]);
      return;
    }
    if (r.at < q.at) this.#doubts.warn('records out of time order', line, 'at', `is ${iso(r.at)}, before its order was placed (${iso(q.at)}, line ${q.line})`, rankOf(line, RELATION));
    this.#apply(r, line, q, repeated);
  }

  #fate(id: string): Fate {
    let f = this.#fates.get(id);
    if (!f) this.#fates.set(id, (f = newFate()));
    return f;
  }

  /** Fold lifecycle record `r` (at `line`) into the fate of its request `q` (undefined: an order never placed). */
  #apply(r: LifecycleRecord, line: number, q: Request | undefined, repeated: boolean): void {
    const doubts = this.#doubts;
    const f = this.#fate(r.id);
    switch (r.t) {
      case 'ack':
        if (f.lost) f.ackAfterLost = true;
        f.ack = r.orderId;
        break;
      case 'rejected':
        f.rejected ??= { line, at: r.at, code: r.code };
        break;
      case 'lost':
        f.lost = { line, at: r.at };
        f.ackAfterLost = false;
        break;
      case 'triggered':
        f.triggered ??= { at: r.at, orderId: r.orderId };
        break;
      case 'closed': {
        if (r.filled !== undefined) doubts.checkDecimal(line, 'filled', r.filled, false);
        const quantity = q ? placed(q)?.quantity : undefined;
        if (r.filled !== undefined && quantity !== undefined && r.filled.gt(quantity)) doubts.refuse(line, 'filled', `says order ${r.id} filled ${r.filled.toFixed()}, more than its quantity ${quantity.toFixed()} (line ${q!.line})`);
        f.closed ??= { line, at: r.at, filled: r.filled };
        break;
      }
      case 'fill': {
        if (repeated) break;
        const o = q ? placed(q) : undefined;
        if (o && r.marketSymbol !== o.marketSymbol) doubts.refuse(line, 'marketSymbol', `is ${r.marketSymbol}, but order ${r.id} is on ${o.marketSymbol} (line ${q!.line})`);
        if (o && r.direction !== o.direction) doubts.refuse(line, 'direction', `is ${r.direction}, but order ${r.id} is a ${o.direction} (line ${q!.line})`);
        f.firstFill ??= { line, orderId: r.orderId };
        f.fills++;
        f.filled = f.filled.plus(r.quantity);
        f.proceeds = f.proceeds.plus(r.quantity.times(r.rate));
        f.commission = f.commission.plus(r.commission);
        if (o?.quantity !== undefined && f.filled.gt(o.quantity)) {
          doubts.refuse(line, 'quantity', `brings order ${r.id}'s fills to ${f.filled.toFixed()}, more than its quantity ${o.quantity.toFixed()} (line ${q!.line})`);
        }
        break;
      }
      default:
        break;
    }
  }

  /** The folded journal, once every record has been added. */
  finish(): FoldedJournal {
    const doubts = this.#doubts;
    // What is still aside is for orders the journal never placed.
    const never = [...this.#aside.values()].flat().sort((a, b) => a.line - b.line);
    this.#aside.clear();
    for (const { record: r, line, repeated } of never) {
      if (r.t === 'fill') doubts.warn('fills for orders never placed', line, 'id', `${r.id}: a fill for an order the journal never placed (an edited or partly lost file?): it is in the PnL, in no order count, with no strategy`, rankOf(line, RELATION));
      else doubts.warn('records for orders never placed', line, 'id', `${r.id}: ${article(r.t)} ${r.t} record for an order the journal never placed: ignored`, rankOf(line, RELATION));
      this.#apply(r, line, undefined, repeated);
    }

    const orders: ReportOrder[] = [];
    let lost = 0;
    for (const [id, q] of this.#byId) {
      if (q.kind === 'batch') continue;
      const f = this.#fates.get(id) ?? newFate();
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
          doubts.warn('fills of a conditional order that never triggered', f.firstFill!.line, 'id', `${id}: fills of a conditional order with no triggered record: counted as the order it created`, endRank(q, 0));
          exchangeId = f.firstFill!.orderId;
        } else if (!f.rejected && !f.lost) continue;
        else exchangeId = undefined;
      }
      if (f.rejected && traded) {
        doubts.warn('fills of rejected orders', f.rejected.line, 'id', `${id}: journaled rejected (${f.rejected.code}), but ${f.fills} fill(s) of it are journaled: counted as placed and traded, not rejected`, endRank(q, 1));
      }
      if (f.closed?.filled !== undefined && f.closed.filled.gt(f.filled)) {
        doubts.warn('orders missing fills', f.closed.line, 'filled', `says order ${id} filled ${f.closed.filled.toFixed()}, but the journal holds fills for ${f.filled.toFixed()}: the PnL leaves out the other ${f.closed.filled.minus(f.filled).toFixed()}`, endRank(q, 2));
      }
      const line = orderLine(id, q, o, createdAt, exchangeId, f);
      if (line.rejectCode === 'LOST') lost++;
      orders.push(line);
    }
    orders.sort((a, b) => a.createdAt - b.createdAt);

    const fills: ReportFill[] = [];
    for (const { record: r } of this.#executions.values()) {
      fills.push({
        at: r.executedAt.getTime(),
        marketSymbol: r.marketSymbol,
        orderId: r.orderId,
        clientOrderId: r.id,
        strategy: this.#byId.get(r.id)?.strategy,
        direction: r.direction,
        quantity: r.quantity.toString(),
        rate: r.rate.toString(),
        commission: r.commission.toString(),
        isTaker: r.isTaker,
      });
    }
    fills.sort((a, b) => a.at - b.at);
    let from = this.#from;
    let to = this.#to;
    if (!Number.isFinite(from)) from = to = 0;
    const strategies = [...new Set([...this.#byId.values()].map((q) => q.strategy))].sort();
    return { orders, fills, strategies, from, to, checkpoints: this.#checkpoints, lost, repeatedFills: this.#repeatedFills };
  }
}

/**
 * Fold `records` (in file order, one a line from line 1) as {@link JournalFold} does a file: for records already in
 * memory.
 */
export function foldJournal(records: readonly JournalRecord[], doubts: JournalDoubts): FoldedJournal {
  const fold = new JournalFold(doubts);
  for (const [i, r] of records.entries()) fold.add(r, i + 1);
  return fold.finish();
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

