/**
 * Example strategy: moving-average crossover.
 *
 * When the fast simple moving average crosses above the slow one (a "golden cross") it buys; when it crosses
 * below (a "death cross") it sells what it holds. Prices come from closed candles (default MINUTE_1) or from
 * individual trades.
 *
 * Copy this file to start your own. What it shows:
 *  - a params schema with a cross-field rule (fast < slow);
 *  - turning store data into a price series, and the series into signals with pure functions (sma, crossDirection);
 *  - acting on a signal either with orders (PlaceIntent: MARKET, or LIMIT IMMEDIATE_OR_CANCEL with a price cap)
 *    or by stating the position it wants (TargetPositionIntent) and letting the order manager get there;
 *  - intent keys: a new key per order (each cross is a new wish), one key per market for a target position
 *    (each new target replaces the previous one).
 *
 * Run it:  strategies: [{ use: ma-crossover, markets: [ETH-BTC], params: { fast: 10, slow: 30, quantity: 0.5 } }]
 */
import { distinctUntilChanged, filter, map, merge, mergeMap, scan, type Observable } from 'rxjs';
import {
  CANDLE_INTERVALS,
  crossDirection,
  dec,
  Decimal,
  decimalParam,
  defineStrategy,
  ONE,
  roundRate,
  sma,
  z,
  ZERO,
  type Cross,
  type Intent,
  type StrategyContext,
} from 'rexbot/strategy';

const params = z
  .strictObject({
    /** Periods of the fast average. */
    fast: z.number().int().min(1).default(10),
    /** Periods of the slow average. */
    slow: z.number().int().min(2).default(30),
    /** Price series: closes of finished candles, or every trade's price. */
    source: z.enum(['candles', 'trades']).default('candles'),
    /** Candle interval when source is candles. */
    interval: z.enum(CANDLE_INTERVALS).default('MINUTE_1'),
    /** `order`: buy/sell `quantity` on a cross. `target`: hold `quantity` after a golden cross, nothing after a death cross. */
    mode: z.enum(['order', 'target']).default('order'),
    /** Order type in `order` mode. LIMIT orders are IMMEDIATE_OR_CANCEL with a price cap of `slippage`. */
    orderType: z.enum(['MARKET', 'LIMIT']).default('MARKET'),
    /** Base quantity to trade. */
    quantity: decimalParam({ positive: true }).default(dec('0.01')),
    /** Worst price accepted, as a fraction away from the touch (0.002 = 0.2 %). */
    slippage: decimalParam({ min: 0, max: '0.1' }).default(dec('0.002')),
  })
  .refine((p) => p.fast < p.slow, { message: 'fast must be smaller than slow', path: ['fast'] });

/** The params after validation. */
export type MaCrossoverParams = z.output<typeof params>;

/** A price series and the id of its newest point (which candle or trade it ends with). */
interface Series {
  prices: Decimal[];
  id: string;
}

/** Which way the averages crossed at the last point of the series, comparing the last two points. */
export function crossAtEnd(prices: readonly Decimal[], fast: number, slow: number): Cross {
  const prevFast = sma(prices.slice(0, -1), fast);
  const prevSlow = sma(prices.slice(0, -1), slow);
  const fastNow = sma(prices, fast);
  const slowNow = sma(prices, slow);
  if (!prevFast || !prevSlow || !fastNow || !slowNow) return undefined; // not enough history yet
  return crossDirection({ fast: prevFast, slow: prevSlow }, { fast: fastNow, slow: slowNow });
}

/** Closes of finished candles. The store's last candle is still forming, so it is left out. */
function candleSeries(ctx: StrategyContext<MaCrossoverParams>, market: string): Observable<Series> {
  const { interval, slow } = ctx.params;
  return ctx.candles$(market, interval).pipe(
    filter((candles) => candles.length >= 2),
    map((candles) => {
      const closed = candles.slice(Math.max(0, candles.length - 1 - (slow + 1)), -1);
      return { prices: closed.map((c) => c.close), id: closed[closed.length - 1]!.startsAt.toISOString() };
    }),
    // The forming candle updates on every trade; only a newly finished candle is a new point.
    distinctUntilChanged((a, b) => a.id === b.id),
  );
}

/** The last `slow + 1` trade prices (enough for the previous and the current slow average). */
function tradeSeries(ctx: StrategyContext<MaCrossoverParams>, market: string): Observable<Series> {
  const keep = ctx.params.slow + 1;
  return ctx.trades$(market).pipe(
    scan((acc: Series, t) => ({ prices: [...acc.prices, t.rate].slice(-keep), id: t.id }), { prices: [], id: '' }),
  );
}

/** What to do on a cross, or nothing. */
function act(ctx: StrategyContext<MaCrossoverParams>, market: string, cross: 'up' | 'down', id: string): Intent | undefined {
  const p = ctx.params;
  if (p.mode === 'target') {
    // State the wish; the order manager sizes and prices the order (IOC limit within maxSlippage of the mid).
    return { kind: 'targetPosition', key: `ma:${market}`, marketSymbol: market, position: cross === 'up' ? p.quantity : ZERO, maxSlippage: p.slippage };
  }
  const held = ctx.portfolio.position(market);
  // Buy on a golden cross; on a death cross sell what we hold (up to quantity) — never go short on spot.
  const quantity = cross === 'up' ? p.quantity : Decimal.min(p.quantity, held);
  if (quantity.lte(0)) return undefined;
  const direction = cross === 'up' ? 'BUY' : 'SELL';
  const key = `ma:${market}:${id}`; // one key per signal: each cross is a new order
  if (p.orderType === 'MARKET') {
    return { kind: 'place', key, order: { marketSymbol: market, direction, type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity } };
  }
  // LIMIT IOC: take what is available up to a price cap, cancel the rest. Cap from the touch we would trade against.
  const touch = direction === 'BUY' ? ctx.market.bestAsk(market)?.rate : ctx.market.bestBid(market)?.rate;
  if (!touch) return undefined; // no book to price against
  const precision = ctx.marketInfo(market)?.precision;
  const limit =
    direction === 'BUY'
      ? roundRate(touch.times(ONE.plus(p.slippage)), precision, 'down') // never pay more than the cap
      : roundRate(touch.times(ONE.minus(p.slippage)), precision, 'up'); // never sell for less than the cap
  return { kind: 'place', key, order: { marketSymbol: market, direction, type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity, limit } };
}

export default defineStrategy({
  name: 'ma-crossover',
  description: 'buy on a golden cross, sell on a death cross of two simple moving averages',
  params,
  uses: (p) => (p.orderType === 'MARKET' ? ['marketOrders'] : []),
  setup(ctx) {
    if (ctx.markets.length === 0) throw new Error('ma-crossover needs at least one market');
    const { fast, slow, source } = ctx.params;
    const perMarket = (market: string): Observable<Intent> =>
      (source === 'candles' ? candleSeries(ctx, market) : tradeSeries(ctx, market)).pipe(
        mergeMap((s) => {
          const cross = crossAtEnd(s.prices, fast, slow);
          if (!cross) return [];
          ctx.log.info({ market, cross, at: s.id }, cross === 'up' ? 'golden cross' : 'death cross');
          const intent = act(ctx, market, cross, s.id);
          return intent ? [intent] : [];
        }),
      );
    return merge(...ctx.markets.map(perMarket));
  },
});
