/**
 * One market's contribution to the account over time, rebuilt from our fills and the market's prices: cash
 * flows of the fills (sells bring quote in, buys take it out, commissions always out) plus the position marked
 * at the last price known at that moment. Exact decimals throughout.
 */
import { Decimal, ZERO } from '../../src/core/decimal.js';
import type { ReportFill, ReportPricePoint } from './report-input.js';
import type { CurvePoint } from './ratios.js';

/** A market's running cash flow and position after each of its fills. */
export interface MarketLedger {
  /** Fills sorted by time (stable). */
  fills: ReportFill[];
  /** After fill k: cumulative cash flow in quote currency. */
  cash: Decimal[];
  /** After fill k: position in base currency. */
  position: Decimal[];
}

/** Fold a market's fills into running cash and position. */
export function marketLedger(fills: readonly ReportFill[]): MarketLedger {
  const sorted = fills.map((f, i) => ({ f, i })).sort((a, b) => a.f.at - b.f.at || a.i - b.i).map((x) => x.f);
  const cash: Decimal[] = [];
  const position: Decimal[] = [];
  let c = ZERO;
  let p = ZERO;
  for (const f of sorted) {
    const q = new Decimal(f.quantity);
    const notional = q.times(f.rate);
    if (f.direction === 'BUY') {
      c = c.minus(notional);
      p = p.plus(q);
    } else {
      c = c.plus(notional);
      p = p.minus(q);
    }
    c = c.minus(f.commission);
    cash.push(c);
    position.push(p);
  }
  return { fills: sorted, cash, position };
}

/**
 * The market's PnL (cash + position × price) at each time of `times` (ascending). The price at a time is the
 * last recorded price at or before it, or failing that the last fill rate at or before it.
 */
export function marketPnlCurve(ledger: MarketLedger, prices: readonly ReportPricePoint[], times: readonly number[]): CurvePoint[] {
  const out: CurvePoint[] = [];
  let fi = 0;
  let pi = 0;
  let cash = ZERO;
  let pos = ZERO;
  let price: Decimal | undefined;
  let fillPrice: Decimal | undefined;
  for (const t of times) {
    while (fi < ledger.fills.length && ledger.fills[fi]!.at <= t) {
      cash = ledger.cash[fi]!;
      pos = ledger.position[fi]!;
      fillPrice = new Decimal(ledger.fills[fi]!.rate);
      fi++;
    }
    while (pi < prices.length && prices[pi]!.at <= t) price = new Decimal(prices[pi++]!.price);
    const mark = price ?? fillPrice;
    out.push({ at: t, value: mark ? cash.plus(pos.times(mark)) : cash });
  }
  return out;
}

/** Last price of the market: the last recorded price, else the last fill rate, else undefined. */
export function lastPrice(ledger: MarketLedger, prices: readonly ReportPricePoint[]): Decimal | undefined {
  const p = prices[prices.length - 1];
  if (p) return new Decimal(p.price);
  const f = ledger.fills[ledger.fills.length - 1];
  return f ? new Decimal(f.rate) : undefined;
}

/**
 * Fraction of `[from, to]` during which the position was not zero, from the ledger's positions. Starting
 * holdings are not a position: only what our fills changed counts.
 */
export function exposureIntervals(ledger: MarketLedger, from: number, to: number): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let openedAt: number | null = null;
  for (let k = 0; k < ledger.fills.length; k++) {
    const at = Math.min(Math.max(ledger.fills[k]!.at, from), to);
    const flat = ledger.position[k]!.isZero();
    if (openedAt === null && !flat) openedAt = at;
    else if (openedAt !== null && flat) {
      spans.push([openedAt, at]);
      openedAt = null;
    }
  }
  if (openedAt !== null) spans.push([openedAt, to]);
  return spans;
}

/** Total length of the union of `spans`. */
export function unionLength(spans: ReadonlyArray<[number, number]>): number {
  const s = [...spans].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let curStart = -Infinity;
  let curEnd = -Infinity;
  for (const [a, b] of s) {
    if (a > curEnd) {
      if (curEnd > curStart) total += curEnd - curStart;
      curStart = a;
      curEnd = b;
    } else if (b > curEnd) curEnd = b;
  }
  if (curEnd > curStart) total += curEnd - curStart;
  return total;
}
