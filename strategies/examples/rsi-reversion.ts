/**
 * Reference example (strategies/README.md): an indicator on trades, warmed on candle history, acting with `place`
 * intents, and reading its own order events (denials, fills).
 *
 * Buys `quantity` when the RSI of trade prices enters the oversold zone, sells what it holds when it enters the
 * overbought zone. One intent per zone entry, with a key naming the trade that caused it.
 */
import { closedCandles, dec, decimalParam, defineStrategy, Decimal, RSI, z, type Intent, type StrategyContext } from 'rexbot/strategy';
import { concat, filter, ignoreElements, map, merge, mergeMap, take, tap, type Observable } from 'rxjs';

const params = z.strictObject({
  /** RSI periods. */
  period: z.number().int().min(2).default(14),
  /** Buy below this RSI. */
  oversold: z.number().min(0).max(100).default(30),
  /** Sell above this RSI. */
  overbought: z.number().min(0).max(100).default(70),
  /** Base quantity per order. */
  quantity: decimalParam({ positive: true }).default(dec('0.001')),
});
type Params = z.output<typeof params>;

function perMarket(ctx: StrategyContext<Params>, market: string): Observable<Intent> {
  const { period, oversold, overbought, quantity } = ctx.params;
  const rsi = new RSI(period);
  let zone: 'low' | 'mid' | 'high' = 'mid';
  // Warm up on the finished one-minute candles the store already holds, then follow every trade.
  const warmUp = ctx.candles$(market, 'MINUTE_1').pipe(
    take(1),
    closedCandles(),
    tap((c) => rsi.update(c.close)),
    ignoreElements(),
  );
  const signals = ctx.trades$(market).pipe(
    map((t) => ({ value: rsi.update(t.rate), trade: t.id })),
    mergeMap(({ value, trade }): Intent[] => {
      if (!value) return [];
      const now = value.lt(oversold) ? 'low' : value.gt(overbought) ? 'high' : 'mid';
      if (now === zone) return [];
      zone = now;
      const held = ctx.portfolio.position(market);
      const size = now === 'low' ? quantity : Decimal.min(quantity, held); // never sell more than held
      if (now === 'mid' || size.lte(0)) return [];
      ctx.log.info({ market, rsi: value.toFixed(2) }, now === 'low' ? 'oversold: buying' : 'overbought: selling');
      const direction = now === 'low' ? 'BUY' : 'SELL';
      return [{ kind: 'place', key: `rsi:${market}:${trade}`, order: { marketSymbol: market, direction, type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: size } }];
    }),
  );
  return concat(warmUp, signals);
}

export default defineStrategy({
  name: 'rsi-reversion',
  description: 'buy when the RSI of trades turns oversold, sell the holding when it turns overbought',
  params,
  setup(ctx) {
    if (ctx.markets.length === 0) throw new Error('rsi-reversion needs at least one market');
    // Outcomes come back as events: log why the risk engine said no, and each fill.
    const outcomes = ctx.orderEvents$.pipe(
      tap((e) => {
        if (e.type === 'denied') ctx.log.warn({ key: e.intentKey, reasons: e.reasons.map((r) => r.code) }, 'order denied');
        if (e.type === 'fill') ctx.log.info({ key: e.intentKey, quantity: e.quantity.toString(), rate: e.rate.toString() }, 'filled');
      }),
      filter(() => false),
    ) as Observable<never>;
    return merge(outcomes, ...ctx.markets.map((m) => perMarket(ctx, m)));
  },
});
