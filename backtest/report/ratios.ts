/**
 * Risk and return ratios of an equity curve. Money stays exact (decimal.js); ratios are plain numbers.
 *
 * Conventions (printed in the report's notes too):
 * - A year is 365 days: crypto venues trade every day, so there is no 252-trading-day year.
 * - Returns for Sharpe and Sortino are simple returns of the equity curve resampled at a fixed interval: daily for
 *   a run of at least {@link MIN_RETURNS} days, hourly otherwise. The equity at the end of an interval is the last
 *   point at or before it (a step curve). They are annualised by √(intervals per year), with a risk-free rate of
 *   zero. The report shows them only from {@link MIN_RETURNS} returns on (a run of 30 hours): annualising the
 *   seconds or minutes of a shorter run gave figures in the hundreds or thousands (1727 for a 12-second paper run)
 *   that say nothing about a year (see curve-stats.ts, which says why a ratio is left out).
 * - Sharpe = mean / sample standard deviation (n − 1); Sortino = mean / downside deviation, where the
 *   downside deviation is √(Σ min(r, 0)² / n). Either is `null` with fewer than two returns or no spread.
 * - CAGR = (final / initial)^(year / run length) − 1; `null` for a run shorter than {@link MIN_CAGR_SPAN_MS}
 *   (30 days: compounding a shorter run into a year raises its return to a power above 12 — an ordinary +1 % day
 *   reads as +3678 %), when it is not a finite number, or when the initial equity is not positive.
 * - Calmar = CAGR / maximum drawdown (as a fraction); `null` without a drawdown or a CAGR.
 */
import { type Decimal, ZERO } from '../../src/core/decimal.js';

/** Milliseconds in the 365-day year used to annualise. */
export const YEAR_MS = 365 * 86_400_000;

/** Shortest run with a CAGR (and so a Calmar ratio): 30 days. */
export const MIN_CAGR_SPAN_MS = 30 * 86_400_000;

/** Fewest resampled returns behind a Sharpe or Sortino ratio the report shows. */
export const MIN_RETURNS = 30;

/** Candidate resampling intervals, largest first: nothing shorter than an hour is annualised. */
const INTERVALS: ReadonlyArray<{ ms: number; name: string }> = [
  { ms: 86_400_000, name: '1d' },
  { ms: 3_600_000, name: '1h' },
];

/** A point of a curve in exact money. */
export interface CurvePoint {
  at: number;
  value: Decimal;
}

/** The largest peak-to-trough fall and where it was. */
export interface Drawdown {
  /** Largest fall as a fraction of the peak (0.1 = 10 %). */
  fraction: number;
  /** The same fall in money. */
  amount: Decimal;
  peakAt: number | null;
  troughAt: number | null;
  /** When the curve first got back to the peak after the trough; `null` if it never did. */
  recoveredAt: number | null;
}

/**
 * Maximum drawdown by fraction of the running peak (the amount is the fall of that same window).
 *
 * @example
 * maxDrawdown([{ at: 0, value: dec(100) }, { at: 1, value: dec(80) }, { at: 2, value: dec(120) }]).fraction // 0.2
 */
export function maxDrawdown(points: readonly CurvePoint[]): Drawdown {
  const none: Drawdown = { fraction: 0, amount: ZERO, peakAt: null, troughAt: null, recoveredAt: null };
  if (points.length === 0) return none;
  let peak = points[0]!;
  // The deepest fall so far as fall / peak, compared by cross-multiplication (fall·bestPeak > bestFall·peak):
  // a long curve costs two multiplications per point instead of a 40-digit division.
  let bestFall = ZERO;
  let bestPeak: CurvePoint | null = null;
  let bestTrough: CurvePoint | null = null;
  let recoveredAt: number | null = null;
  for (const p of points) {
    if (bestPeak !== null && recoveredAt === null && p.at > bestTrough!.at && p.value.gte(bestPeak.value)) recoveredAt = p.at;
    if (p.value.gt(peak.value)) {
      peak = p;
      continue;
    }
    if (peak.value.lte(0)) continue;
    const fall = peak.value.minus(p.value);
    if (fall.isZero()) continue;
    if (bestPeak === null || fall.times(bestPeak.value).gt(bestFall.times(peak.value))) {
      bestFall = fall;
      bestPeak = peak;
      bestTrough = p;
      recoveredAt = null;
    }
  }
  if (bestPeak === null) return none;
  return { fraction: bestFall.div(bestPeak.value).toNumber(), amount: bestFall, peakAt: bestPeak.at, troughAt: bestTrough!.at, recoveredAt };
}

/** The resampling interval for a run of `spanMs`: daily from {@link MIN_RETURNS} days on, else hourly. */
export function returnsInterval(spanMs: number): { ms: number; name: string } {
  for (const iv of INTERVALS) if (spanMs / iv.ms >= MIN_RETURNS) return iv;
  return INTERVALS[INTERVALS.length - 1]!;
}

/**
 * Simple returns of the step curve `points` sampled every `intervalMs` from `from` to `to` (the last, partial
 * interval is dropped so each return covers the same time).
 */
export function intervalReturns(points: readonly CurvePoint[], from: number, to: number, intervalMs: number): number[] {
  if (points.length === 0 || to <= from) return [];
  const values: Decimal[] = [];
  let i = 0;
  let current = points[0]!.value;
  for (let t = from; t <= to; t += intervalMs) {
    while (i < points.length && points[i]!.at <= t) current = points[i++]!.value;
    values.push(current);
  }
  const out: number[] = [];
  for (let k = 1; k < values.length; k++) {
    const prev = values[k - 1]!;
    if (prev.lte(0)) continue;
    out.push(values[k]!.minus(prev).div(prev).toNumber());
  }
  return out;
}

function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** Annualised Sharpe ratio of `returns` taken every `intervalMs`; `null` when undefined. */
export function sharpe(returns: readonly number[], intervalMs: number): number | null {
  if (returns.length < 2) return null;
  const m = mean(returns);
  let ss = 0;
  for (const r of returns) ss += (r - m) ** 2;
  const sd = Math.sqrt(ss / (returns.length - 1));
  if (!(sd > 0)) return null;
  return finite((m / sd) * Math.sqrt(YEAR_MS / intervalMs));
}

/** Annualised Sortino ratio of `returns` taken every `intervalMs`; `null` when undefined. */
export function sortino(returns: readonly number[], intervalMs: number): number | null {
  if (returns.length < 2) return null;
  const m = mean(returns);
  let ss = 0;
  for (const r of returns) if (r < 0) ss += r * r;
  const dd = Math.sqrt(ss / returns.length);
  if (!(dd > 0)) return null;
  return finite((m / dd) * Math.sqrt(YEAR_MS / intervalMs));
}

/** Compound annual growth rate from `initial` to `final` over `spanMs`; `null` when undefined. */
export function cagr(initial: Decimal, final: Decimal, spanMs: number): number | null {
  if (initial.lte(0) || spanMs < MIN_CAGR_SPAN_MS || final.lt(0)) return null;
  return finite(final.div(initial).toNumber() ** (YEAR_MS / spanMs) - 1);
}

/** Calmar ratio: CAGR over the maximum drawdown fraction; `null` when either is missing. */
export function calmar(cagrValue: number | null, drawdownFraction: number): number | null {
  if (cagrValue === null || !(drawdownFraction > 0)) return null;
  return finite(cagrValue / drawdownFraction);
}

/** `x`, or `null` when it is NaN or infinite (JSON has no such numbers). */
export function finite(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}
