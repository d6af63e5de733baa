/**
 * The performance of one equity curve — net PnL, return, CAGR, Sharpe, Sortino, Calmar, maximum drawdown — and,
 * for each ratio left out (`null`), why: the report prints the reason beside the dash, so a reader can tell "not
 * enough run to say" from "no losing hour" from "no starting equity given". Formulas and thresholds are in
 * ratios.ts.
 */
import { ZERO } from '../../src/core/decimal.js';
import { money } from './money.js';
import { fmtDuration } from './report-format.js';
import { cagr, calmar, type CurvePoint, finite, intervalReturns, maxDrawdown, MIN_CAGR_SPAN_MS, MIN_RETURNS, returnsInterval, sharpe, sortino } from './ratios.js';

/** The ratios a curve may leave out. */
export type RatioName = 'return' | 'cagr' | 'sharpe' | 'sortino' | 'calmar';

/** Performance of a curve. */
export interface CurveStats {
  netPnl: string;
  return: number | null;
  cagr: number | null;
  sharpe: number | null;
  sortino: number | null;
  calmar: number | null;
  maxDrawdown: { fraction: number | null; amount: string; peakAt: number | null; troughAt: number | null; recoveredAt: number | null };
  /** Why each ratio that is `null` is left out, one sentence per ratio; empty when every one is shown. */
  unavailable: Partial<Record<RatioName, string>>;
}

const ADJECTIVE: Record<string, string> = { '1d': 'daily', '1h': 'hourly' };

/**
 * Curve statistics of `curve` (absolute account values) over `[from, to]`; `noEquity` is the reason given for every
 * ratio when the curve has no positive start.
 *
 * @example
 * curveStats([{ at: 0, value: dec(1000) }, { at: 3_600_000, value: dec(1010) }], 0, 3_600_000).unavailable.sharpe
 * // 'needs at least 30 hourly returns (a run of 30 h); this run of 1h 0m has 1'
 */
export function curveStats(curve: readonly CurvePoint[], from: number, to: number, noEquity = 'needs a positive starting equity'): CurveStats {
  const first = curve[0]?.value ?? ZERO;
  const last = curve[curve.length - 1]?.value ?? ZERO;
  // Without a positive starting equity (a journal report given none) returns are undefined: money only.
  if (first.lte(0)) return { ...moneyCurveStats(curve, noEquity), netPnl: money(last.minus(first)) };
  const net = last.minus(first);
  const span = to - from;
  const unavailable: Partial<Record<RatioName, string>> = {};
  const iv = returnsInterval(span);
  const rets = intervalReturns(curve, from, to, iv.ms);
  let sharpeValue: number | null = null;
  let sortinoValue: number | null = null;
  if (rets.length < MIN_RETURNS) {
    const why = `needs at least ${MIN_RETURNS} ${ADJECTIVE[iv.name] ?? iv.name} returns (a run of 30 h); this run of ${fmtDuration(Math.max(0, span))} has ${rets.length}`;
    unavailable.sharpe = why;
    unavailable.sortino = why;
  } else {
    sharpeValue = sharpe(rets, iv.ms);
    sortinoValue = sortino(rets, iv.ms);
    if (sharpeValue === null) unavailable.sharpe = `the equity did not vary between ${ADJECTIVE[iv.name] ?? iv.name} samples: no spread to divide by`;
    if (sortinoValue === null) unavailable.sortino = `no ${ADJECTIVE[iv.name] ?? iv.name} return was a loss: no downside to divide by`;
  }
  const dd = maxDrawdown(curve);
  const g = cagr(first, last, span);
  if (g === null) {
    if (span < MIN_CAGR_SPAN_MS) unavailable.cagr = `needs a run of at least 30 days (a shorter run's return compounded into a year says nothing); this run is ${fmtDuration(Math.max(0, span))}`;
    else if (last.lt(0)) unavailable.cagr = 'the equity ended below zero';
    else unavailable.cagr = 'too large to be a number';
  }
  const c = calmar(g, dd.fraction);
  if (c === null) unavailable.calmar = g === null ? 'needs a CAGR (see CAGR)' : dd.fraction > 0 ? 'too large to be a number' : 'no drawdown to divide by';
  const ret = finite(net.div(first).toNumber());
  if (ret === null) unavailable.return = 'too large to be a number';
  return {
    netPnl: money(net),
    return: ret,
    cagr: g,
    sharpe: sharpeValue,
    sortino: sortinoValue,
    calmar: c,
    maxDrawdown: { fraction: dd.fraction, amount: money(dd.amount), peakAt: dd.peakAt, troughAt: dd.troughAt, recoveredAt: dd.recoveredAt },
    unavailable,
  };
}

/**
 * Curve statistics in money only: the drawdown amount and window; every ratio against equity is `null` for
 * `why` (a market quoted in another currency than the equity, or a curve without a positive start).
 */
export function moneyCurveStats(pnl: readonly CurvePoint[], why: string): CurveStats {
  let peak: CurvePoint | undefined;
  let worst = { amount: ZERO, peak: ZERO, peakAt: null as number | null, troughAt: null as number | null, recoveredAt: null as number | null };
  for (const p of pnl) {
    if (worst.troughAt !== null && worst.recoveredAt === null && p.at > worst.troughAt && p.value.gte(worst.peak)) worst.recoveredAt = p.at;
    if (!peak || p.value.gt(peak.value)) {
      peak = p;
      continue;
    }
    const fall = peak.value.minus(p.value);
    if (fall.gt(worst.amount)) worst = { amount: fall, peak: peak.value, peakAt: peak.at, troughAt: p.at, recoveredAt: null };
  }
  return {
    netPnl: money(pnl[pnl.length - 1]?.value ?? ZERO),
    return: null,
    cagr: null,
    sharpe: null,
    sortino: null,
    calmar: null,
    maxDrawdown: { fraction: null, amount: money(worst.amount), peakAt: worst.peakAt, troughAt: worst.troughAt, recoveredAt: worst.recoveredAt },
    unavailable: { return: why, cagr: why, sharpe: why, sortino: why, calmar: why },
  };
}
