/**
 * The past of a synthetic market: a tape of trades over the hours before the simulator starts, ending at the
 * price the live market starts from, so a client that connects at once finds recent trades, a 24-hour summary and
 * candles of every interval, and an indicator strategy starts warm. Generated in memory in milliseconds (no
 * orders are matched: nobody's balance is involved), from the market's seeded generator.
 *
 * The path is the same mean-reverting random walk the live market follows ({@link PriceWalk}), walked from the
 * start price backwards in time (the walk is symmetric in time around its anchor), so it joins the live prices.
 */
import { Decimal } from '../../core/decimal.js';
import type { Trade } from '../../model/market.js';
import type { MarketConfig } from '../config.js';
import { PriceWalk } from './price-walk.js';
import type { Prng } from './prng.js';

/** Inputs of {@link historyTape}. */
export interface HistoryTapeOptions {
  market: Pick<MarketConfig, 'symbol' | 'minTradeSize' | 'precision'>;
  /** Price of the last trade (the live market's start price). */
  endPrice: Decimal;
  /** Epoch ms the tape ends before (the simulator's start). */
  endAt: number;
  /** How far back the tape reaches, in ms. */
  spanMs: number;
  volatilityPerSqrtSecond: number;
  anchorPullPerSecond: number;
  /** Order sizes in lots of minTradeSize, as the live taker uses. */
  lots: [min: number, max: number];
  rng: Prng;
  /** Mean time between trades (default 12 s); every gap is below a minute, so every minute has a candle. */
  meanGapMs?: number;
}

/** Longest gap between two history trades: under a minute, so no MINUTE_1 candle is missing. */
const MAX_GAP_MS = 55_000;

/**
 * Trades over `[endAt - spanMs, endAt)`, oldest first, the last one at `endPrice`.
 *
 * @example
 * const trades = historyTape({ market, endPrice: dec('30000'), endAt: clock.now(), spanMs: 86_400_000, ... });
 * engine.marketData.seedHistory('BTC-USD', trades);
 */
export function historyTape(o: HistoryTapeOptions): Trade[] {
  const meanGap = o.meanGapMs ?? 12_000;
  const walk = new PriceWalk(
    { anchor: o.endPrice, volatilityPerSqrtSecond: o.volatilityPerSqrtSecond, anchorPullPerSecond: o.anchorPullPerSecond, precision: o.market.precision },
    o.rng.fork('walk'),
  );
  const out: Trade[] = [];
  let at = o.endAt - 1 - o.rng.int(Math.min(meanGap, MAX_GAP_MS)); // the newest trade, shortly before the start
  const start = o.endAt - o.spanMs;
  while (at >= start) {
    out.push({
      id: uuidFrom(o.rng),
      executedAt: new Date(at),
      quantity: o.market.minTradeSize.times(o.rng.intBetween(o.lots[0], o.lots[1])),
      rate: walk.mid(),
      takerSide: o.rng.chance(0.5) ? 'BUY' : 'SELL',
    });
    const gap = Math.min(MAX_GAP_MS, Math.max(1, Math.round(o.rng.exponential(1 / meanGap))));
    walk.advance(gap); // one step further into the past
    at -= gap;
  }
  return out.reverse();
}

const HEX = '0123456789abcdef';

/**
 * A version-4-shaped uuid from the seeded generator, so a seeded simulator's history is reproducible. A day of
 * history is ~7200 of them per market: one string built digit by digit (no arrays, no closures per call) keeps
 * that to milliseconds; the digits are drawn in the same order as ever, so a seed gives the same ids.
 */
function uuidFrom(rng: Prng): string {
  return `${hexDigits(rng, 8)}-${hexDigits(rng, 4)}-4${hexDigits(rng, 3)}-${HEX[8 + rng.int(4)]}${hexDigits(rng, 3)}-${hexDigits(rng, 12)}`;
}

function hexDigits(rng: Prng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += HEX[rng.int(16)];
  return s;
}
