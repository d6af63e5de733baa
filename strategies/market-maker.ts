/**
 * Example strategy: a market maker that keeps a ladder of bids and asks around the mid price.
 *
 * Copy this file to start your own. What it shows:
 *  - params with defaults, validated from the YAML `params:` block (typos are errors thanks to z.strictObject);
 *  - reacting to the order book and to our own fills, throttled on the injected clock (never Date.now);
 *  - reading the store synchronously inside the pipeline: it already holds the update we react to;
 *  - reading our position to skew the ladder (inventory management);
 *  - pricing off the rest of the market: our own quotes are left out of the touch, or the ladder would follow itself;
 *  - emitting a QuotesIntent: we describe the quotes we WANT, the order manager works out the cancels and
 *    placements (one POST /batch) to get there, so re-emitting an unchanged ladder costs nothing.
 *
 * Run it:  strategies: [{ use: market-maker, markets: [BTC-USD], params: { spread: 0.002, size: 0.01 } }]
 */
import { distinctUntilChanged, filter, identity, map, merge, tap, throttleTime, type Observable } from 'rxjs';
import {
  dec,
  Decimal,
  decimalParam,
  defineStrategy,
  ONE,
  roundRate,
  z,
  ZERO,
  type Intent,
  type Order,
  type OrderBookEntry,
  type Quote,
  type ReadonlyOrderBook,
  type StrategyContext,
} from 'rexbot/strategy';

const params = z.strictObject({
  /** Distance between our best bid and best ask, as a fraction of the mid (0.002 = 0.2 %). */
  spread: decimalParam({ positive: true }).default(dec('0.002')),
  /** Quotes per side. */
  levels: z.number().int().min(1).max(20).default(3),
  /** Extra distance of each deeper level, as a fraction of the mid. */
  levelSpacing: decimalParam({ min: 0 }).default(dec('0.001')),
  /** Base quantity of every quote. */
  size: decimalParam({ positive: true }).default(dec('0.01')),
  /** Position (base currency) at which the skew is full and the side that would grow it stops quoting. */
  maxPosition: decimalParam({ positive: true }).default(dec('0.1')),
  /** How far the whole ladder moves at maxPosition, as a fraction of the mid: long → lower, short → higher. */
  skew: decimalParam({ min: 0 }).default(dec('0.001')),
  /** At most one new ladder per this many milliseconds (the first and the latest of each window are kept). */
  throttleMs: z.number().int().min(0).default(1000),
});

// Shared constants: a number operand would be parsed into a new Decimal at every requote.
const TWO = dec(2);
const MINUS_ONE = dec(-1);

/** The params, as the strategy sees them after validation. */
export type MarketMakerParams = z.output<typeof params>;

/** Per level (nearest first), what the center is multiplied by for its bid and for its ask. */
export interface LadderSteps {
  bid: Decimal[];
  ask: Decimal[];
}

/**
 * The ladder's shape: level i sits `spread / 2 + i × levelSpacing` of the center away on each side. It depends on
 * the params alone, so a market works it out once rather than at every requote.
 */
export function ladderSteps(p: MarketMakerParams): LadderSteps {
  const half = p.spread.div(TWO);
  const bid: Decimal[] = [];
  const ask: Decimal[] = [];
  for (let i = 0; i < p.levels; i++) {
    const offset = half.plus(p.levelSpacing.times(i));
    bid.push(ONE.minus(offset));
    ask.push(ONE.plus(offset));
  }
  return { bid, ask };
}

/**
 * The ladder for a mid and a position: a pure function, so it is easy to test and to reason about.
 * Bids round down and asks round up to the market's precision, so rounding never makes a quote more aggressive.
 */
export function quoteLadder(
  mid: Decimal,
  position: Decimal,
  p: MarketMakerParams,
  precision?: number,
  steps: LadderSteps = ladderSteps(p),
): { bids: Quote[]; asks: Quote[] } {
  return ladderAround(mid, skewFor(position, p), p, precision, steps);
}

/** What the position does to the ladder: the mid's multiplier, and which sides still quote. */
interface Skew {
  factor: Decimal;
  bids: boolean;
  asks: boolean;
}

function skewFor(position: Decimal, p: MarketMakerParams): Skew {
  // Inventory ratio in [-1, 1]: +1 at maxPosition long, -1 at maxPosition short.
  const ratio = Decimal.max(MINUS_ONE, Decimal.min(ONE, position.div(p.maxPosition)));
  // Long → shift everything down: our asks get hit more, our bids less, and inventory drifts back to zero.
  // At the position limit, stop quoting the side that would grow the position further.
  return { factor: ONE.minus(p.skew.times(ratio)), bids: ratio.lt(ONE), asks: ratio.gt(MINUS_ONE) };
}

function ladderAround(mid: Decimal, skew: Skew, p: MarketMakerParams, precision: number | undefined, steps: LadderSteps): { bids: Quote[]; asks: Quote[] } {
  const center = mid.times(skew.factor);
  const bids: Quote[] = [];
  const asks: Quote[] = [];
  if (skew.bids) for (const f of steps.bid) bids.push({ rate: roundRate(center.times(f), precision, 'down'), quantity: p.size });
  if (skew.asks) for (const f of steps.ask) asks.push({ rate: roundRate(center.times(f), precision, 'up'), quantity: p.size });
  return { bids, asks };
}

/**
 * The best bid and ask of everyone else: each book level less what our account's own open orders rest there.
 * A mid that includes our own quotes pins the ladder to itself: once our quotes are the touch, that mid never
 * moves again, the ladder stops following the market, and the market trades through our stale quotes.
 */
export function marketTouch(book: ReadonlyOrderBook, own: readonly Order[]): { bid: Decimal | undefined; ask: Decimal | undefined } {
  // Only a level where one of our orders rests can be passed over, so the answer lies within the best
  // `own.length + 1` levels: read those rather than copy the whole book (500 levels a side) at every requote.
  // The whole ladder is read only when those are all passed over and the book has more.
  const top = book.top(own.length + 1);
  let bid = bestOfOthers(top.bid, own, 'BUY');
  let ask = bestOfOthers(top.ask, own, 'SELL');
  if (bid === undefined && book.bidCount > top.bid.length) bid = bestOfOthers(book.ladder().bid, own, 'BUY');
  if (ask === undefined && book.askCount > top.ask.length) ask = bestOfOthers(book.ladder().ask, own, 'SELL');
  return { bid, ask };
}

/** The best level (of a side, best first) where someone besides us rests: more than our own orders there still rest. */
function bestOfOthers(levels: readonly OrderBookEntry[], own: readonly Order[], direction: Order['direction']): Decimal | undefined {
  // A handful of own orders: summing those at each level's rate beats building a map keyed by rate text.
  for (const l of levels) {
    let ours = ZERO;
    for (const o of own) {
      if (o.direction !== direction || !o.limit || !o.quantity || !o.limit.eq(l.rate)) continue;
      ours = ours.plus(o.quantity.minus(o.fillQuantity ?? ZERO));
    }
    if (l.quantity.gt(ours)) return l.rate;
  }
  return undefined;
}

/**
 * {@link quoteLadder} for one market, remembering the last answer: a requote with the same mid and position (a
 * third of them when the book moved beyond our touch, or a fill changed nothing we price from) gets that ladder
 * again instead of the same arithmetic and rounding done anew.
 */
export function ladderFor(p: MarketMakerParams, precision: number | undefined, steps: LadderSteps = ladderSteps(p)): (mid: Decimal, position: Decimal) => { bids: Quote[]; asks: Quote[] } {
  let last: { mid: Decimal; position: Decimal; ladder: { bids: Quote[]; asks: Quote[] } } | undefined;
  // The position moves only with our fills, the mid with the market: the skew is kept for the last position.
  let lastSkew: { position: Decimal; skew: Skew } | undefined;
  return (mid, position) => {
    if (last && last.mid.eq(mid) && last.position.eq(position)) return last.ladder;
    if (!lastSkew || !lastSkew.position.eq(position)) lastSkew = { position, skew: skewFor(position, p) };
    const ladder = ladderAround(mid, lastSkew.skew, p, precision, steps);
    last = { mid, position, ladder };
    return ladder;
  };
}

/**
 * The quotes of one side (nearest first) made passive against the other side's touch `other`: a quote at or
 * through it rests one `tick` inside the spread instead (bids below the best ask, asks above the best bid), and
 * of quotes that land on one rate only the nearest is kept. Dropping them instead would stop the side that
 * reduces the position exactly when the skew asks for it most: a long maker's asks move down towards the bid,
 * and a maker whose asks all cross could never sell its inventory again. Without a known tick (no market
 * precision) a crossing quote is dropped. When none crosses, `quotes` itself is the answer.
 */
export function passive(quotes: Quote[], other: Decimal, tick: Decimal | undefined, direction: 'BUY' | 'SELL'): Quote[] {
  // Nearest first: when the nearest quote rests, they all do (the usual requote), and the ladder is kept as it is.
  if (quotes.length === 0 || !crosses(quotes[0]!, other, direction)) return quotes;
  const out: Quote[] = [];
  // Worked out at the first quote that crosses: most ladders have none (a requote each throttle window).
  let limit: Decimal | undefined;
  for (const q of quotes) {
    if (!crosses(q, other, direction)) {
      const prev = out.at(-1);
      if (!prev || !prev.rate.eq(q.rate)) out.push(q);
      continue;
    }
    if (tick === undefined) continue;
    limit ??= direction === 'BUY' ? other.minus(tick) : other.plus(tick);
    if (limit.lte(ZERO)) continue;
    if (out.length === 0 || !out.at(-1)!.rate.eq(limit)) out.push({ rate: limit, quantity: q.quantity });
  }
  return out;
}

/** Whether a quote of `direction` would trade with the other side's touch `other`. */
function crosses(q: Quote, other: Decimal, direction: 'BUY' | 'SELL'): boolean {
  return direction === 'BUY' ? q.rate.gte(other) : q.rate.lte(other);
}

/** Same rates and quantities, in the same order. */
function sameQuotes(a: Quote[], b: Quote[]): boolean {
  return a.length === b.length && a.every((q, i) => q.rate.eq(b[i]!.rate) && q.quantity.eq(b[i]!.quantity));
}

/** One market's stream of QuotesIntents. */
function quoteMarket(ctx: StrategyContext<MarketMakerParams>, market: string): Observable<Intent> {
  const p = ctx.params;
  const precision = ctx.marketInfo(market)?.precision;
  const ladder = ladderFor(p, precision);
  // The market's price step: a quote that would cross is moved one step away from the other side's touch.
  const tick = precision === undefined ? undefined : ONE.div(dec(10).pow(precision));
  let book: ReadonlyOrderBook | undefined;
  let fills = 0;
  // Requote when the book moves or when one of our orders fills (the position, hence the skew, changed).
  const triggers$ = merge(ctx.book$(market).pipe(tap((b) => (book = b))), ctx.fills$(market).pipe(tap(() => fills++)));
  return triggers$.pipe(
    // Throttle on the strategy's scheduler: virtual time in tests and backtests, wall time live.
    p.throttleMs > 0 ? throttleTime(p.throttleMs, ctx.scheduler, { leading: true, trailing: true }) : identity,
    // Store, then publish: the store already holds the change that woke us, so read the latest state.
    map(() => {
      if (!book) return undefined;
      const { bid, ask } = marketTouch(book, ctx.account.openOrders(market));
      if (!bid || !ask) return undefined; // one-sided or empty book (besides us): no mid, no quotes
      const { bids, asks } = ladder(bid.plus(ask).div(TWO), ctx.portfolio.position(market));
      // Never cross the book: a bid at or above the best ask would take liquidity instead of providing it (a
      // strong skew on a tight book does that). Such a quote rests at the best price that does not cross instead.
      return { bids: passive(bids, ask, tick, 'BUY'), asks: passive(asks, bid, tick, 'SELL'), fills };
    }),
    filter((l): l is { bids: Quote[]; asks: Quote[]; fills: number } => l !== undefined),
    // Nothing changed (e.g. a book update deep in the book): say nothing. But after a fill say the ladder again
    // even when it came out the same (a bid and an ask filled in one throttle window, the market still): the
    // order manager places what a wish lacks when it gets one, and the filled levels are gone.
    distinctUntilChanged((a, b) => a.fills === b.fills && sameQuotes(a.bids, b.bids) && sameQuotes(a.asks, b.asks)),
    // One key per market: each new ladder REPLACES the previous wish for that market.
    map((l): Intent => ({ kind: 'quotes', key: `mm:${market}`, marketSymbol: market, bids: l.bids, asks: l.asks })),
  );
}

export default defineStrategy({
  name: 'market-maker',
  description: 'quote ladder around the mid with inventory skew',
  params,
  setup(ctx) {
    if (ctx.markets.length === 0) throw new Error('market-maker needs at least one market');
    ctx.log.info({ spread: ctx.params.spread.toString(), levels: ctx.params.levels }, 'quoting');
    // One independent ladder per configured market.
    return merge(...ctx.markets.map((m) => quoteMarket(ctx, m)));
  },
});
