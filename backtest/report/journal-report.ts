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
 *   checkpoint are missing from the trade list (the report's assumptions say so); its compaction history
 *   (`<journal>.history`, journal.keepHistory) holds every journal a compaction replaced, those fills included,
 *   and is reported as such, named `<name>.history` beside the journal's `<name>` (journal-report-name.ts).
 * Conditional orders appear through the orders they created (their fills carry the conditional order's id).
 *
 * The records are checked across each other on the way (journal-checks.ts): what makes any PnL from the file wrong
 * is refused with file:line and field, what leaves the fills' PnL standing but is not what a bot writes is listed
 * in the report's `journalWarnings` (and on the page) with file:line and field. The file is folded while it is read
 * (journal-fold.ts), a record at a time, so a journal of any length is reported in the memory of its orders and
 * fills.
 */
import { basename } from 'node:path';
import { Decimal, ZERO } from '../../src/core/decimal.js';
import { JournalRecordSink, type JournalReadOptions } from '../../src/orders/journal-parse.js';
import { type JournalLineSink, readJournalLinesAsync } from '../../src/orders/journal-lines.js';
import type { JournalRecord } from '../../src/orders/journal-records.js';
import { JournalDoubts } from './journal-checks.js';
import { foldJournal, JournalFold, type FoldedJournal } from './journal-fold.js';
import { isHistory, journalReportName } from './journal-report-name.js';
import { marketLedger } from './market-curve.js';
import { quoteOf } from './metrics.js';
import type { ReportEquityPoint, ReportFill, ReportInput } from './report-input.js';

/** Options of {@link journalReportInput}. */
export interface JournalReportOptions {
  /** Name shown in the report; default {@link journalReportName}'s (the file name without `.jsonl`; `x.history` for `x.jsonl.history`). */
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

function toWire8(d: Decimal): string {
  return d.toFixed(8);
}

/**
 * Read the journal at `file` (a bad line other than a torn last one is an error with file:line, as is a record the
 * cross-record checks refuse) into a report input. Each record is folded as it is read and none is kept: memory is
 * what the report lists (its orders and fills), whatever the file's length.
 *
 * @example
 * const input = await journalReportInput('.rexbot/journal/demo/demo-paper-2026-11-25T09-44-54-801Z.jsonl');
 * await writeReport(input, 'out/report/demo');
 */
export async function journalReportInput(file: string, opts: JournalReportOptions = {}): Promise<ReportInput> {
  const doubts = new JournalDoubts(file);
  const fold = new JournalFold(doubts);
  let lineNo = 0;
  // A compaction's history (journal.keepHistory) may hold a line torn by a crash mid-copy, closed by the next copy.
  const records = new JournalRecordSink(file, (r) => fold.add(r, lineNo), isHistory(file));
  // The journal's own sink decides what a line means; this one only tells the fold which line it was.
  const sink: JournalLineSink = {
    line(text, n, last) {
      lineNo = n;
      records.line(text, n, last);
    },
    tooLong: (n, last, bytes, limit) => records.tooLong(n, last, bytes, limit),
  };
  // A line at a time: a long run's journal can outgrow the longest string V8 makes.
  const read = await readJournalLinesAsync(file, sink, opts.read);
  // Said first, before what the records themselves raise: the file's own state.
  for (const w of records.result(read.bytes, read.completeBytes).warnings) doubts.warnText('a torn last line', w, -1);
  for (const w of records.cut) doubts.warnText('history lines cut by a crash', w, -1);
  const name = opts.name ?? journalReportName(file);
  return reportInputOf(fold.finish(), { ...opts, name, kind: opts.kind ?? (/-paper-/.test(basename(file)) ? 'paper' : 'live'), history: isHistory(file) }, doubts);
}

/**
 * The report input of journal `records` already in memory, one a line from line 1 (see the module note); `doubts`
 * names their file in what it refuses (thrown) and warns of (the input's `journalWarnings`).
 */
export function recordsToReportInput(records: readonly JournalRecord[], opts: JournalReportOptions & { name: string; kind: 'paper' | 'live' }, doubts = new JournalDoubts('journal')): ReportInput {
  return reportInputOf(foldJournal(records, doubts), opts, doubts);
}

/** The report input of a folded journal (`history`: of a compaction history). */
function reportInputOf(folded: FoldedJournal, opts: JournalReportOptions & { name: string; kind: 'paper' | 'live'; history?: boolean }, doubts: JournalDoubts): ReportInput {
  const { orders, fills, from, to } = folded;
  const markets = [...new Set([...orders.map((o) => o.marketSymbol), ...fills.map((f) => f.marketSymbol)])].sort();
  const quotes = [...new Set(markets.map(quoteOf))];
  const valuationCurrency = opts.valuationCurrency ?? quotes[0] ?? 'USD';
  const initial = new Decimal(opts.initialEquity ?? 0);
  const assumptions = [
    opts.history
      ? `Read from the ${opts.kind} run's compaction history (journal.keepHistory): every journal a compaction replaced, whole, with the orders, their outcomes and fills as the exchange reported them; what was journaled after the last compaction is in the journal itself.`
      : `Read from the ${opts.kind} run's order journal: orders, their outcomes and fills as the exchange reported them.`,
    `The journal holds no balances or market data: equity is ${opts.initialEquity !== undefined ? `the starting equity given (${initial.toFixed()} ${valuationCurrency})` : 'zero at the start (no starting equity was given, so ratios against equity are left out)'} plus the PnL of our fills, each market marked at our own last fill rate.`,
    'Risk denials are not journaled: none are shown.',
  ];
  if (quotes.length > 1) assumptions.push(`Markets are quoted in ${quotes.join(', ')}; the equity curve adds only markets quoted in ${valuationCurrency}.`);
  // A history holds each journal before its compaction: the fills a compaction dropped are in it.
  if (folded.checkpoints > 0 && !opts.history) assumptions.push(`The journal was compacted ${folded.checkpoints} time(s): fills of orders finished before a compaction are not in it, so the trade list and PnL start after them.`);
  if (folded.lost > 0) assumptions.push(`${folded.lost} order(s) were declared lost (sent, never found on the exchange); they count as rejected.`);
  if (folded.repeatedFills > 0) assumptions.push(`${folded.repeatedFills} fill record(s) repeat an execution already journaled, with the same figures (a compaction's history copy does): each execution is counted once.`);
  const journalWarnings = doubts.warnings();
  return {
    kind: opts.kind,
    name: opts.name,
    strategies: folded.strategies,
    markets,
    from,
    to,
    valuationCurrency,
    initialBalances: { [valuationCurrency]: toWire8(initial) },
    finalBalances: {},
    orders,
    fills,
    equity: equityFromFills(fills, markets, valuationCurrency, initial, from, to),
    prices: Object.fromEntries(markets.map((m) => [m, fills.filter((f) => f.marketSymbol === m).map((f) => ({ at: f.at, price: f.rate }))])),
    denials: {},
    assumptions,
    journalWarnings: journalWarnings.length > 0 ? journalWarnings : undefined,
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
