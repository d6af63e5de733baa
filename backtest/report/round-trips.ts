/**
 * Round trips (closed trades) from our fills, by FIFO matching per market.
 *
 * Definition used by every trade statistic in the report (win rate, profit factor, expectancy, average win and
 * loss): fills of one market are taken in time order (ties keep their input order). A fill in the direction of
 * the open position (or from flat) opens a lot. A fill against the position closes the oldest lots first
 * (first in, first out); each piece of a closing fill matched against one lot is one round trip, with
 *
 * - `quantity` the matched quantity,
 * - `pnl` = (exit rate − entry rate) × quantity for a long lot (entry rate − exit rate for a short one),
 *   minus the lot's and the closing fill's commissions pro rata to the matched quantity.
 *
 * What is left of a closing fill after every lot is closed opens a lot the other way (the position flips).
 * Lots still open at the end are not round trips; they count in unrealised PnL. A round trip with a PnL above
 * zero is a win, below zero a loss, exactly zero neither (it still counts as a trade).
 */
import { Decimal, ZERO } from '../../src/core/decimal.js';
import type { ReportFill } from './report-input.js';

/** One closed trade: one lot (or part of it) opened by one fill and closed by a later one. */
export interface RoundTrip {
  marketSymbol: string;
  /** `LONG` when the lot was bought first, `SHORT` when sold first. */
  side: 'LONG' | 'SHORT';
  quantity: Decimal;
  entryAt: number;
  entryRate: Decimal;
  exitAt: number;
  exitRate: Decimal;
  /** Both fills' commissions pro rata to `quantity`. */
  commission: Decimal;
  /** Net of `commission`, in the market's quote currency. */
  pnl: Decimal;
  /** Strategy of the closing fill, when known. */
  strategy?: string | undefined;
}

/** A lot still open at the end. */
export interface OpenLot {
  side: 'LONG' | 'SHORT';
  quantity: Decimal;
  at: number;
  rate: Decimal;
  /** Unspent commission of the opening fill, pro rata to what is left. */
  commission: Decimal;
}

/** Round trips of one market, and the lots left open. */
export interface MarketTrades {
  trips: RoundTrip[];
  open: OpenLot[];
}

interface Lot {
  side: 'LONG' | 'SHORT';
  quantity: Decimal;
  at: number;
  rate: Decimal;
  /** Commission per unit of the opening fill. */
  commissionPerUnit: Decimal;
}

/**
 * Match `fills` of every market FIFO into round trips, per market symbol.
 *
 * @example
 * const { trips } = roundTrips([buy1At100, sell1At110]).get('BTC-USD')!;
 * trips[0].pnl.toString(); // '10' minus both commissions
 */
export function roundTrips(fills: readonly ReportFill[]): Map<string, MarketTrades> {
  const byMarket = new Map<string, ReportFill[]>();
  for (const f of fills) {
    let list = byMarket.get(f.marketSymbol);
    if (!list) byMarket.set(f.marketSymbol, (list = []));
    list.push(f);
  }
  const out = new Map<string, MarketTrades>();
  for (const [symbol, list] of byMarket) out.set(symbol, matchMarket(symbol, list));
  return out;
}

function matchMarket(symbol: string, fills: ReportFill[]): MarketTrades {
  // A stable sort keeps same-time fills in their input (execution) order.
  const sorted = fills.map((f, i) => ({ f, i })).sort((a, b) => a.f.at - b.f.at || a.i - b.i);
  const lots: Lot[] = [];
  const trips: RoundTrip[] = [];
  for (const { f } of sorted) {
    const qty = new Decimal(f.quantity);
    if (qty.lte(0)) continue;
    const rate = new Decimal(f.rate);
    const commissionPerUnit = new Decimal(f.commission).div(qty);
    const side: Lot['side'] = f.direction === 'BUY' ? 'LONG' : 'SHORT';
    let left = qty;
    while (left.gt(0) && lots.length > 0 && lots[0]!.side !== side) {
      const lot = lots[0]!;
      const q = Decimal.min(left, lot.quantity);
      const gross = lot.side === 'LONG' ? rate.minus(lot.rate).times(q) : lot.rate.minus(rate).times(q);
      const commission = lot.commissionPerUnit.plus(commissionPerUnit).times(q);
      trips.push({
        marketSymbol: symbol,
        side: lot.side,
        quantity: q,
        entryAt: lot.at,
        entryRate: lot.rate,
        exitAt: f.at,
        exitRate: rate,
        commission,
        pnl: gross.minus(commission),
        strategy: f.strategy,
      });
      left = left.minus(q);
      lot.quantity = lot.quantity.minus(q);
      if (lot.quantity.isZero()) lots.shift();
    }
    if (left.gt(0)) lots.push({ side, quantity: left, at: f.at, rate, commissionPerUnit });
  }
  return {
    trips,
    open: lots.map((l) => ({ side: l.side, quantity: l.quantity, at: l.at, rate: l.rate, commission: l.commissionPerUnit.times(l.quantity) })),
  };
}

/** Sum of a list of decimals (zero for none). */
export function sum(values: Iterable<Decimal>): Decimal {
  let s = ZERO;
  for (const v of values) s = s.plus(v);
  return s;
}
