/**
 * Reference example (strategies/README.md): resting quotes with the `quotes` intent, paced by the strategy's clock.
 *
 * Keeps `levels` bids and asks `spread` apart around the mid, re-stated at most once a second. Re-emitting the
 * same key replaces the previous ladder; the order manager keeps orders already at a wanted rate and quantity.
 */
import { dec, decimalParam, defineStrategy, ONE, roundRate, z, type Intent, type Quote } from 'rexbot/strategy';
import { filter, map, merge, throttleTime } from 'rxjs';

export default defineStrategy({
  name: 'quote-ladder',
  description: 'a symmetric ladder of resting quotes around the mid',
  params: z.strictObject({
    levels: z.number().int().min(1).max(5).default(2),
    /** Distance between levels and from the mid, as a fraction (0.001 = 0.1 %). */
    spread: decimalParam({ positive: true, max: '0.1' }).default(dec('0.001')),
    quantity: decimalParam({ positive: true }).default(dec('0.001')),
  }),
  setup(ctx) {
    const { levels, spread, quantity } = ctx.params;
    const ladder = (market: string) =>
      ctx.book$(market).pipe(
        // Time-based operators take ctx.scheduler: the clock is virtual in validate, tests and backtests.
        throttleTime(1000, ctx.scheduler, { leading: true, trailing: true }),
        map(() => ctx.mid(market)),
        filter((mid) => mid !== undefined),
        map((mid): Intent => {
          const precision = ctx.marketInfo(market)?.precision;
          const level = (i: number, side: 1 | -1): Quote => ({
            rate: roundRate(mid.times(ONE.plus(spread.times(i * side))), precision, side === 1 ? 'up' : 'down'),
            quantity,
          });
          const steps = Array.from({ length: levels }, (_, i) => i + 1);
          return { kind: 'quotes', key: `ladder:${market}`, marketSymbol: market, bids: steps.map((i) => level(i, -1)), asks: steps.map((i) => level(i, 1)) };
        }),
      );
    return merge(...ctx.markets.map(ladder));
  },
});
