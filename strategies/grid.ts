/**
 * Example strategy: a static price grid.
 *
 * The range [lower, upper] is cut into `levels` equal steps. Below the current price every line gets a buy
 * limit order, above it a sell. When a buy at line i fills completely, a sell goes up at line i + 1; when a sell
 * at line i fills, a buy goes down at line i - 1. In a ranging market each round trip earns one step.
 *
 * Copy this file to start your own. What it shows:
 *  - params where either both bounds are given or a range around the first mid is used (cross-field rules);
 *  - a one-off start (the first mid) followed by a reaction loop on our own fills (ctx.fills$);
 *  - stable intent keys per grid line (`grid:<market>:<line>`), so the fill events name the line they belong to
 *    and a re-placed order replaces whatever wish that line had;
 *  - handling partial fills: the opposite order goes up when the line's whole quantity has filled.
 *
 * Run it:  strategies: [{ use: grid, markets: [ETH-BTC], params: { lower: 0.05, upper: 0.07, levels: 10, quantity: 0.1 } }]
 */
import { filter, from, map, merge, mergeMap, take, type Observable } from 'rxjs';
import { dec, Decimal, decimalParam, defineStrategy, ONE, roundRate, z, ZERO, type Intent, type OrderDirection, type StrategyContext } from 'rexbot/strategy';

const params = z
  .strictObject({
    /** Lowest grid line. Give both bounds, or neither to use `range` around the first mid. */
    lower: decimalParam({ positive: true }).optional(),
    /** Highest grid line. */
    upper: decimalParam({ positive: true }).optional(),
    /** Without bounds: the grid spans mid × (1 ± range) (0.05 = ±5 %). */
    range: decimalParam({ positive: true, max: '0.9' }).default(dec('0.05')),
    /** Number of steps between lower and upper (lines = levels + 1). */
    levels: z.number().int().min(2).max(200).default(10),
    /** Base quantity of every order. */
    quantity: decimalParam({ positive: true }).default(dec('0.001')),
    /** Use POST_ONLY_GOOD_TIL_CANCELLED so a grid order never takes liquidity. */
    postOnly: z.boolean().default(false),
  })
  .refine((p) => (p.lower === undefined) === (p.upper === undefined), { message: 'give both lower and upper, or neither', path: ['lower'] })
  .refine((p) => p.lower === undefined || p.upper === undefined || p.lower.lt(p.upper), { message: 'lower must be below upper', path: ['lower'] });

/** The params after validation. */
export type GridParams = z.output<typeof params>;

/** The grid line prices, lowest first, rounded to the market precision. */
export function gridLines(lower: Decimal, upper: Decimal, levels: number, precision?: number): Decimal[] {
  const step = upper.minus(lower).div(levels);
  return Array.from({ length: levels + 1 }, (_, i) => roundRate(lower.plus(step.times(i)), precision, 'nearest'));
}

/** One market's grid. */
function runGrid(ctx: StrategyContext<GridParams>, market: string): Observable<Intent> {
  const p = ctx.params;
  const precision = ctx.marketInfo(market)?.precision;
  const prefix = `grid:${market}:`;
  const timeInForce = p.postOnly ? 'POST_ONLY_GOOD_TIL_CANCELLED' : 'GOOD_TIL_CANCELLED';

  // The order for line i: its key names the line, so its fills tell us which line filled.
  const order = (lines: Decimal[], i: number, direction: OrderDirection): Intent => ({
    kind: 'place',
    key: `${prefix}${i}`,
    order: { marketSymbol: market, direction, type: 'LIMIT', timeInForce, quantity: p.quantity, limit: lines[i]! },
  });

  const start = (mid: Decimal): Observable<Intent> => {
    const lower = p.lower ?? mid.times(ONE.minus(p.range));
    const upper = p.upper ?? mid.times(ONE.plus(p.range));
    const lines = gridLines(lower, upper, p.levels, precision);
    ctx.log.info({ market, lower: lines[0]!.toString(), upper: lines[p.levels]!.toString(), mid: mid.toString() }, 'grid start');

    // Initial orders: buys below the mid, sells above; a line exactly at the mid stays empty.
    const initial: Intent[] = [];
    lines.forEach((rate, i) => {
      if (rate.lt(mid)) initial.push(order(lines, i, 'BUY'));
      else if (rate.gt(mid)) initial.push(order(lines, i, 'SELL'));
    });

    // Filled quantity per line since its order was placed (fills may come in several executions).
    const filled = new Map<number, Decimal>();
    const refills$ = ctx.fills$(market).pipe(
      filter((f) => f.intentKey.startsWith(prefix)),
      mergeMap((f) => {
        const line = Number(f.intentKey.slice(prefix.length));
        const total = (filled.get(line) ?? ZERO).plus(f.quantity);
        if (total.lt(p.quantity)) {
          filled.set(line, total); // partial fill: wait for the rest
          return [];
        }
        filled.delete(line);
        // The opposite order one step away: buy filled → sell above; sell filled → buy below.
        const next = f.direction === 'BUY' ? line + 1 : line - 1;
        if (next < 0 || next > p.levels) return []; // filled at the edge of the grid
        filled.delete(next); // a fresh order on that line: count its fills from zero
        return [order(lines, next, f.direction === 'BUY' ? 'SELL' : 'BUY')];
      }),
    );
    // Listen for fills first, then place: no fill can slip between the two.
    return merge(refills$, from(initial));
  };

  // Start once, from the first mid the book gives (store, then publish: ctx.mid reads the update we got).
  return ctx.book$(market).pipe(
    map(() => ctx.mid(market)),
    filter((mid): mid is Decimal => mid !== undefined),
    take(1),
    mergeMap(start),
  );
}

export default defineStrategy({
  name: 'grid',
  description: 'static grid of buy and sell limit orders; a fill re-places the opposite order one step away',
  params,
  setup(ctx) {
    if (ctx.markets.length === 0) throw new Error('grid needs at least one market');
    if (ctx.params.lower !== undefined && ctx.markets.length > 1) throw new Error('fixed lower/upper bounds only make sense for one market');
    return merge(...ctx.markets.map((m) => runGrid(ctx, m)));
  },
});
