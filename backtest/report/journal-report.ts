/**
 * A paper or live run's order journal turned into a {@link ReportInput}, so `rexbot report <journal>` renders
 * the same report.json and report.html as a backtest.
 *
 * What a journal holds and what it does not, and so what the report can say:
 * - orders (single and batched) with their strategy, acknowledgement, rejection, closing and fill quantity, and
 *   every fill with its exchange execution time: the order counts, fills, trade list and trade statistics are
 *   exact;
 * - no balances and no market data: the equity curve is the starting equity given (`--equity`, in the
 *   valuation currency; 0 when not given) plus the PnL of our fills, each market marked at our own last fill
 *   rate. Without a starting equity the ratios against it (return, Sharpe, Sortino, drawdown fraction) are not
 *   computed;
 * - no risk denials (they never reach the journal);
 * - a compacted journal keeps only the fills of orders still open at the compaction, so fills before a
 *   checkpoint are missing from the trade list (the report's assumptions say so).
 * Conditional orders appear through the orders they created (their fills carry the conditional order's id).
 */
import { basename } from 'node:path';
import { Decimal, ZERO } from '../../src/core/decimal.js';
import type { NewOrder } from '../../src/model/order.js';
import { type JournalReadOptions, readJournalAsync } from '../../src/orders/journal.js';
import type { FillRecord, JournalRecord } from '../../src/orders/journal-records.js';
import { marketLedger } from './market-curve.js';
import { quoteOf } from './metrics.js';
import type { ReportEquityPoint, ReportFill, ReportInput, ReportOrder } from './report-input.js';

/** Options of {@link journalReportInput}. */
export interface JournalReportOptions {
  /** Name shown in the report; default the journal's file name without `.jsonl`. */
  name?: string | undefined;
  /** `paper` or `live`; default `paper` when the file name says `-paper-`, else `live`. */
  kind?: 'paper' | 'live' | undefined;
  /** Starting equity in the valuation currency; default 0 (ratios against equity are then left out). */
  initialEquity?: string | undefined;
  /** Valuation currency; default the quote currency shared by the journal's markets (or the first one's). */
  valuationCurrency?: string | undefined;
  /** How the file is read (default: 4 MiB chunks, lines of at most 64 MiB): a seam for tests. */
  read?: JournalReadOptions | undefined;
}

interface OrderState {
  order: ReportOrder;
  quantity: Decimal | undefined;
}

function toWire8(d: Decimal): string {
  return d.toFixed(8);
}

/**
 * Read the journal at `file` (a bad line other than a torn last one is an error with file:line) into a report
 * input.
 *
 * @example
 * const input = await journalReportInput('.rexbot/journal/demo/demo-paper-2026-11-25T09-44-54-801Z.jsonl');
 * await writeReport(input, 'out/report/demo');
 */
export async function journalReportInput(file: string, opts: JournalReportOptions = {}): Promise<ReportInput> {
  // A line at a time: a long run's journal can outgrow the longest string V8 makes.
  const { records, warnings } = await readJournalAsync(file, opts.read);
  const input = recordsToReportInput(records, { ...opts, name: opts.name ?? basename(file).replace(/\.jsonl$/, ''), kind: opts.kind ?? (/-paper-/.test(basename(file)) ? 'paper' : 'live') });
  input.assumptions.push(...warnings);
  return input;
}

/** The report input of journal `records` (see the module note). */
export function recordsToReportInput(records: readonly JournalRecord[], opts: JournalReportOptions & { name: string; kind: 'paper' | 'live' }): ReportInput {
  const orders = new Map<string, OrderState>();
  const strategies = new Set<string>();
  const fills: ReportFill[] = [];
  let checkpoints = 0;
  let lost = 0;
  let from = Infinity;
  let to = -Infinity;
  const add = (clientOrderId: string, strategy: string, o: NewOrder, at: number): void => {
    strategies.add(strategy);
    orders.set(clientOrderId, {
      quantity: o.quantity,
      order: {
        clientOrderId,
        strategy,
        marketSymbol: o.marketSymbol,
        direction: o.direction,
        type: o.type,
        quantity: o.quantity?.toString(),
        limit: o.limit?.toString(),
        ceiling: o.ceiling?.toString(),
        timeInForce: o.timeInForce,
        createdAt: at,
        outcome: 'OPEN',
        fillQuantity: '0',
        proceeds: '0',
        commission: '0',
      },
    });
  };
  const fillsByOrder = new Map<string, FillRecord[]>();
  for (const r of records) {
    from = Math.min(from, r.at);
    to = Math.max(to, r.at);
    switch (r.t) {
      case 'order':
        add(r.clientOrderId, r.strategy, r.order, r.at);
        break;
      case 'batch':
        for (const o of r.orders) add(o.clientOrderId, r.strategy, o.order, r.at);
        break;
      case 'conditional':
        strategies.add(r.strategy);
        break;
      case 'ack': {
        const s = orders.get(r.id);
        if (s) s.order.id = r.orderId;
        break;
      }
      case 'rejected':
      case 'lost': {
        const s = orders.get(r.id);
        if (s) {
          s.order.outcome = 'REJECTED';
          s.order.rejectCode = r.t === 'lost' ? 'LOST' : r.code;
          s.order.closedAt = r.at;
        }
        if (r.t === 'lost') lost++;
        break;
      }
      case 'closed': {
        const s = orders.get(r.id);
        if (s && s.order.outcome === 'OPEN') {
          s.order.closedAt = r.at;
          s.order.outcome = 'CLOSED'; // settled below against the fills
        }
        break;
      }
      case 'fill': {
        const executed = r.executedAt.getTime();
        from = Math.min(from, executed);
        to = Math.max(to, executed);
        let list = fillsByOrder.get(r.id);
        if (!list) fillsByOrder.set(r.id, (list = []));
        // A fill can be journaled twice across a compaction's history copy; the execution id is unique.
        if (list.some((f) => f.executionId === r.executionId)) break;
        list.push(r);
        const strategy = orders.get(r.id)?.order.strategy;
        fills.push({
          at: executed,
          marketSymbol: r.marketSymbol,
          orderId: r.orderId,
          clientOrderId: r.id,
          strategy,
          direction: r.direction,
          quantity: r.quantity.toString(),
          rate: r.rate.toString(),
          commission: r.commission.toString(),
          isTaker: r.isTaker,
        });
        break;
      }
      case 'checkpoint':
        checkpoints++;
        break;
      default:
        break;
    }
  }
  for (const [cid, s] of orders) {
    const list = fillsByOrder.get(cid) ?? [];
    let qty = ZERO;
    let proceeds = ZERO;
    let commission = ZERO;
    for (const f of list) {
      qty = qty.plus(f.quantity);
      proceeds = proceeds.plus(f.quantity.times(f.rate));
      commission = commission.plus(f.commission);
    }
    s.order.fillQuantity = qty.toString();
    s.order.proceeds = proceeds.toString();
    s.order.commission = commission.toString();
    // Closed with less than asked for is a cancellation (possibly after part fills), as on the exchange.
    if (s.order.outcome === 'CLOSED' && (s.quantity === undefined ? qty.isZero() : qty.lt(s.quantity))) s.order.outcome = 'CANCELLED';
  }
  fills.sort((a, b) => a.at - b.at);
  const markets = [...new Set([...[...orders.values()].map((s) => s.order.marketSymbol), ...fills.map((f) => f.marketSymbol)])].sort();
  const quotes = [...new Set(markets.map(quoteOf))];
  const valuationCurrency = opts.valuationCurrency ?? quotes[0] ?? 'USD';
  if (!Number.isFinite(from)) from = to = 0;
  const initial = new Decimal(opts.initialEquity ?? 0);
  const assumptions = [
    `Read from the ${opts.kind} run's order journal: orders, their outcomes and fills as the exchange reported them.`,
    `The journal holds no balances or market data: equity is ${opts.initialEquity !== undefined ? `the starting equity given (${initial.toFixed()} ${valuationCurrency})` : 'zero at the start (no starting equity was given, so ratios against equity are left out)'} plus the PnL of our fills, each market marked at our own last fill rate.`,
    'Risk denials are not journaled: none are shown.',
  ];
  if (quotes.length > 1) assumptions.push(`Markets are quoted in ${quotes.join(', ')}; the equity curve adds only markets quoted in ${valuationCurrency}.`);
  if (checkpoints > 0) assumptions.push(`The journal was compacted ${checkpoints} time(s): fills of orders finished before a compaction are not in it, so the trade list and PnL start after them.`);
  if (lost > 0) assumptions.push(`${lost} order(s) were declared lost (sent, never found on the exchange); they count as rejected.`);
  return {
    kind: opts.kind,
    name: opts.name,
    strategies: [...strategies].sort(),
    markets,
    from,
    to,
    valuationCurrency,
    initialBalances: { [valuationCurrency]: toWire8(initial) },
    finalBalances: {},
    orders: [...orders.values()].map((s) => s.order).sort((a, b) => a.createdAt - b.createdAt),
    fills,
    equity: equityFromFills(fills, markets, valuationCurrency, initial, from, to),
    prices: Object.fromEntries(markets.map((m) => [m, fills.filter((f) => f.marketSymbol === m).map((f) => ({ at: f.at, price: f.rate }))])),
    denials: {},
    assumptions,
  };
}

/** Equity at the start, after each fill and at the end: initial + PnL of the markets quoted in `currency`. */
function equityFromFills(fills: readonly ReportFill[], markets: readonly string[], currency: string, initial: Decimal, from: number, to: number): ReportEquityPoint[] {
  const cash = new Map<string, Decimal>();
  const pos = new Map<string, Decimal>();
  const mark = new Map<string, Decimal>();
  const points: ReportEquityPoint[] = [{ at: from, equity: toWire8(initial), positions: Object.fromEntries(markets.map((m) => [m, '0'])) }];
  for (const f of fills) {
    const l = marketLedger([f]);
    cash.set(f.marketSymbol, (cash.get(f.marketSymbol) ?? ZERO).plus(l.cash[0]!));
    pos.set(f.marketSymbol, (pos.get(f.marketSymbol) ?? ZERO).plus(l.position[0]!));
    mark.set(f.marketSymbol, new Decimal(f.rate));
    let equity = initial;
    for (const m of markets) {
      if (quoteOf(m) !== currency) continue;
      equity = equity.plus(cash.get(m) ?? ZERO).plus((pos.get(m) ?? ZERO).times(mark.get(m) ?? ZERO));
    }
    const point: ReportEquityPoint = { at: f.at, equity: toWire8(equity), positions: Object.fromEntries(markets.map((m) => [m, (pos.get(m) ?? ZERO).toString()])) };
    if (points[points.length - 1]!.at === f.at) points[points.length - 1] = point;
    else points.push(point);
  }
  const last = points[points.length - 1]!;
  if (last.at < to) points.push({ ...last, at: to });
  return points;
}
