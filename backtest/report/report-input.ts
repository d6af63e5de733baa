/**
 * What a report is made from: plain data that a backtest run produces and that a paper or live run's journal
 * can be turned into (`rexbot report <journal>`), so both render the same `report.json` and `report.html`.
 * Money and quantities are exact decimal strings as the wire writes them (`"0.00010000"`), times are epoch ms;
 * nothing here depends on the run's wall clock, so the same run gives the same bytes.
 */

/** One of our orders as it ended (or stood at the end of the run). */
export interface ReportOrder {
  clientOrderId: string;
  /** Exchange id; absent when the order never reached the venue. */
  id?: string | undefined;
  strategy?: string | undefined;
  marketSymbol: string;
  direction: 'BUY' | 'SELL';
  type: string;
  quantity?: string | undefined;
  limit?: string | undefined;
  ceiling?: string | undefined;
  timeInForce?: string | undefined;
  createdAt: number;
  closedAt?: number | undefined;
  /**
   * `OPEN` at the end of the run; `CLOSED` filled in full (a market buy by ceiling: with any fill); `CANCELLED`
   * ended with less (nothing, or part filled and then cancelled or expired); `REJECTED` by the venue, or lost.
   */
  outcome: 'OPEN' | 'CLOSED' | 'CANCELLED' | 'REJECTED';
  /** The venue's error code for a rejection. */
  rejectCode?: string | undefined;
  fillQuantity: string;
  proceeds: string;
  commission: string;
}

/** One execution of ours. */
export interface ReportFill {
  at: number;
  marketSymbol: string;
  orderId: string;
  clientOrderId?: string | undefined;
  strategy?: string | undefined;
  direction: 'BUY' | 'SELL';
  quantity: string;
  rate: string;
  commission: string;
  isTaker: boolean;
}

/** The account's value at one moment, in the valuation currency, and the position per market. */
export interface ReportEquityPoint {
  at: number;
  equity: string;
  /** Base-currency position per market symbol (net of the starting balance). */
  positions: Record<string, string>;
  /** True when some holding was valued with a stale last-known rate. */
  stale?: boolean | undefined;
  /**
   * What the starting balances alone would be worth at this point's rates (no trading at all), in the valuation
   * currency: the benchmark the equity is read against. Absent when some starting holding had no rate here, and in
   * reports of runs that did not sample it.
   */
  hold?: string | undefined;
}

/** A market's price over the run (a sample of mids or trade prices) for drawing fills over price. */
export interface ReportPricePoint {
  at: number;
  price: string;
}

/** A strategy that failed during the run: from then on it emitted nothing (its orders per `onStrategyFailure`). */
export interface ReportStrategyFailure {
  strategy: string;
  /** `setup` or `run`. */
  phase: string;
  /** What failed, as the bot's log line says it. */
  message: string;
}

/** Fill rate and PnL of the same run under another queue model (`--band`). */
export interface ReportBandRun {
  queueModel: string;
  netPnl: string;
  fillRate: number;
  fills: number;
}

/** Everything a report is rendered from. */
export interface ReportInput {
  /** `backtest`, `paper` or `live`. */
  kind: 'backtest' | 'paper' | 'live';
  /** Bot name from the config. */
  name: string;
  strategies: string[];
  markets: string[];
  /** Run window, epoch ms (virtual time for a backtest). */
  from: number;
  to: number;
  /** Valuation currency of the equity curve (e.g. `USD`). */
  valuationCurrency: string;
  initialBalances: Record<string, string>;
  finalBalances: Record<string, string>;
  orders: ReportOrder[];
  fills: ReportFill[];
  equity: ReportEquityPoint[];
  prices: Record<string, ReportPricePoint[]>;
  /** Intents never sent, counted by reason code: risk denials, and (backtest) intents the order planner refused. */
  denials: Record<string, number>;
  /** Every modelling assumption in force, one sentence each (fill model, queue model, latency, fees, data gaps). */
  assumptions: string[];
  /** Queue model this run used (`pessimistic`, `optimistic`, or the probabilistic default's name), when known. */
  queueModel?: string | undefined;
  /** Other queue models' outcomes for the same run, when `--band` was asked for. */
  band?: ReportBandRun[] | undefined;
  /** Market events processed (backtest), for the report's footer. */
  events?: number | undefined;
  /** Sweep parameters of this run, when it is one run of a sweep. */
  params?: Record<string, unknown> | undefined;
  /** Strategies that failed during the run (absent when none did). */
  strategyFailures?: ReportStrategyFailure[] | undefined;
  /** Recorded lines the readers skipped (`onBadLine: skip`) or a file cut off, one sentence per file; absent when none. */
  dataWarnings?: string[] | undefined;
  /**
   * A journal report's doubts about its journal (journal-checks.ts): records that are not what a bot writes but
   * leave the fills' PnL standing, each with file:line and field; absent when none.
   */
  journalWarnings?: string[] | undefined;
}
