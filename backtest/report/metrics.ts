/**
 * The report's metrics, per market and in total, from a {@link ReportInput}. Money is exact (decimal.js) and
 * written with 8 decimals; ratios are numbers (`null` where undefined). Definitions:
 *
 * - **Net PnL**: total = last equity − first equity (valuation currency; equity points marked `stale`, which
 *   valued some holding without a current rate, are left out when any point is not); per market = cash flow of its fills
 *   (commissions included) + final position × last price, in the market's quote currency. **Realised** is the
 *   sum of round trips (FIFO, see round-trips.ts); **unrealised** is net − realised.
 * - **Return**: net PnL / first equity (per market: its contribution to the account's return).
 * - **Holding** (total only): what the starting balances alone, never traded, gained or lost over the same points
 *   (their value at each equity point's rates, its `hold`): `holdPnl` and `holdReturn` (/ first
 *   equity). **Net PnL vs holding** = net PnL − hold PnL: what trading added to the account beyond what it held.
 *   A run that starts with coins sees their price move in its net PnL; this line takes it out. `null` when the
 *   first or last point has no hold value (a journal report).
 * - **CAGR, Sharpe, Sortino, Calmar, max drawdown**: see ratios.ts (365-day year, resampled simple returns).
 *   Per market they are taken on first equity + that market's PnL curve, i.e. as if it alone had traded. Sharpe
 *   and Sortino need at least 30 hourly returns (a run of 30 hours), CAGR and Calmar a run of 30 days: shorter
 *   runs annualise into noise. A ratio left out is `null` and `unavailable` says why (curve-stats.ts).
 * - **Fees**: sum of our fills' commissions. **Turnover**: Σ quantity × rate of our fills; **turnover ratio**
 *   is turnover / first equity.
 * - **Trades, win rate, profit factor (gross profit / gross loss), expectancy (mean PnL per round trip),
 *   average win and loss**: over round trips; profit factor is `null` with no losing trade.
 * - **Exposure**: fraction of the run's time with a non-zero position opened by our fills (total: any market).
 * - **Orders** (see {@link OrderCounts}): each order placed is counted once, by how it ended — filled,
 *   partially filled, cancelled, rejected or open — so the five add up to placed; fill rate = orders with any
 *   fill / (placed − rejected).
 * Totals of fees, turnover and trade statistics add up markets quoted in the valuation currency only (money in
 * different currencies does not add); the others are listed in `excludedFromTotals`. For such a market the
 * ratios against equity (return, CAGR, Sharpe, Sortino, Calmar, turnover ratio, drawdown fraction) are `null`:
 * its PnL is in another currency than the equity, and the report does not invent an exchange rate.
 */
import { Decimal, ZERO } from '../../src/core/decimal.js';
import type { ReportFill, ReportInput, ReportOrder } from './report-input.js';
import { exposureIntervals, lastPrice, marketLedger, marketPnlCurve, unionLength } from './market-curve.js';
import { curveStats, type CurveStats, moneyCurveStats } from './curve-stats.js';
import { money } from './money.js';
import { finite, returnsInterval, type CurvePoint } from './ratios.js';
import { roundTrips, sum, type MarketTrades, type RoundTrip } from './round-trips.js';
import { valuedEquity } from './series.js';

export { money };
export type { CurveStats };

/**
 * Order counts. Every order placed is in exactly one of `filled`, `partiallyFilled`, `cancelled`, `rejected` and
 * `open`, so they add up to `placed`; the same definitions for a backtest and a journal report.
 */
export interface OrderCounts {
  /** Orders sent to the venue (intents refused before sending are not orders: see the risk denials). */
  placed: number;
  /** Ended with all of their quantity filled (a market buy by ceiling: ended with any fill). */
  filled: number;
  /** Ended with part of their quantity filled and the rest cancelled or expired (e.g. an IOC's remainder). */
  partiallyFilled: number;
  /** Ended with nothing filled: cancelled, expired, or an IOC/FOK that found nothing to take. */
  cancelled: number;
  /** Refused by the venue, or sent and never found there (declared lost): nothing was placed. */
  rejected: number;
  /** Still open at the end of the run, part filled or not. */
  open: number;
  /** Orders with any fill (filled, partially filled, open with a fill) / (placed − rejected); `null` when nothing reached the venue. */
  fillRate: number | null;
}

/** Trade statistics over round trips. */
export interface TradeStats {
  trades: number;
  wins: number;
  losses: number;
  winRate: number | null;
  grossProfit: string;
  grossLoss: string;
  profitFactor: number | null;
  expectancy: string | null;
  averageWin: string | null;
  averageLoss: string | null;
}

/** One market's metrics. */
export interface MarketMetrics extends CurveStats, TradeStats {
  quoteCurrency: string;
  realisedPnl: string;
  unrealisedPnl: string;
  fees: string;
  turnover: string;
  turnoverRatio: number | null;
  exposure: number;
  fills: number;
  finalPosition: string;
  orders: OrderCounts;
}

/** Account-wide metrics. */
export interface TotalMetrics extends CurveStats, TradeStats {
  valuationCurrency: string;
  initialEquity: string;
  finalEquity: string;
  fees: string;
  turnover: string;
  turnoverRatio: number | null;
  exposure: number;
  fills: number;
  orders: OrderCounts;
  denials: Record<string, number>;
  /** Change in value of the starting balances alone, never traded (see the module note); `null` when unknown. */
  holdPnl: string | null;
  /** {@link TotalMetrics.holdPnl} / first equity. */
  holdReturn: number | null;
  /** Net PnL − hold PnL: what trading added beyond holding the starting balances; `null` when unknown. */
  netPnlVsHold: string | null;
  /** Resampling interval of the returns behind Sharpe and Sortino (`1d`, `1h`, `5m`, `1m`). */
  returnsInterval: string;
  excludedFromTotals: string[];
}

/** Every metric of a report. */
export interface ReportMetrics {
  total: TotalMetrics;
  markets: Record<string, MarketMetrics>;
}

/** The quote currency of a `BASE-QUOTE` market symbol. */
export function quoteOf(symbol: string): string {
  const i = symbol.indexOf('-');
  return i < 0 ? symbol : symbol.slice(i + 1);
}

/**
 * Order counts of `orders` (see {@link OrderCounts}): by outcome, a cancelled order split by whether it had filled
 * anything.
 */
export function orderCounts(orders: readonly ReportOrder[]): OrderCounts {
  let filled = 0;
  let partiallyFilled = 0;
  let cancelled = 0;
  let rejected = 0;
  let open = 0;
  let anyFill = 0;
  for (const o of orders) {
    const traded = new Decimal(o.fillQuantity).gt(0);
    if (traded) anyFill++;
    if (o.outcome === 'CLOSED') filled++;
    else if (o.outcome === 'CANCELLED') {
      if (traded) partiallyFilled++;
      else cancelled++;
    } else if (o.outcome === 'REJECTED') rejected++;
    else open++;
  }
  const live = orders.length - rejected;
  return { placed: orders.length, filled, partiallyFilled, cancelled, rejected, open, fillRate: live > 0 ? anyFill / live : null };
}

/** Trade statistics of `trips`. */
export function tradeStats(trips: readonly RoundTrip[]): TradeStats {
  const wins = trips.filter((t) => t.pnl.gt(0));
  const losses = trips.filter((t) => t.pnl.lt(0));
  const grossProfit = sum(wins.map((t) => t.pnl));
  const grossLoss = sum(losses.map((t) => t.pnl)).neg();
  const n = trips.length;
  return {
    trades: n,
    wins: wins.length,
    losses: losses.length,
    winRate: n > 0 ? wins.length / n : null,
    grossProfit: money(grossProfit),
    grossLoss: money(grossLoss),
    profitFactor: grossLoss.gt(0) ? finite(grossProfit.div(grossLoss).toNumber()) : null,
    expectancy: n > 0 ? money(grossProfit.minus(grossLoss).div(n)) : null,
    averageWin: wins.length > 0 ? money(grossProfit.div(wins.length)) : null,
    averageLoss: losses.length > 0 ? money(grossLoss.div(losses.length).neg()) : null,
  };
}

/**
 * Compute every metric of `input`.
 *
 * @example
 * const m = computeMetrics(input);
 * m.total.netPnl;                  // '12.34000000'
 * m.markets['BTC-USD'].winRate;    // 0.6
 */
export function computeMetrics(input: ReportInput): ReportMetrics {
  return computeMetricsAndTrades(input).metrics;
}

/** {@link computeMetrics}, with the round trips behind the trade statistics (the report lists them). */
export function computeMetricsAndTrades(input: ReportInput): { metrics: ReportMetrics; trades: Map<string, MarketTrades> } {
  const { from, to } = input;
  const span = Math.max(0, to - from);
  const points = valuedEquity(input);
  const equity: CurvePoint[] = points.map((p) => ({ at: p.at, value: new Decimal(p.equity) }));
  const initial = equity[0]?.value ?? ZERO;
  const final = equity[equity.length - 1]?.value ?? ZERO;
  const times = [...new Set([from, ...points.map((p) => p.at), ...input.fills.map((f) => f.at), to])].sort((a, b) => a - b);
  const trades = roundTrips(input.fills);
  // An order whose market is not known ('': a rejection whose event named none) counts in the total only.
  const symbols = [...new Set([...input.markets, ...input.fills.map((f) => f.marketSymbol), ...input.orders.map((o) => o.marketSymbol)])].filter((s) => s !== '').sort();
  const noEquity =
    input.kind === 'backtest'
      ? `needs a positive starting equity: the starting balances are worth nothing in ${input.valuationCurrency}`
      : 'needs the starting equity: give it with rexbot report --equity';

  const markets: Record<string, MarketMetrics> = {};
  const exposureSpans: Array<[number, number]> = [];
  const excluded: string[] = [];
  const totalTrips: RoundTrip[] = [];
  let fees = ZERO;
  let turnover = ZERO;
  const fillsBy = new Map<string, ReportFill[]>();
  for (const f of input.fills) {
    let list = fillsBy.get(f.marketSymbol);
    if (!list) fillsBy.set(f.marketSymbol, (list = []));
    list.push(f);
  }
  for (const symbol of symbols) {
    const fills = fillsBy.get(symbol) ?? [];
    const prices = input.prices[symbol] ?? [];
    const ledger = marketLedger(fills);
    const trips = trades.get(symbol)?.trips ?? [];
    const pnlCurve = marketPnlCurve(ledger, prices, times).map((p) => ({ at: p.at, value: initial.plus(p.value) }));
    const position = ledger.position[ledger.position.length - 1] ?? ZERO;
    const cash = ledger.cash[ledger.cash.length - 1] ?? ZERO;
    const mark = lastPrice(ledger, prices);
    const net = cash.plus(mark ? position.times(mark) : ZERO);
    const realised = sum(trips.map((t) => t.pnl));
    const mFees = sum(fills.map((f) => new Decimal(f.commission)));
    const mTurnover = sum(fills.map((f) => new Decimal(f.quantity).times(f.rate)));
    const spans = exposureIntervals(ledger, from, to);
    const sameCurrency = quoteOf(symbol) === input.valuationCurrency;
    const stats = sameCurrency
      ? curveStats(pnlCurve, from, to, noEquity)
      : moneyCurveStats(marketPnlCurve(ledger, prices, times), `quoted in ${quoteOf(symbol)}, not ${input.valuationCurrency}: no exchange rate is assumed`);
    const marketReturn = sameCurrency && initial.gt(0) ? finite(net.div(initial).toNumber()) : null;
    const unavailable = { ...stats.unavailable };
    delete unavailable.return;
    if (marketReturn === null) unavailable.return = stats.unavailable.return ?? 'too large to be a number';
    markets[symbol] = {
      quoteCurrency: quoteOf(symbol),
      ...stats,
      unavailable,
      netPnl: money(net),
      return: marketReturn,
      realisedPnl: money(realised),
      unrealisedPnl: money(net.minus(realised)),
      fees: money(mFees),
      turnover: money(mTurnover),
      turnoverRatio: sameCurrency && initial.gt(0) ? finite(mTurnover.div(initial).toNumber()) : null,
      exposure: span > 0 ? unionLength(spans) / span : 0,
      fills: fills.length,
      finalPosition: position.toString(),
      orders: orderCounts(input.orders.filter((o) => o.marketSymbol === symbol)),
      ...tradeStats(trips),
    };
    exposureSpans.push(...spans);
    if (quoteOf(symbol) === input.valuationCurrency) {
      fees = fees.plus(mFees);
      turnover = turnover.plus(mTurnover);
      totalTrips.push(...trips);
    } else if (fills.length > 0) excluded.push(symbol);
  }
  const denials: Record<string, number> = {};
  for (const k of Object.keys(input.denials).sort()) denials[k] = input.denials[k]!;
  const firstHold = points[0]?.hold;
  const lastHold = points[points.length - 1]?.hold;
  const holdPnl = firstHold !== undefined && lastHold !== undefined ? new Decimal(lastHold).minus(firstHold) : undefined;
  const total: TotalMetrics = {
    valuationCurrency: input.valuationCurrency,
    initialEquity: money(initial),
    finalEquity: money(final),
    ...curveStats(equity, from, to, noEquity),
    fees: money(fees),
    turnover: money(turnover),
    turnoverRatio: initial.gt(0) ? finite(turnover.div(initial).toNumber()) : null,
    exposure: span > 0 ? unionLength(exposureSpans) / span : 0,
    fills: input.fills.length,
    orders: orderCounts(input.orders),
    denials,
    holdPnl: holdPnl ? money(holdPnl) : null,
    holdReturn: holdPnl && initial.gt(0) ? finite(holdPnl.div(initial).toNumber()) : null,
    netPnlVsHold: holdPnl ? money(final.minus(initial).minus(holdPnl)) : null,
    returnsInterval: returnsInterval(span).name,
    excludedFromTotals: excluded,
    ...tradeStats(totalTrips),
  };
  return { metrics: { total, markets }, trades };
}
