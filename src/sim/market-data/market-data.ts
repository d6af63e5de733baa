/**
 * Public market data of the simulated exchange: recent trades, tickers, rolling 24-hour summaries and candles,
 * with the stream events that keep them in sync (seed section 6: `trade`, `ticker`, `tickers`, `marketSummary`,
 * `marketSummaries`, `candle`). TRADING feeds it ({@link MarketData.recordTrades} after each match,
 * {@link MarketData.updateTop} when a best price moves); the REST server and the engine facade read it.
 *
 * Every REST snapshot answers the sequence of the same counter its stream uses, and every event is emitted after
 * the state it describes, so a client synchronizing by rule 4 never misses or double-applies a change.
 *
 * Publication choices where the seed leaves room:
 * - `trade`: one message per {@link MarketData.recordTrades} call (one taker order), deltas in execution order.
 * - `ticker` / `tickers`: one message each per change of last trade rate, best bid or best ask.
 * - `marketSummary` / `marketSummaries`: coalesced per clock tick (see {@link TickCoalescer}); also sent when a
 *   trade leaves the 24-hour window, so a streamed summary never goes stale.
 * - `candle`: when a trade (TRADE) or a midpoint change (MIDPOINT) updates a candle, and at the start of every
 *   interval for each series that ever had activity — the candle if one exists already, else the 0-volume
 *   placeholder at the previous close that the service sent. Placeholders are not stored: REST omits intervals
 *   without activity, as the seed says.
 */
import type { Clock, TimerHandle } from '../../core/clock.js';
import { type Decimal, ZERO, deq } from '../../core/decimal.js';
import { dmul } from '../../core/decimal-fast.js';
import { CANDLE_INTERVALS, CANDLE_TYPES, type CandleInterval, type CandleType } from '../../model/enums.js';
import type { Candle, MarketSummary, Ticker, Trade } from '../../model/market.js';
import type { Catalog } from '../catalog.js';
import type { SimEventBus } from '../events.js';
import { type SequenceCounter, type SequenceCounters, type Sequenced, seqKey } from '../sequences.js';
import { type CandleSlot, CandleSeries, VolumeRun, candleOf } from './candle-series.js';
import { RECENT_WINDOW_MS, historicalRange, oldestStartInWindow } from './candle-time.js';
import { IntervalBoundaries } from './interval-boundaries.js';
import { DEFAULT_RECENT_TRADES, RecentTrades } from './recent-trades.js';
import { RollingSummary } from './rolling-summary.js';
import { TickCoalescer } from './tick-coalescer.js';

/** What {@link MarketData} needs from the engine. */
export interface MarketDataDeps {
  clock: Clock;
  bus: SimEventBus;
  sequences: SequenceCounters;
  catalog: Catalog;
}

/** Tuning; the defaults are what the service did. */
export interface MarketDataOptions {
  /** Trades answered by `GET /markets/{m}/trades` (default 100). */
  recentTradesLimit?: number;
  /**
   * How long candles are kept, per interval (default: the seed's `recent` windows). Longer retention lets a long
   * backtest ask `historical` for older dates; it is clamped to at least the `recent` window.
   */
  candleRetentionMs?: Partial<Record<CandleInterval, number>>;
}

type SeriesSet = Record<CandleType, Record<CandleInterval, CandleSeries>>;

interface MarketState {
  symbol: string;
  recent: RecentTrades;
  lastTradeRate: Decimal | undefined;
  bid: Decimal | undefined;
  ask: Decimal | undefined;
  /** Midpoint in force (undefined while the book is one-sided or empty). */
  mid: Decimal | undefined;
  summary: RollingSummary;
  expiryTimer: TimerHandle | undefined;
  series: SeriesSet;
  /** Trade volumes not yet added to the TRADE candles (see VolumeRun): flushed before any candle is read. */
  volumeRun: VolumeRun;
  /** The counters of this market's `trade` and `candle` streams, numbered on every trade (kept, not looked up). */
  tradeSeq: SequenceCounter;
  candleSeq: Record<CandleType, Record<CandleInterval, SequenceCounter>>;
}

/**
 * Market data store and publisher.
 *
 * @example
 * const md = new MarketData({ clock, bus, sequences, catalog });
 * md.recordTrades('BTC-USD', [{ id, executedAt: new Date(clock.now()), quantity: dec('1'), rate: dec('100'), takerSide: 'BUY' }]);
 * md.ticker('BTC-USD').lastTradeRate // 100
 */
export class MarketData {
  readonly #clock: Clock;
  readonly #bus: SimEventBus;
  readonly #seq: SequenceCounters;
  readonly #catalog: Catalog;
  readonly #recentLimit: number;
  readonly #retention: Record<CandleInterval, number>;
  readonly #markets = new Map<string, MarketState>();
  readonly #summaryFeed: TickCoalescer<string>;
  readonly #boundaries: IntervalBoundaries;
  /** The `tickers` stream's counter, numbered on every change of a ticker. */
  readonly #tickersSeq: SequenceCounter;

  constructor(deps: MarketDataDeps, options: MarketDataOptions = {}) {
    this.#clock = deps.clock;
    this.#bus = deps.bus;
    this.#seq = deps.sequences;
    this.#tickersSeq = deps.sequences.counter(seqKey.tickers());
    this.#catalog = deps.catalog;
    this.#recentLimit = options.recentTradesLimit ?? DEFAULT_RECENT_TRADES;
    this.#retention = { ...RECENT_WINDOW_MS };
    for (const i of CANDLE_INTERVALS) {
      this.#retention[i] = Math.max(RECENT_WINDOW_MS[i], options.candleRetentionMs?.[i] ?? 0);
    }
    this.#summaryFeed = new TickCoalescer(this.#clock, (symbols) => this.#publishSummaries(symbols));
    this.#boundaries = new IntervalBoundaries(this.#clock, (interval, start) => this.#onBoundary(interval, start));
  }

  /**
   * Record the public trades of one taker order (all its fills, in execution order), after the book changed.
   * Updates recent trades, ticker, summary and TRADE candles, then publishes.
   */
  recordTrades(marketSymbol: string, trades: Trade[]): void {
    const st = this.#state(marketSymbol);
    if (trades.length === 0) return;
    st.recent.add(trades);
    const before = st.lastTradeRate;
    // The candle each interval's trades went into, by interval index (CANDLE_INTERVALS order).
    const touched: Array<CandleSlot | undefined> = new Array(CANDLE_INTERVALS.length);
    for (const t of trades) {
      const at = t.executedAt.getTime();
      // One product per trade, shared by the summary and every interval's candle.
      const quote = dmul(t.quantity, t.rate);
      st.summary.add(at, t.rate, t.quantity, quote);
      const slots: CandleSlot[] = new Array(CANDLE_INTERVALS.length);
      for (let i = 0; i < CANDLE_INTERVALS.length; i++) slots[i] = st.series.TRADE[CANDLE_INTERVALS[i]!].foldTradeRate(at, t.rate);
      // The volumes once for all intervals (see VolumeRun); a candle published below is brought up to date first.
      st.volumeRun.add(slots, t.quantity, quote);
      for (let i = 0; i < CANDLE_INTERVALS.length; i++) {
        const slot = slots[i]!;
        const prev = touched[i];
        // One call's trades share a timestamp in practice; if they ever straddle a boundary, publish both candles.
        if (prev !== undefined && prev !== slot) this.#emitCandle(st, 'TRADE', CANDLE_INTERVALS[i]!, prev);
        touched[i] = slot;
      }
    }
    st.lastTradeRate = trades[trades.length - 1]!.rate;
    this.#armExpiry(st);

    // Numbered either way (REST reads the sequence); the copy and the event only for a listener that would use them.
    const sequence = ++st.tradeSeq.value;
    if (this.#bus.wants('trade')) this.#bus.emit({ kind: 'trade', marketSymbol: st.symbol, sequence, deltas: [...trades] });
    if (!sameRate(before, st.lastTradeRate)) this.#publishTicker(st);
    for (let i = 0; i < CANDLE_INTERVALS.length; i++) {
      const interval = CANDLE_INTERVALS[i]!;
      this.#emitCandle(st, 'TRADE', interval, touched[i]!);
      this.#boundaries.arm(interval);
    }
    this.#summaryFeed.mark(st.symbol);
  }

  /**
   * Load trades that happened before the simulator started (oldest first, all before now, before any live
   * trade): recent trades, the 24-hour summary, TRADE candles and, with the trade price standing in for the
   * midpoint, MIDPOINT candles. Nothing is published — nobody is connected yet — but the trade sequence moves on,
   * so a client's first snapshot is newer than an empty market's.
   */
  seedHistory(marketSymbol: string, trades: readonly Trade[]): void {
    const st = this.#state(marketSymbol);
    if (trades.length === 0) return;
    const now = this.#clock.now();
    let prevailing = st.mid;
    st.volumeRun.flush();
    for (const t of trades) {
      const at = t.executedAt.getTime();
      if (at > now) throw new RangeError(`seedHistory: trade ${t.id} is in the future (${t.executedAt.toISOString()})`);
      // Folded, not added: nothing is published yet, so no candle is built, and the quote volume is one product.
      const quote = t.quantity.times(t.rate);
      st.summary.add(at, t.rate, t.quantity, quote);
      for (const interval of CANDLE_INTERVALS) {
        st.series.TRADE[interval].foldTrade(at, t.rate, t.quantity, quote);
        st.series.MIDPOINT[interval].foldMidpoint(at, t.rate, prevailing);
      }
      prevailing = t.rate;
    }
    st.recent.add([...trades]);
    st.lastTradeRate = trades[trades.length - 1]!.rate;
    for (const type of CANDLE_TYPES) for (const interval of CANDLE_INTERVALS) st.series[type][interval].prune(now);
    st.summary.evict(now);
    this.#seq.next(seqKey.trade(st.symbol));
    this.#armExpiry(st);
    for (const interval of CANDLE_INTERVALS) this.#boundaries.arm(interval);
  }

  /**
   * The best bid and/or ask of a market changed (undefined: that side is empty). Updates the ticker and, when
   * both sides exist, the MIDPOINT candles with the new midpoint `(bid + ask) / 2`.
   */
  updateTop(marketSymbol: string, bid: Decimal | undefined, ask: Decimal | undefined): void {
    const st = this.#state(marketSymbol);
    const changed = !sameRate(st.bid, bid) || !sameRate(st.ask, ask);
    st.bid = bid;
    st.ask = ask;
    const prevailing = st.mid;
    st.mid = bid !== undefined && ask !== undefined ? bid.plus(ask).div(2) : undefined;
    if (changed) this.#publishTicker(st);
    if (st.mid === undefined) return;
    const now = this.#clock.now();
    for (const interval of CANDLE_INTERVALS) {
      const c = st.series.MIDPOINT[interval].addMidpoint(now, st.mid, prevailing);
      if (c) this.#emitCandle(st, 'MIDPOINT', interval, c);
      this.#boundaries.arm(interval);
    }
  }

  /** `GET /markets/{m}/trades` (newest first) with the `trade_{m}` stream's sequence. */
  trades(marketSymbol: string): Sequenced<Trade[]> {
    const st = this.#state(marketSymbol);
    return { data: st.recent.newestFirst(), sequence: this.#seq.current(seqKey.trade(st.symbol)) };
  }

  /** `GET /markets/{m}/ticker`: zeros where there is no trade, bid or ask. */
  ticker(marketSymbol: string): Ticker {
    return tickerOf(this.#state(marketSymbol));
  }

  /** `GET /markets/tickers`: every listed market, by symbol, with the `tickers` stream's sequence. */
  tickers(): Sequenced<Ticker[]> {
    const data = this.#catalog.markets().map((m) => tickerOf(this.#state(m.symbol)));
    return { data, sequence: this.#seq.current(seqKey.tickers()) };
  }

  /** `GET /markets/{m}/summary`: the rolling 24 hours up to now. */
  summary(marketSymbol: string): MarketSummary {
    return this.#summaryOf(this.#state(marketSymbol));
  }

  /** `GET /markets/summaries`: every listed market, by symbol, with the `market_summaries` stream's sequence. */
  summaries(): Sequenced<MarketSummary[]> {
    const data = this.#catalog.markets().map((m) => this.#summaryOf(this.#state(m.symbol)));
    return { data, sequence: this.#seq.current(seqKey.summaries()) };
  }

  /**
   * `GET /markets/{m}/candles/{type}/{interval}/recent`: the candles of the seed's window for the interval
   * (MINUTE_1 and MINUTE_5 one day, HOUR_1 31 days, DAY_1 366 days), oldest first, intervals without activity
   * omitted, with the `candle_{m}_{interval}` stream's sequence for that type.
   */
  candles(marketSymbol: string, type: CandleType, interval: CandleInterval): Sequenced<Candle[]> {
    const st = this.#state(marketSymbol);
    st.volumeRun.flush();
    const series = st.series[type][interval];
    const now = this.#clock.now();
    series.prune(now);
    const data = series.range(oldestStartInWindow(interval, now, RECENT_WINDOW_MS[interval]), Infinity);
    return { data, sequence: this.#seq.current(seqKey.candle(st.symbol, type, interval)) };
  }

  /**
   * `GET .../candles/{type}/{interval}/historical/{year}/{month}/{day}`: the candles of one UTC day (MINUTE_*),
   * month (HOUR_1) or year (DAY_1), oldest first. Only retained candles can be answered (see
   * {@link MarketDataOptions.candleRetentionMs}); 400 BAD_REQUEST when a needed date portion is missing or invalid.
   */
  historicalCandles(
    marketSymbol: string,
    type: CandleType,
    interval: CandleInterval,
    year: number,
    month?: number,
    day?: number,
  ): Candle[] {
    const st = this.#state(marketSymbol);
    const { from, to } = historicalRange(interval, year, month, day);
    st.volumeRun.flush();
    const series = st.series[type][interval];
    series.prune(this.#clock.now());
    return series.range(from, to);
  }

  /** Rate of the market's last trade, undefined before the first. */
  lastTradeRate(marketSymbol: string): Decimal | undefined {
    return this.#state(marketSymbol).lastTradeRate;
  }

  /** Publish pending summary changes now instead of at the end of the tick (for drivers that never advance time). */
  flush(): void {
    this.#summaryFeed.flushNow();
  }

  /** The state of a listed market (404/400 from the catalog otherwise), created on first use. */
  #state(marketSymbol: string): MarketState {
    const symbol = this.#catalog.market(marketSymbol).symbol;
    let st = this.#markets.get(symbol);
    if (!st) {
      const series = {} as SeriesSet;
      const candleSeq = {} as MarketState['candleSeq'];
      for (const type of CANDLE_TYPES) {
        series[type] = {} as Record<CandleInterval, CandleSeries>;
        candleSeq[type] = {} as Record<CandleInterval, SequenceCounter>;
        for (const i of CANDLE_INTERVALS) {
          series[type][i] = new CandleSeries(i, this.#retention[i]);
          candleSeq[type][i] = this.#seq.counter(seqKey.candle(symbol, type, i));
        }
      }
      st = {
        symbol,
        recent: new RecentTrades(this.#recentLimit),
        lastTradeRate: undefined,
        bid: undefined,
        ask: undefined,
        mid: undefined,
        summary: new RollingSummary(this.#clock.now()),
        expiryTimer: undefined,
        series,
        volumeRun: new VolumeRun(),
        tradeSeq: this.#seq.counter(seqKey.trade(symbol)),
        candleSeq,
      };
      this.#markets.set(symbol, st);
    }
    return st;
  }

  #summaryOf(st: MarketState): MarketSummary {
    // A read may be the first to notice trades leaving the window; the change is then published like any other.
    if (st.summary.evict(this.#clock.now())) this.#summaryFeed.mark(st.symbol);
    return st.summary.snapshot(st.symbol);
  }

  #publishSummaries(symbols: string[]): void {
    const bus = this.#bus;
    // Built only for a listener that would use them, as tickers and candles are: a summary's snapshot (24-hour
    // change, percent change) was most of the feed's cost per tick, and a simulator or backtest with no hub
    // subscriber built one per market per tick for nobody. Eviction and the sequence move either way (REST reads
    // the sequence; an eviction noticed here is published at the next tick like any other change).
    if (!bus.wants('marketSummary') && !bus.wants('marketSummaries')) {
      const now = this.#clock.now();
      for (const s of symbols) if (this.#state(s).summary.evict(now)) this.#summaryFeed.mark(s);
      this.#seq.next(seqKey.summaries());
      return;
    }
    const deltas = symbols.sort().map((s) => this.#summaryOf(this.#state(s)));
    for (const delta of deltas) bus.emit({ kind: 'marketSummary', delta });
    bus.emit({ kind: 'marketSummaries', sequence: this.#seq.next(seqKey.summaries()), deltas });
  }

  #publishTicker(st: MarketState): void {
    // Built only for a listener that would use it; the tickers sequence moves either way (REST reads it).
    const bus = this.#bus;
    const ticker = bus.wants('ticker');
    const tickers = bus.wants('tickers');
    const delta = ticker || tickers ? tickerOf(st) : undefined;
    if (ticker) bus.emit({ kind: 'ticker', delta: delta! });
    const sequence = ++this.#tickersSeq.value;
    if (tickers) bus.emit({ kind: 'tickers', sequence, deltas: [delta!] });
  }

  /** Number a candle change and publish it; the candle is built only for a listener that would use it. */
  #emitCandle(st: MarketState, candleType: CandleType, interval: CandleInterval, candle: Candle | CandleSlot): void {
    const symbol = st.symbol;
    const sequence = ++st.candleSeq[candleType][interval].value;
    if (!this.#bus.wants('candle')) return;
    if (!('startsAt' in candle)) st.volumeRun.flush();
    const delta = 'startsAt' in candle ? candle : candleOf(candle);
    this.#bus.emit({ kind: 'candle', marketSymbol: symbol, interval, candleType, sequence, delta });
  }

  /** Keep one timer per market at the moment its oldest summary bucket leaves the 24-hour window. */
  #armExpiry(st: MarketState): void {
    if (st.expiryTimer) return;
    const at = st.summary.nextExpiryAt();
    if (at === undefined) return;
    st.expiryTimer = this.#clock.setTimeout(() => {
      st.expiryTimer = undefined;
      if (st.summary.evict(this.#clock.now())) this.#summaryFeed.mark(st.symbol);
      this.#armExpiry(st);
    }, at - this.#clock.now());
  }

  #onBoundary(interval: CandleInterval, start: number): void {
    const now = this.#clock.now();
    for (const st of this.#markets.values()) {
      st.volumeRun.flush();
      for (const type of CANDLE_TYPES) {
        const series = st.series[type][interval];
        series.prune(now);
        const c = series.candleAt(start);
        if (c) this.#emitCandle(st, type, interval, c);
      }
    }
  }
}

function tickerOf(st: MarketState): Ticker {
  return { symbol: st.symbol, lastTradeRate: st.lastTradeRate ?? ZERO, bidRate: st.bid ?? ZERO, askRate: st.ask ?? ZERO };
}

function sameRate(a: Decimal | undefined, b: Decimal | undefined): boolean {
  return a === undefined || b === undefined ? a === b : deq(a, b);
}
