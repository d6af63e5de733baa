/**
 * The report's time series (equity, drawdown, position, price), thinned for drawing. A long run marks its
 * equity millions of times; a chart a few thousand pixels wide shows no more than a few thousand points, so
 * each series is cut into equal-count buckets and each bucket keeps its lowest and highest point in time
 * order. Peaks and troughs, and so the drawdowns the eye looks for, survive; the thinning is deterministic.
 */
import { Decimal } from '../../src/core/decimal.js';
import type { ReportEquityPoint, ReportInput } from './report-input.js';

/** `[epoch ms, value]` pairs; values are decimal strings for money and positions, numbers for drawdown. */
export type Series<V> = Array<[number, V]>;

/** The series of a report. */
export interface ReportSeries {
  /** Account equity in the valuation currency. */
  equity: Series<string>;
  /**
   * The starting balances alone, never traded, at the same times as {@link ReportSeries.equity} (one point per
   * equity point, `null` where they had no value): the line the equity is read against.
   */
  hold: Series<string | null>;
  /** Fall below the running peak of equity, as a fraction (0.1 = 10 % below the peak); ≥ 0. */
  drawdown: Series<number>;
  /** Position (base currency, net of the start) per market. */
  positions: Record<string, Series<string>>;
  /** Recorded price per market. */
  prices: Record<string, Series<string>>;
}

/** Most points kept per series. */
export const MAX_POINTS = 4000;

/**
 * Keep at most about `max` points of `points`: each bucket of equal count keeps its min and max by `value`.
 *
 * @example
 * thin([[0, 1], [1, 5], [2, 3], [3, 0]], 2, (v) => v) // [[1, 5], [3, 0]]
 */
export function thin<V>(points: Series<V>, max: number, value: (v: V) => number): Series<V> {
  if (points.length <= max) return points;
  const buckets = Math.max(1, Math.floor(max / 2));
  const size = Math.ceil(points.length / buckets);
  const out: Series<V> = [];
  for (let start = 0; start < points.length; start += size) {
    const end = Math.min(points.length, start + size);
    let lo = start;
    let hi = start;
    for (let i = start + 1; i < end; i++) {
      const v = value(points[i]![1]);
      if (v < value(points[lo]![1])) lo = i;
      if (v > value(points[hi]![1])) hi = i;
    }
    if (lo === hi) out.push(points[lo]!);
    else if (lo < hi) out.push(points[lo]!, points[hi]!);
    else out.push(points[hi]!, points[lo]!);
  }
  return out;
}

/**
 * The equity points that value every holding: points marked `stale` (some holding had no current rate, e.g.
 * before the first book of its market arrived) are left out of the curve and its metrics, so a holding first
 * valued at nothing does not read as profit. When every point is stale, all are kept.
 */
export function valuedEquity(input: ReportInput): ReportEquityPoint[] {
  const valued = input.equity.filter((p) => !p.stale);
  return valued.length > 0 ? valued : input.equity;
}

/** Build the drawable series of `input`, each thinned to about {@link MAX_POINTS}. */
export function reportSeries(input: ReportInput, max = MAX_POINTS): ReportSeries {
  const points = valuedEquity(input);
  const equity: Series<string> = points.map((p) => [p.at, p.equity]);
  const drawdown: Series<number> = [];
  let peak: Decimal | undefined;
  for (const p of points) {
    const v = new Decimal(p.equity);
    if (!peak || v.gt(peak)) peak = v;
    drawdown.push([p.at, peak.gt(0) ? peak.minus(v).div(peak).toNumber() : 0]);
  }
  const positions: Record<string, Series<string>> = {};
  for (const symbol of [...input.markets].sort()) {
    const s: Series<string> = [];
    for (const p of points) s.push([p.at, p.positions[symbol] ?? '0']);
    positions[symbol] = thin(s, max, Number);
  }
  const prices: Record<string, Series<string>> = {};
  for (const symbol of Object.keys(input.prices).sort()) {
    prices[symbol] = thin(
      input.prices[symbol]!.map((p) => [p.at, p.price] as [number, string]),
      max,
      Number,
    );
  }
  const thinned = thin(equity, max, Number);
  // The hold line follows the equity points the thinning kept, so both share the chart's time axis.
  const holdAt = new Map(points.map((p) => [p.at, p.hold ?? null]));
  const hold: Series<string | null> = thinned.map(([at]) => [at, holdAt.get(at) ?? null]);
  return { equity: thinned, hold, drawdown: thin(drawdown, max, (v) => v), positions, prices };
}

/** A fill as the report page draws it: time, side, rate. */
export type FillMarker = [number, string, string];

/** The fills drawn over each market's price, and how many there were. */
export interface FillMarkers {
  byMarket: Record<string, FillMarker[]>;
  drawn: number;
  total: number;
}

/**
 * Our fills as markers per market, each side thinned like the series to about `max` (each stretch of time keeps
 * its highest and lowest rate): a long run's hundreds of thousands of fills are not told apart on a chart a page
 * wide, and all of them made the page tens of megabytes. report.json keeps every fill.
 */
export function fillMarkers(fills: ReadonlyArray<{ at: number; marketSymbol: string; direction: string; rate: string }>, markets: readonly string[], max = MAX_POINTS): FillMarkers {
  const sides: Record<string, { BUY: Series<string>; SELL: Series<string> }> = {};
  for (const m of markets) sides[m] = { BUY: [], SELL: [] };
  for (const f of fills) {
    const s = (sides[f.marketSymbol] ??= { BUY: [], SELL: [] });
    (f.direction === 'BUY' ? s.BUY : s.SELL).push([f.at, f.rate]);
  }
  const byMarket: Record<string, FillMarker[]> = {};
  let drawn = 0;
  for (const [m, s] of Object.entries(sides)) {
    const out: FillMarker[] = [];
    for (const side of ['BUY', 'SELL'] as const) for (const [at, rate] of thin(s[side], max, Number)) out.push([at, side, rate]);
    out.sort((a, b) => a[0] - b[0]);
    byMarket[m] = out;
    drawn += out.length;
  }
  return { byMarket, drawn, total: fills.length };
}
