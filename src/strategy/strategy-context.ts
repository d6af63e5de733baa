/**
 * What a strategy sees: its name and validated params, the clock (and an RxJS scheduler over it), a child logger,
 * its markets, read-only views of the market and account stores, its own positions and its own order events,
 * plus shortcuts for the streams most strategies start from.
 *
 * Everything the context hands out belongs to the strategy: its timers and the subscriptions it opens through
 * the context are torn down when the strategy stops or fails, and a throw inside one of its timer callbacks is
 * reported as that strategy's failure (see {@link runStrategy}).
 */
import { filter, interval, Observable, Subject, type SchedulerLike, type Subscription } from 'rxjs';
import type { Clock } from '../core/clock.js';
import type { Decimal } from '../core/decimal.js';
import { IdWindow } from '../core/id-window.js';
import type { Candle, CandleInterval, Market, OrderBookDepth, Ticker, Trade } from '../model/index.js';
import type { OrderEvent } from '../orders/order-events.js';
import type { AccountStore } from '../store/account-store.js';
import type { MarketEvent, ReadonlyMarketStore } from '../store/market-store.js';
import type { ReadonlyOrderBook } from '../store/order-book.js';
import type { Logger } from '../telemetry/logger.js';
import { clockScheduler } from './clock-scheduler.js';
import { guardClock } from './guarded-clock.js';
import { enterStrategy, leaveStrategy, strategyScopesTracked } from './strategy-scope.js';
import { readonlyAccountView, readonlyMarketView, type ReadonlyAccountView } from './read-only-views.js';

/** A fill of one of this strategy's orders. */
export type FillEvent = Extract<OrderEvent, { type: 'fill' }>;

/** The strategy's view of its positions (attributed to it by the portfolio). */
export interface StrategyPositions {
  /** Base-currency position of this strategy in a market (negative = short; zero when none). */
  position(marketSymbol: string): Decimal;
}

/**
 * The context passed to `setup(ctx)`.
 *
 * @example
 * setup(ctx) {
 *   const [market] = ctx.markets;
 *   return ctx.book$(market).pipe(
 *     throttleTime(1000, ctx.scheduler, { leading: true, trailing: true }),
 *     map((book) => quotesAround(book, ctx.params, ctx.portfolio.position(market))),
 *   );
 * }
 */
export interface StrategyContext<P = unknown> {
  /** This strategy's name: the instance name from the bot config, else the definition's name. */
  readonly name: string;
  /** Params validated by the plugin's schema (defaults applied). */
  readonly params: P;
  /** The runtime clock (virtual in tests and backtests). Never use Date.now or global timers in a strategy. */
  readonly clock: Clock;
  /** RxJS scheduler over {@link StrategyContext.clock}: pass it to every time-based operator. */
  readonly scheduler: SchedulerLike;
  /** pino child logger with `{ strategy: name }`. */
  readonly log: Logger;
  /** The markets configured for this strategy. */
  readonly markets: readonly string[];
  /** Market data: synchronous reads and observables. */
  readonly market: ReadonlyMarketStore;
  /** The account: balances, orders, conditional orders, executions. */
  readonly account: ReadonlyAccountView;
  /** This strategy's positions. */
  readonly portfolio: StrategyPositions;
  /** Outcomes of this strategy's intents (submitted, accepted, denied, rejected, fill, closed, ...). */
  readonly orderEvents$: Observable<OrderEvent>;
  /** Every market store change, after the store holds it. */
  readonly marketEvents$: Observable<MarketEvent>;
  /** Reference data of a market (status, precision, minTradeSize), when the runtime knows it. */
  marketInfo(marketSymbol: string): Market | undefined;
  /** Mid of the best bid and best ask, when both exist. */
  mid(marketSymbol: string): Decimal | undefined;
  /** A counter 0, 1, 2, ... every `ms` (at least 1) of clock time. */
  every(ms: number): Observable<number>;
  /** The order book of a market at `depth` (default: the runtime's book depth): now if any, then each change. */
  book$(marketSymbol: string, depth?: OrderBookDepth): Observable<ReadonlyOrderBook>;
  /** The ticker of a market: now if any, then each change. */
  ticker$(marketSymbol: string): Observable<Ticker>;
  /** The candle series of (market, interval), oldest first; the last candle is the one still forming. */
  candles$(marketSymbol: string, interval: CandleInterval): Observable<readonly Candle[]>;
  /** New trades of a market, one at a time, each once (a resync does not replay trades already emitted). */
  trades$(marketSymbol: string): Observable<Trade>;
  /** Fills of this strategy's orders, optionally of one market. */
  fills$(marketSymbol?: string): Observable<FillEvent>;
}

/** What the runtime provides to build a {@link StrategyContext}. */
export interface StrategyContextDeps<P> {
  /** Instance name (stamped on intents, used for positions and order events). */
  name: string;
  /** Params already validated (see {@link parseParams}). */
  params: P;
  clock: Clock;
  /** Parent logger; the strategy gets `logger.child({ strategy: name })`. */
  logger: Logger;
  markets: readonly string[];
  marketStore: ReadonlyMarketStore;
  account: AccountStore | ReadonlyAccountView;
  /** Positions by (market, strategy), e.g. the Portfolio. */
  portfolio: { position(marketSymbol: string, strategy?: string): Decimal };
  /** Order events: this strategy's (OrderManager.eventsFor) or all of them; the context keeps this strategy's. */
  orderEvents$: Observable<OrderEvent>;
  /** Market reference data. */
  marketInfo?: (marketSymbol: string) => Market | undefined;
  /** Book depth that {@link StrategyContext.book$} uses when none is given (default 25). */
  bookDepth?: OrderBookDepth;
}

/**
 * The runner's handle on a context it did not build itself: failures raised outside the strategy's observable
 * (its timer callbacks) and teardown of everything the strategy opened through the context.
 */
export interface StrategyContextLifecycle {
  /** Errors thrown inside the strategy's timer callbacks. */
  readonly faults$: Observable<unknown>;
  /** Cancel the strategy's timers and close the subscriptions it opened through the context. */
  dispose(): void;
}

/** Key under which a context built by {@link createStrategyContext} carries its {@link StrategyContextLifecycle}. */
export const CONTEXT_LIFECYCLE = Symbol.for('rexbot.strategy.context-lifecycle');

/** The lifecycle of a context built by {@link createStrategyContext}, if it is one. */
export function contextLifecycle(ctx: StrategyContext<unknown>): StrategyContextLifecycle | undefined {
  return (ctx as unknown as { [CONTEXT_LIFECYCLE]?: StrategyContextLifecycle })[CONTEXT_LIFECYCLE];
}

/** Trade ids remembered by `trades$` to skip trades a resync snapshot replays (the store keeps 1,000 by default). */
const SEEN_TRADES = 2000;

/**
 * Build the context of one strategy instance.
 *
 * @example
 * const ctx = createStrategyContext({
 *   name: 'mm-btc', params, clock, logger, markets: ['BTC-USD'], marketStore, account,
 *   portfolio, orderEvents$: orderManager.eventsFor('mm-btc'), marketInfo: (s) => markets.get(s),
 * });
 * runStrategy(definition, ctx, (i) => orderManager.submit(i.strategy, i.intent), report);
 */
export function createStrategyContext<P>(deps: StrategyContextDeps<P>): StrategyContext<P> {
  const { name } = deps;
  const faults = new Subject<unknown>();
  const clock = guardClock(deps.clock, (err) => faults.next(err), name);
  const scheduler = clockScheduler(clock);
  const market = readonlyMarketView(deps.marketStore);
  const account = readonlyAccountView(deps.account);
  const subscriptions = new Set<Subscription>();
  let disposed = false;

  // Every observable handed out is owned: its subscriptions close when the strategy stops. What it delivers
  // reaches the strategy's operators in the strategy's scope while a watcher tracks scopes (strategy-scope.ts).
  const own = <T>(source: Observable<T>): Observable<T> =>
    new Observable<T>((subscriber) => {
      if (disposed) {
        subscriber.complete();
        return undefined;
      }
      // Scopes only when a watcher reads them (rexbot validate): otherwise every value would pay for the wrapper.
      const sub = !strategyScopesTracked() ? source.subscribe(subscriber) : source.subscribe({
        next(value) {
          const outer = enterStrategy(name);
          try {
            subscriber.next(value);
          } finally {
            leaveStrategy(outer);
          }
        },
        error(err: unknown) {
          const outer = enterStrategy(name);
          try {
            subscriber.error(err);
          } finally {
            leaveStrategy(outer);
          }
        },
        complete() {
          const outer = enterStrategy(name);
          try {
            subscriber.complete();
          } finally {
            leaveStrategy(outer);
          }
        },
      });
      subscriptions.add(sub);
      return () => {
        subscriptions.delete(sub);
        sub.unsubscribe();
      };
    });

  const orderEvents$ = own(deps.orderEvents$.pipe(filter((e) => e.strategy === name)));
  const bookDepth = deps.bookDepth ?? 25;
  const marketInfo = deps.marketInfo;
  const portfolio = deps.portfolio;

  const ctx: StrategyContext<P> = {
    name,
    params: deps.params,
    clock,
    scheduler,
    log: deps.logger.child({ strategy: name }),
    markets: Object.freeze([...deps.markets]),
    market,
    account,
    portfolio: Object.freeze({ position: (m: string) => portfolio.position(m, name) }),
    orderEvents$,
    marketEvents$: own(market.changes$),
    marketInfo: (m) => marketInfo?.(m),
    mid(m) {
      const bid = market.bestBid(m);
      const ask = market.bestAsk(m);
      return bid && ask ? bid.rate.plus(ask.rate).div(2) : undefined;
    },
    every(ms) {
      // A zero period would re-fire forever at one instant of a virtual clock.
      if (!(ms >= 1)) throw new RangeError(`every(ms) needs a period of at least 1 ms, got ${ms}`);
      return own(interval(ms, scheduler));
    },
    book$: (m, depth = bookDepth) => own(market.book$(m, depth)),
    ticker$: (m) => own(market.ticker$(m)),
    candles$: (m, i) => own(market.candles$(m, i)),
    trades$: (m) => own(newTrades(market.trades$(m))),
    fills$: (m) => orderEvents$.pipe(filter((e): e is FillEvent => e.type === 'fill' && (m === undefined || e.marketSymbol === m))),
  };

  const lifecycle: StrategyContextLifecycle = {
    faults$: faults.asObservable(),
    dispose() {
      if (disposed) return;
      disposed = true;
      clock.dispose();
      for (const s of [...subscriptions]) s.unsubscribe();
      subscriptions.clear();
      faults.complete();
    },
  };
  Object.defineProperty(ctx, CONTEXT_LIFECYCLE, { value: lifecycle, enumerable: false });
  return Object.freeze(ctx);
}

/**
 * Flatten trade batches into single trades, skipping ids already emitted (a reset snapshot repeats old ones).
 * Written out rather than `mergeMap(from(fresh))`, which emits the same values in the same order but builds an
 * array, an observable and an inner subscription per batch: this runs on every recorded trade of a backtest.
 */
function newTrades(batches: Observable<readonly Trade[]>): Observable<Trade> {
  return new Observable<Trade>((subscriber) => {
    // Exactly the last SEEN_TRADES ids emitted (src/core/id-window.ts: a Set costs several times more per trade).
    const seen = new IdWindow();
    return batches.subscribe({
      next(batch) {
        let fresh: Trade[] | undefined;
        let single: Trade | undefined;
        // Indexed: a for-of here allocated its iterator per batch (batches come as lists of several kinds).
        for (let i = 0; i < batch.length; i++) {
          const t = batch[i]!;
          if (!seen.add(t.id)) continue;
          if (single === undefined && fresh === undefined) single = t;
          else (fresh ??= [single!]).push(t);
        }
        // Drop the oldest ids first.
        while (seen.size > SEEN_TRADES) seen.dropOldest();
        // As from(): stop as soon as the subscriber has closed (e.g. take(1) downstream).
        if (fresh) {
          for (const t of fresh) {
            if (subscriber.closed) return;
            subscriber.next(t);
          }
        } else if (single !== undefined && !subscriber.closed) subscriber.next(single);
      },
      error: (err: unknown) => subscriber.error(err),
      complete: () => subscriber.complete(),
    });
  });
}
