/**
 * The replay driver: plays a recorded capture into the engine on the injected Clock. Each event is due at its
 * recorded offset from the first event, divided by `speed`; under a VirtualClock a test advances through a
 * whole capture at once. Recorded books become resting orders of ordinary replay accounts (see
 * {@link ReplayLiquidity} for the policy shared with user orders); recorded trades are re-enacted by a replay
 * taker account, so the engine's trades, tickers and candles follow the recording.
 *
 * Every recorded message is re-enacted as one engine transaction (see {@link ReplayLiquidity}): a bot connected
 * over the hub receives one `orderBook` delta per recorded snapshot or delta message, with its new quantities,
 * and never a book half-way through one.
 *
 * Trade re-enactment: a LIMIT IMMEDIATE_OR_CANCEL order of the recorded taker side, quantity and rate. It takes
 * whatever rests at that rate or better — replay liquidity, or a user's order that was priced better, as on the
 * real market — and the replay levels it touched are put back to their recorded quantities in the same
 * transaction, since the recording's book already accounts for that trade (through its own deltas): the engine
 * publishes the trades, and the book shows no change from the replay liquidity the trade took.
 */
import type { Clock, TimerHandle } from '../../core/clock.js';
import type { Trade } from '../../model/market.js';
import type { NewOrder } from '../../model/order.js';
import { buyReserve, maxFee } from '../trading-amounts.js';
import type { DriverEngine } from './driver-engine.js';
import { type DriverStats, newDriverStats } from './driver-stats.js';
import { type Participant, ParticipantPool } from './participant.js';
import type { RecordedBook } from './recorded-book.js';
import type { BadLinePolicy, ReplayFormatError } from './replay-error.js';
import type { ReplayEvent, ReplayTrade } from './replay-events.js';
import { ReplayLiquidity } from './replay-liquidity.js';
import { loadReplayFiles } from './replay-load.js';
import type { ReplayTimeline } from './replay-timeline.js';

/** Configuration of the replay driver (plain data, YAML-friendly). */
export interface ReplayConfig {
  /** Hub session files (`BITTREX.ws.1.0` format). */
  ws?: string[];
  /** REST response files (`BITTREX.http.0.0` format) holding the order-book snapshots. */
  http?: string[];
  /** `rexbot record` files (`*.jsonl.gz`): snapshots and stream messages in one file. */
  recordings?: string[];
  /** Legacy v1.1 hub session files (hub `c2`: QueryExchangeState snapshots and uE deltas, mapped to v3). */
  v1Ws?: string[];
  /** Replay only these markets; every recorded market the catalog lists by default. */
  markets?: string[];
  /** Price levels per side placed on the engine's book. Default 500 (the recorded depth). */
  depth: number;
  /** Playback speed: 1 = recorded pace, 10 = ten times faster. Default 1. */
  speed: number;
  /** A malformed recorded line: `fail` (default) throws when loading, `skip` reports it and leaves it out. */
  onBadLine: BadLinePolicy;
  /** Re-enact recorded trades (default true). */
  replayTrades: boolean;
  /** Cancel the replay orders on stop (default true). */
  cancelOnStop: boolean;
}

/** Defaults of {@link ReplayConfig}. */
export const DEFAULT_REPLAY_CONFIG: Readonly<ReplayConfig> = Object.freeze<ReplayConfig>({
  depth: 500,
  speed: 1,
  onBadLine: 'fail',
  replayTrades: true,
  cancelOnStop: true,
});

/** A replay configuration where every field may be left out. */
export type ReplayInput = Partial<ReplayConfig>;

/** Hooks and programmatic inputs of a {@link ReplayMarket}. */
export interface ReplayHooks {
  /** A timeline built elsewhere (e.g. from in-memory text); the configured files are then not read. */
  timeline?: ReplayTimeline;
  /** Every event, after it was applied (tickers are only reported: the engine derives its own). */
  onEvent?: (event: ReplayEvent) => void;
  /** Bad lines skipped while loading (with `onBadLine: 'skip'`). */
  onBadLine?: (error: ReplayFormatError) => void;
  /** Unexpected failures caught at the timer boundary (engine refusals are only counted). */
  onError?: (err: unknown) => void;
  /** Called once after the last event. */
  onFinished?: () => void;
}

/** Counters of a replay. */
export interface ReplayStats extends DriverStats {
  /** Events applied. */
  events: number;
  /** Events of markets the catalog does not list (left out). */
  unknownMarket: number;
  /** Recorded trades re-enacted. */
  trades: number;
  /** Recorded levels that could not rest because their value at their rate rounds to zero (they could never trade). */
  dustLevels: number;
}

interface MarketState {
  liquidity: ReplayLiquidity;
  taker: Participant | undefined;
}

/**
 * @example
 * const replay = new ReplayMarket(engine, clock, { ws: ['BITTREX.ws.1.0'], http: ['BITTREX.http.0.0'], markets: ['BTC-EUR'] });
 * replay.start();
 * await clock.advance(replay.durationMs);
 * replay.finished; // true
 */
export class ReplayMarket {
  readonly config: ReplayConfig;
  /** The playable events. */
  readonly timeline: ReplayTimeline;
  readonly #engine: DriverEngine;
  readonly #clock: Clock;
  readonly #hooks: ReplayHooks;
  readonly #markets = new Map<string, MarketState>();
  #stats: ReplayStats = newReplayStats();
  #pool: ParticipantPool | undefined;
  #timer: TimerHandle | undefined;
  #next = 0;
  #startedAt = 0;
  #finished = false;

  /** Loads the capture now (unless `hooks.timeline` is given), so a bad file fails here rather than in a timer. */
  constructor(engine: DriverEngine, clock: Clock, config: ReplayInput = {}, hooks: ReplayHooks = {}) {
    this.#engine = engine;
    this.#clock = clock;
    this.#hooks = hooks;
    this.config = { ...DEFAULT_REPLAY_CONFIG, ...config };
    if (!(this.config.speed > 0)) throw new RangeError(`replay: speed must be > 0, got ${this.config.speed}`);
    if (!Number.isInteger(this.config.depth) || this.config.depth < 1) throw new RangeError('replay: depth must be an integer >= 1');
    if (hooks.timeline) this.timeline = hooks.timeline;
    else {
      const readerOpts = { onBadLine: this.config.onBadLine, ...(hooks.onBadLine ? { onError: hooks.onBadLine } : {}) };
      const files = { ws: this.config.ws ?? [], http: this.config.http ?? [], recordings: this.config.recordings ?? [], v1Ws: this.config.v1Ws ?? [] };
      this.timeline = loadReplayFiles(files, { ...readerOpts, ...(this.config.markets ? { markets: this.config.markets } : {}) }).timeline;
    }
  }

  /** Clock time the whole timeline takes at the configured speed. */
  get durationMs(): number {
    return Math.ceil((this.timeline.endAt - this.timeline.startAt) / this.config.speed);
  }

  /** True once every event was applied. */
  get finished(): boolean {
    return this.#finished;
  }

  /** True between start() and stop() (or the end). */
  get running(): boolean {
    return this.#timer !== undefined;
  }

  /** What the replay did since the last start. */
  get stats(): ReplayStats {
    return this.#stats;
  }

  /** The recorded book of a market as replayed so far (snapshot + deltas), independent of user trading. */
  recordedBook(marketSymbol: string): RecordedBook | undefined {
    return this.#markets.get(marketSymbol)?.liquidity.recorded;
  }

  /** The accounts holding replayed liquidity and re-enacting trades, with their roles. */
  participants(): Array<{ accountId: string; label: string }> {
    return (this.#pool?.all() ?? []).map((p) => ({ accountId: p.accountId, label: p.label }));
  }

  /** Start playing from the first event, now. */
  start(): void {
    if (this.running) return;
    this.#stats = newReplayStats();
    this.#pool = new ParticipantPool(this.#engine, this.#stats);
    this.#markets.clear();
    this.#next = 0;
    this.#finished = false;
    this.#startedAt = this.#clock.now();
    this.#schedule();
  }

  /** Stop playing; with `cancelOnStop` (default) remove the replayed liquidity from the book. */
  stop(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
    if (this.config.cancelOnStop) for (const m of this.#markets.values()) this.#guard(() => m.liquidity.clear());
    this.#pool?.dispose();
  }

  #dueAt(e: ReplayEvent): number {
    return this.#startedAt + Math.round((e.at - this.timeline.startAt) / this.config.speed);
  }

  #schedule(): void {
    const e = this.timeline.events[this.#next];
    if (!e) {
      this.#timer = undefined;
      this.#finished = true;
      this.#hooks.onFinished?.();
      return;
    }
    this.#timer = this.#clock.setTimeout(() => this.#run(), Math.max(0, this.#dueAt(e) - this.#clock.now()));
  }

  /** Apply every event that is due, then wait for the next one. */
  #run(): void {
    const now = this.#clock.now();
    const events = this.timeline.events;
    while (this.#next < events.length && this.#dueAt(events[this.#next] as ReplayEvent) <= now) {
      const e = events[this.#next++] as ReplayEvent;
      this.#guard(() => this.#apply(e));
    }
    this.#schedule();
  }

  #apply(e: ReplayEvent): void {
    if (!this.#engine.catalog.hasMarket(e.marketSymbol)) {
      this.#stats.unknownMarket++;
      return;
    }
    const state = e.kind === 'ticker' ? undefined : this.#state(e.marketSymbol);
    if (e.kind === 'snapshot') state?.liquidity.snapshot(e);
    else if (e.kind === 'orderBookDelta') state?.liquidity.delta(e);
    else if (e.kind === 'trade' && this.config.replayTrades && state) this.#reenact(state, e);
    this.#stats.events++;
    this.#hooks.onEvent?.(e);
  }

  #state(symbol: string): MarketState {
    let s = this.#markets.get(symbol);
    if (!s) {
      const pool = this.#pool as ParticipantPool;
      const market = this.#engine.catalog.market(symbol);
      const feeMax = maxFee(this.#engine.catalog.feeRates(symbol));
      const stats = this.#stats;
      const liquidity = new ReplayLiquidity({
        market,
        transact: (fn) => this.#engine.transact(market.symbol, fn),
        onDust: () => stats.dustLevels++,
        bids: pool.create(`replay ${symbol} bids`),
        asks: pool.create(`replay ${symbol} asks`),
        depth: this.config.depth,
        feeMax,
      });
      this.#markets.set(symbol, (s = { liquidity, taker: undefined }));
    }
    return s;
  }

  #reenact(state: MarketState, e: ReplayTrade): void {
    const market = this.#engine.catalog.market(e.marketSymbol);
    const feeMax = maxFee(this.#engine.catalog.feeRates(e.marketSymbol));
    const taker = (state.taker ??= (this.#pool as ParticipantPool).create(`replay ${e.marketSymbol} taker`));
    // One message, one transaction: its trades and the restored levels are published together.
    state.liquidity.transact(() => {
      for (const t of e.trades) {
        state.liquidity.restoreAfter(t.takerSide === 'BUY' ? 'ask' : 'bid', t.rate, () => {
          taker.place(tradeOrder(e.marketSymbol, t), {
            currency: t.takerSide === 'BUY' ? market.quoteCurrencySymbol : market.baseCurrencySymbol,
            amount: t.takerSide === 'BUY' ? buyReserve(t.quantity, t.rate, feeMax) : t.quantity,
          });
        });
        this.#stats.trades++;
      }
    });
  }

  #guard(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.#stats.errors++;
      this.#hooks.onError?.(err);
    }
  }
}

function tradeOrder(marketSymbol: string, t: Trade): NewOrder {
  return {
    marketSymbol,
    direction: t.takerSide,
    type: 'LIMIT',
    timeInForce: 'IMMEDIATE_OR_CANCEL',
    quantity: t.quantity,
    limit: t.rate,
  };
}

function newReplayStats(): ReplayStats {
  return { ...newDriverStats(), events: 0, unknownMarket: 0, trades: 0, dustLevels: 0 };
}
