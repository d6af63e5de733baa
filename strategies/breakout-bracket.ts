/**
 * Example strategy: breakout with a bracket.
 *
 * When the price trades above the highest high of the last N finished candles, it buys, and protects the
 * position with a take-profit above and a stop-loss below. The BracketIntent carries all three: the order
 * manager places the entry, and once it fills, the take-profit and the stop-loss as an OCO pair of conditional
 * orders (whichever triggers first cancels the other).
 *
 * Copy this file to start your own. What it shows:
 *  - a signal from candles (the forming candle's close is the latest trade price);
 *  - prices derived from percentages and rounded to the market's precision in the safe direction;
 *  - using orderEvents$ to know when an entry is still in flight, so one breakout gives one bracket;
 *  - keeping such bookkeeping inside the returned observable (merge + ignoreElements), so it stops with the
 *    strategy.
 *
 * Run it:  strategies: [{ use: breakout-bracket, markets: [BTC-USD], params: { lookback: 20, quantity: 0.01 } }]
 */
import { filter, ignoreElements, map, merge, mergeMap, tap, type Observable } from 'rxjs';
import {
  CANDLE_INTERVALS,
  dec,
  decimalParam,
  defineStrategy,
  highest,
  ONE,
  roundRate,
  z,
  type BracketIntent,
  type Intent,
  type OrderSpec,
  type StrategyContext,
} from 'rexbot/strategy';

const params = z.strictObject({
  /** Finished candles whose highest high is the level to break. */
  lookback: z.number().int().min(1).max(1000).default(20),
  /** Candle interval. */
  interval: z.enum(CANDLE_INTERVALS).default('MINUTE_1'),
  /** Base quantity to buy. */
  quantity: decimalParam({ positive: true }).default(dec('0.01')),
  /** Take-profit trigger above the breakout price, as a fraction (0.02 = +2 %). */
  takeProfit: decimalParam({ positive: true }).default(dec('0.02')),
  /** Stop-loss trigger below the breakout price, as a fraction (0.01 = -1 %). */
  stopLoss: decimalParam({ positive: true, max: '0.99' }).default(dec('0.01')),
  /** Entry order: LIMIT IMMEDIATE_OR_CANCEL capped at `entrySlippage` above the breakout price, or MARKET. */
  entryType: z.enum(['LIMIT', 'MARKET']).default('LIMIT'),
  /** Price cap of a LIMIT entry, as a fraction above the breakout price. */
  entrySlippage: decimalParam({ min: 0, max: '0.1' }).default(dec('0.001')),
});

/** The params after validation. */
export type BreakoutParams = z.output<typeof params>;

/** Order events after which an entry is no longer in flight. */
const SETTLED = new Set(['closed', 'denied', 'rejected']);

/** One market: a bracket each time the forming candle closes above the channel high. */
function watchMarket(ctx: StrategyContext<BreakoutParams>, market: string): Observable<Intent> {
  const p = ctx.params;
  const precision = ctx.marketInfo(market)?.precision;
  let inFlight: string | undefined; // key of the bracket whose entry has not settled yet
  let lastTriggered: string | undefined; // the forming candle that gave the last bracket

  // Bookkeeping from our own order events: clears `inFlight` once the entry settled (filled, cancelled as IOC
  // remainder, denied by risk or rejected by the exchange).
  const settle$ = ctx.orderEvents$.pipe(
    tap((e) => {
      if (e.intentKey === inFlight && SETTLED.has(e.type)) inFlight = undefined;
    }),
    ignoreElements(),
  );

  const signals$ = ctx.candles$(market, p.interval).pipe(
    // Need the lookback window plus the forming candle.
    filter((candles) => candles.length > p.lookback),
    map((candles) => {
      const forming = candles[candles.length - 1]!;
      const channelHigh = highest(candles.slice(-1 - p.lookback, -1).map((c) => c.high), p.lookback)!;
      return { forming, channelHigh };
    }),
    // A breakout: the latest price is above every high of the window.
    filter(({ forming, channelHigh }) => forming.close.gt(channelHigh)),
    mergeMap(({ forming, channelHigh }) => {
      const id = forming.startsAt.toISOString();
      // One bracket per candle; none while an entry is in flight or while we still hold the last one.
      if (id === lastTriggered || inFlight !== undefined || ctx.portfolio.position(market).gt(0)) return [];
      lastTriggered = id;
      const price = forming.close;
      const entry: OrderSpec =
        p.entryType === 'MARKET'
          ? { marketSymbol: market, direction: 'BUY', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: p.quantity }
          : {
              marketSymbol: market,
              direction: 'BUY',
              type: 'LIMIT',
              timeInForce: 'IMMEDIATE_OR_CANCEL',
              quantity: p.quantity,
              // Round the cap down: never pay more than configured.
              limit: roundRate(price.times(ONE.plus(p.entrySlippage)), precision, 'down'),
            };
      const bracket: BracketIntent = {
        kind: 'bracket',
        key: `breakout:${market}:${id}`,
        entry,
        // Round the exits away from the entry: never tighter than configured.
        takeProfit: roundRate(price.times(ONE.plus(p.takeProfit)), precision, 'up'),
        stopLoss: roundRate(price.times(ONE.minus(p.stopLoss)), precision, 'down'),
      };
      inFlight = bracket.key;
      ctx.log.info({ market, price: price.toString(), channelHigh: channelHigh.toString() }, 'breakout');
      return [bracket];
    }),
  );

  return merge(signals$, settle$);
}

export default defineStrategy({
  name: 'breakout-bracket',
  description: 'buy a breakout above the N-period high with a take-profit / stop-loss OCO bracket',
  params,
  // The bracket's legs are conditional orders; a MARKET entry is a market order. A venue without them (v1.1)
  // refuses the config before it runs.
  uses: (p) => (p.entryType === 'MARKET' ? ['conditionalOrders', 'marketOrders'] : ['conditionalOrders']),
  setup(ctx) {
    if (ctx.markets.length === 0) throw new Error('breakout-bracket needs at least one market');
    return merge(...ctx.markets.map((m) => watchMarket(ctx, m)));
  },
});
