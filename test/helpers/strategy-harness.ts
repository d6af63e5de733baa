/**
 * A harness to run one strategy against real stores in virtual time, for unit tests of strategies and for the
 * end-to-end tests that wire strategies to the rest of the kernel.
 *
 * It builds what the runtime would: a {@link VirtualClock}, a {@link MarketStore}, an {@link AccountStore},
 * positions, an order-event channel and a silent logger (each replaceable through the options), validates the
 * params with the plugin's schema, creates the context and runs the strategy with {@link runStrategy}. Intents
 * are recorded; failures too. Feed the market through the helpers (`setBook`, `addTrades`, `addCandles`), move
 * time with `advance`, and tell the strategy about its orders with `emit` / `fill`.
 *
 * @example
 * const h = await createStrategyHarness('market-maker', { markets: ['BTC-USD'], params: { spread: '0.02' } });
 * h.setBook('BTC-USD', [['100', '1']], [['102', '1']]);
 * expect(h.take()).toEqual([expect.objectContaining({ kind: 'quotes' })]);
 * await h.advance(1000);
 * h.stop();
 */
import { Subject, type Observable } from 'rxjs';
import { VirtualClock } from '../../src/core/clock.js';
import { dec, ZERO, type Decimal, type DecimalInput } from '../../src/core/decimal.js';
import type { Candle, CandleInterval, Market, OrderBookDepth, OrderDirection, Trade } from '../../src/model/index.js';
import type { Intent } from '../../src/model/intent.js';
import type { OrderEvent } from '../../src/orders/order-events.js';
import { AccountStore } from '../../src/store/account-store.js';
import { MarketStore } from '../../src/store/market-store.js';
import { parseStrategyParams, type StrategyDefinition } from '../../src/strategy/define-strategy.js';
import { loadStrategy, type LoadStrategyOptions } from '../../src/strategy/load-strategy.js';
import { createStrategyContext, type FillEvent, type StrategyContext } from '../../src/strategy/strategy-context.js';
import type { StrategyFailure } from '../../src/strategy/strategy-errors.js';
import { runStrategy, type RunningStrategy, type StrategyIntent } from '../../src/strategy/strategy-runner.js';
import { createLogger, type Logger } from '../../src/telemetry/logger.js';

/** 2024-01-01T00:00:00Z, a minute boundary: candles built from `minute` indexes line up with it. */
export const HARNESS_EPOCH = Date.parse('2024-01-01T00:00:00Z');

/** A book level as `[rate, quantity]`. */
export type Level = readonly [rate: DecimalInput, quantity: DecimalInput];

/** Options of {@link createStrategyHarness}. */
export interface StrategyHarnessOptions {
  /** Markets of the strategy (default `['BTC-USD']`). */
  markets?: string[];
  /** Raw params, validated by the plugin's schema like a YAML `params:` block. */
  params?: unknown;
  /** Instance name (default: the definition's name). */
  name?: string;
  clock?: VirtualClock;
  marketStore?: MarketStore;
  account?: AccountStore;
  /** Reference data; default: every market ONLINE, precision 8, minTradeSize 0.0001. */
  marketInfo?: Market[] | ((symbol: string) => Market | undefined);
  /** Positions by (market, strategy); default: the harness's own, moved by {@link StrategyHarness.fill}. */
  portfolio?: { position(marketSymbol: string, strategy?: string): Decimal };
  /** Order events; default: the harness's own channel ({@link StrategyHarness.emit}). */
  orderEvents$?: Observable<OrderEvent>;
  logger?: Logger;
  /** Depth used by ctx.book$ and {@link StrategyHarness.setBook} (default 25). */
  bookDepth?: OrderBookDepth;
  /** Where names and relative paths resolve when the strategy is given as a string. */
  load?: LoadStrategyOptions;
  /** Also deliver each intent here (e.g. an order manager). */
  sink?: (intent: StrategyIntent) => void;
}

/** A market with harness defaults. */
export function testMarket(symbol: string, overrides: Partial<Market> = {}): Market {
  const [base = symbol, quote = 'USD'] = symbol.split('-');
  return {
    symbol,
    baseCurrencySymbol: base,
    quoteCurrencySymbol: quote,
    minTradeSize: dec('0.0001'),
    precision: 8,
    status: 'ONLINE',
    createdAt: new Date(0),
    ...overrides,
  };
}

/** A candle from numbers or strings; `volume` defaults to 1. */
export function candle(startsAt: number, ohlc: { open: DecimalInput; high: DecimalInput; low: DecimalInput; close: DecimalInput; volume?: DecimalInput }): Candle {
  const close = dec(ohlc.close);
  const volume = dec(ohlc.volume ?? 1);
  return { startsAt: new Date(startsAt), open: dec(ohlc.open), high: dec(ohlc.high), low: dec(ohlc.low), close, volume, quoteVolume: volume.times(close) };
}

/** A flat candle (open = high = low = close). */
export function flatCandle(startsAt: number, price: DecimalInput): Candle {
  return candle(startsAt, { open: price, high: price, low: price, close: price });
}

const INTERVAL_MS: Record<CandleInterval, number> = { MINUTE_1: 60_000, MINUTE_5: 300_000, HOUR_1: 3_600_000, DAY_1: 86_400_000 };

/** The harness; see {@link createStrategyHarness}. */
export class StrategyHarness<P = unknown> {
  readonly clock: VirtualClock;
  readonly market: MarketStore;
  readonly account: AccountStore;
  readonly definition: StrategyDefinition;
  readonly ctx: StrategyContext<P>;
  /** Every intent delivered, stamped, in order. */
  readonly emitted: StrategyIntent[] = [];
  /** Failures reported by the runner (at most one). */
  readonly failures: StrategyFailure[] = [];
  readonly runner: RunningStrategy;
  readonly #events = new Subject<OrderEvent>();
  readonly #positions = new Map<string, Decimal>();
  readonly #bookDepth: OrderBookDepth;
  #taken = 0;
  #seq = 0;

  constructor(definition: StrategyDefinition, options: StrategyHarnessOptions = {}) {
    this.definition = definition;
    this.clock = options.clock ?? new VirtualClock(HARNESS_EPOCH);
    this.market = options.marketStore ?? new MarketStore();
    this.account = options.account ?? new AccountStore();
    this.#bookDepth = options.bookDepth ?? 25;
    const markets = options.markets ?? ['BTC-USD'];
    const name = options.name ?? definition.name;
    const params = parseStrategyParams(definition, options.params, { strategy: name }) as P;
    const info = options.marketInfo;
    const marketInfo =
      typeof info === 'function'
        ? info
        : (symbol: string) => (info ? info.find((m) => m.symbol === symbol) : markets.includes(symbol) ? testMarket(symbol) : undefined);
    this.ctx = createStrategyContext<P>({
      name,
      params,
      clock: this.clock,
      logger: options.logger ?? createLogger({ level: 'silent' }),
      markets,
      marketStore: this.market,
      account: this.account,
      portfolio: options.portfolio ?? { position: (m, s) => this.#positions.get(`${s ?? name}|${m}`) ?? ZERO },
      orderEvents$: options.orderEvents$ ?? this.#events.asObservable(),
      marketInfo,
      bookDepth: this.#bookDepth,
    });
    const sink = options.sink;
    this.runner = runStrategy(
      definition,
      this.ctx as StrategyContext<never>,
      (i) => {
        this.emitted.push(i);
        sink?.(i);
      },
      (f) => this.failures.push(f),
    );
  }

  /** Intents delivered so far (unstamped). */
  get intents(): Intent[] {
    return this.emitted.map((i) => i.intent);
  }

  /** Intents delivered since the last `take()`. */
  take(): Intent[] {
    const fresh = this.emitted.slice(this.#taken).map((i) => i.intent);
    this.#taken = this.emitted.length;
    return fresh;
  }

  /** The last intent delivered, optionally of one kind. */
  last<K extends Intent['kind']>(kind?: K): Extract<Intent, { kind: K }> | undefined {
    for (let i = this.emitted.length - 1; i >= 0; i--) {
      const intent = this.emitted[i]!.intent;
      if (kind === undefined || intent.kind === kind) return intent as Extract<Intent, { kind: K }>;
    }
    return undefined;
  }

  /** Move virtual time forward, firing the strategy's timers. */
  advance(ms: number): Promise<void> {
    return this.clock.advance(ms);
  }

  /** Replace a market's book (the harness depth unless given); bids best first, asks best first. */
  setBook(marketSymbol: string, bids: readonly Level[], asks: readonly Level[], depth: OrderBookDepth = this.#bookDepth): void {
    const level = ([rate, quantity]: Level) => ({ rate: dec(rate), quantity: dec(quantity) });
    this.market.resetBook(marketSymbol, depth, { bid: bids.map(level), ask: asks.map(level) }, ++this.#seq);
  }

  /** Add public trades at the current clock time (ids generated unless given). */
  addTrades(marketSymbol: string, trades: readonly { rate: DecimalInput; quantity?: DecimalInput; takerSide?: OrderDirection; id?: string; at?: number }[]): void {
    const list: Trade[] = trades.map((t) => ({
      id: t.id ?? `t${++this.#seq}`,
      executedAt: new Date(t.at ?? this.clock.now()),
      rate: dec(t.rate),
      quantity: dec(t.quantity ?? 1),
      takerSide: t.takerSide ?? 'BUY',
    }));
    this.market.addTrades(marketSymbol, list);
  }

  /** Upsert candles (what the candle stream does: each message carries the full current candle). */
  addCandles(marketSymbol: string, interval: CandleInterval, candles: readonly Candle[]): void {
    this.market.upsertCandles(marketSymbol, interval, candles);
  }

  /**
   * Upsert flat candles from closing prices, one per interval starting at `fromMs` (default the harness epoch
   * minus one interval per price, so the last candle starts one interval before the clock).
   */
  addCloses(marketSymbol: string, interval: CandleInterval, closes: readonly DecimalInput[], fromMs?: number): void {
    const step = INTERVAL_MS[interval];
    const start = fromMs ?? this.clock.now() - closes.length * step;
    this.addCandles(marketSymbol, interval, closes.map((c, i) => flatCandle(start + i * step, c)));
  }

  /** Set this strategy's position (harness portfolio only). */
  setPosition(marketSymbol: string, position: DecimalInput): void {
    this.#positions.set(`${this.ctx.name}|${marketSymbol}`, dec(position));
  }

  /** Deliver an order event to the strategy (harness channel only). */
  emit(event: OrderEvent): void {
    this.#events.next(event);
  }

  /**
   * Deliver a fill of this strategy's order (defaults: taker false, zero commission, generated ids, now) and
   * move the harness position by it.
   */
  fill(f: { intentKey: string; marketSymbol?: string; direction: OrderDirection; quantity: DecimalInput; rate: DecimalInput } & Partial<Pick<FillEvent, 'clientOrderId' | 'orderId' | 'executionId' | 'isTaker'>> & { commission?: DecimalInput }): FillEvent {
    const n = ++this.#seq;
    const marketSymbol = f.marketSymbol ?? this.ctx.markets[0]!;
    const event: FillEvent = {
      type: 'fill',
      strategy: this.ctx.name,
      intentKey: f.intentKey,
      clientOrderId: f.clientOrderId ?? `c${n}`,
      orderId: f.orderId ?? `o${n}`,
      marketSymbol,
      direction: f.direction,
      quantity: dec(f.quantity),
      rate: dec(f.rate),
      commission: dec(f.commission ?? 0),
      isTaker: f.isTaker ?? false,
      executionId: f.executionId ?? `e${n}`,
      at: this.clock.now(),
    };
    const key = `${this.ctx.name}|${marketSymbol}`;
    const signed = f.direction === 'BUY' ? event.quantity : event.quantity.neg();
    this.#positions.set(key, (this.#positions.get(key) ?? ZERO).plus(signed));
    this.emit(event);
    return event;
  }

  /** Stop the strategy. */
  stop(): void {
    this.runner.stop();
  }
}

/**
 * Create a harness and start the strategy. `strategy` is a definition, or a name / path the loader resolves
 * (names resolve in the repository's strategies/ folder).
 *
 * @example
 * const h = await createStrategyHarness('grid', { params: { lower: '90', upper: '110', levels: 4 } });
 */
export async function createStrategyHarness<P = unknown>(
  strategy: StrategyDefinition | string,
  options: StrategyHarnessOptions = {},
): Promise<StrategyHarness<P>> {
  const definition = typeof strategy === 'string' ? (await loadStrategy(strategy, options.load)).definition : strategy;
  return new StrategyHarness<P>(definition, options);
}
