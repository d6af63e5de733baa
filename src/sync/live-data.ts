/**
 * `createLiveData`: market and account stores kept in step with a venue through an {@link ExchangeGateway}.
 *
 * For each order book (market, depth), optionally each market's trades and candles, and the account's balances,
 * orders, conditional orders and executions, it subscribes the hub channel and runs a rule-4 synchronizer (rule 5 for
 * executions) fed by the gateway's messages and snapshots. When the gateway reports that streams may have
 * missed messages — a new connection, or private streams resubscribed after their authentication lapsed — the
 * affected synchronizers resync from a fresh snapshot at once, rather than waiting for a gap that a quiet
 * stream might not show for a long time.
 *
 * `status$` reports every stream's transitions (synchronizing → live → resyncing with the reason → live ...);
 * `isLive(market)` is the risk engine's "may this market trade" question.
 */
import { Observable, Subject, type Subscription } from 'rxjs';
import type { Clock } from '../core/clock.js';
import type { ExchangeGateway, StreamResyncNotice } from '../gateway/exchange-gateway.js';
import type { StreamMessage } from '../bittrex/hub/messages.js';
import type { CandleInterval, OrderBookDepth } from '../model/index.js';
import { AccountStore } from '../store/account-store.js';
import { MarketStore } from '../store/market-store.js';
import { LiveRouter } from './live-router.js';
import { buildLiveStreams, type LiveStream } from './live-streams.js';
import type { RetryPolicy, SyncStats, SyncStatus } from './synchronizer.js';

/** The part of a pino logger LiveData uses. */
export interface LiveDataLogger {
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
}

/** Options of {@link createLiveData}. */
export interface LiveDataOptions {
  /** Time source of retry backoff and reorder windows; status timestamps (`at`) come from it too. */
  clock: Clock;
  /** Markets whose order books to keep. */
  markets: readonly string[];
  /** Book depths per market (each its own channel and sequence, rule 1); default `[25]`. */
  depths?: readonly OrderBookDepth[] | undefined;
  /** Also keep each market's recent trades (`trade_<market>`); default false. */
  trades?: boolean | undefined;
  /** Also keep each market's TRADE candles of these intervals (`candle_<market>_<interval>`); default none. */
  candles?: readonly CandleInterval[] | undefined;
  /** Keep the account (balances, orders, executions); needs credentials on the gateway. Default true. */
  account?: boolean | undefined;
  /** With the account, also its conditional orders; default true. */
  conditionalOrders?: boolean | undefined;
  /** Stores to write into; by default new ones. */
  marketStore?: MarketStore | undefined;
  accountStore?: AccountStore | undefined;
  /** Snapshot retry schedule (see {@link RetryPolicy}). */
  retry?: Partial<RetryPolicy> | undefined;
  /** Hold a message that skipped ahead this long before calling it a gap; default 0 (rule 4 as written). */
  reorderWindowMs?: number | undefined;
  /** Most messages queued per stream while a snapshot is on its way; default 10,000. */
  maxQueued?: number | undefined;
  logger?: LiveDataLogger | undefined;
}

/**
 * One status transition of one stream. `cause` is set on a `resyncing` that the gateway triggered (reason
 * `reconnect`): the gateway's reason, e.g. `closed`, `watchdog`, `auth-lapsed`.
 */
export interface LiveStreamStatus {
  /** The channel, e.g. `orderbook_BTC-USD_25`, `balance`, `execution`. */
  stream: string;
  status: SyncStatus;
  cause?: string | undefined;
  /** Clock time of the transition. */
  at: number;
}

/** Stores kept live over a gateway. */
export interface LiveData {
  /** The market data (books, trades). Strategies get it as a ReadonlyMarketStore. */
  readonly market: MarketStore;
  /** The account, when account sync is on. */
  readonly account: AccountStore | undefined;
  /** Every stream's status transitions; the current status of each stream is replayed to a new subscriber. */
  readonly status$: Observable<LiveStreamStatus>;
  /** The channels this LiveData subscribes. */
  readonly channels: readonly string[];
  /** The latest status of one stream. */
  status(stream: string): LiveStreamStatus | undefined;
  /** True when every book of `marketSymbol` and every account stream is live: the market may trade. */
  isLive(marketSymbol: string): boolean;
  /** True when every stream is live. */
  allLive(): boolean;
  /** The sequence one stream is synchronized to while it is live; undefined otherwise. */
  sequence(stream: string): number | undefined;
  /** Counters of one stream's synchronizer (applied, duplicates, gaps, snapshots, ...). */
  stats(stream: string): Readonly<SyncStats> | undefined;
  /** Subscribe the channels and start synchronizing. Resolves once subscribed (not once live). */
  start(): Promise<void>;
  /** Stop synchronizing; the stores keep their last state. The gateway stays open (its owner closes it). */
  stop(): Promise<void>;
}

/**
 * Keep stores in step with `gateway`.
 *
 * @example
 * const live = createLiveData(gateway, { clock: systemClock, markets: ['BTC-USD'], depths: [25] });
 * live.status$.subscribe((s) => log.info(s, 'stream status'));
 * await live.start();
 * const risk = new RiskEngine(config, { ..., streamLive: (m) => live.isLive(m), marketStore: live.market });
 */
export function createLiveData(gateway: ExchangeGateway, opts: LiveDataOptions): LiveData {
  return new LiveDataImpl(gateway, opts);
}

class LiveDataImpl implements LiveData {
  readonly market: MarketStore;
  readonly account: AccountStore | undefined;
  readonly channels: readonly string[];
  readonly #gateway: ExchangeGateway;
  readonly #opts: LiveDataOptions;
  readonly #streams: LiveStream[];
  readonly #router: LiveRouter;
  readonly #latest = new Map<string, LiveStreamStatus>();
  readonly #statuses = new Subject<LiveStreamStatus>();
  /** The gateway's reason, held while a resync it triggered is being emitted. */
  readonly #pendingCause = new Map<string, string>();
  #subs: Subscription[] = [];
  #state: 'idle' | 'starting' | 'running' | 'stopped' = 'idle';

  readonly status$: Observable<LiveStreamStatus>;

  constructor(gateway: ExchangeGateway, opts: LiveDataOptions) {
    this.#gateway = gateway;
    this.#opts = opts;
    const wantAccount = opts.account ?? true;
    this.market = opts.marketStore ?? new MarketStore();
    this.account = wantAccount ? (opts.accountStore ?? new AccountStore()) : undefined;
    this.#streams = buildLiveStreams(
      gateway,
      { market: this.market, account: this.account },
      {
        markets: [...new Set(opts.markets)],
        depths: [...new Set<OrderBookDepth>(opts.depths ?? [25])],
        trades: opts.trades ?? false,
        candles: [...new Set(opts.candles ?? [])],
        account: wantAccount,
        conditionalOrders: opts.conditionalOrders ?? true,
      },
      { clock: opts.clock, retry: opts.retry, reorderWindowMs: opts.reorderWindowMs, maxQueued: opts.maxQueued },
    );
    this.#router = new LiveRouter(this.#streams);
    this.channels = this.#streams.map((s) => s.channel);
    this.status$ = new Observable<LiveStreamStatus>((subscriber) => {
      for (const s of this.#latest.values()) subscriber.next(s);
      return this.#statuses.subscribe(subscriber);
    });
    // Statuses are followed from the start, so `synchronizing` is known before any message arrives.
    for (const s of this.#streams) this.#subs.push(s.sync.status$.subscribe((status) => this.#onStatus(s.channel, status)));
  }

  status(stream: string): LiveStreamStatus | undefined {
    return this.#latest.get(stream);
  }

  isLive(marketSymbol: string): boolean {
    if (this.#state !== 'running') return false;
    let books = 0;
    for (const s of this.#streams) {
      if (!s.critical || (s.marketSymbol !== undefined && s.marketSymbol !== marketSymbol)) continue;
      if (s.sync.status.state !== 'live') return false;
      if (s.marketSymbol !== undefined) books++;
    }
    // A market this LiveData does not follow has no synchronized book, so it can never be called live.
    return books > 0;
  }

  allLive(): boolean {
    return this.#state === 'running' && this.#streams.every((s) => s.sync.status.state === 'live');
  }

  sequence(stream: string): number | undefined {
    return this.#router.byChannel(stream)?.sync.sequence;
  }

  stats(stream: string): Readonly<SyncStats> | undefined {
    const s = this.#router.byChannel(stream);
    return s ? { ...s.sync.stats } : undefined;
  }

  async start(): Promise<void> {
    if (this.#state !== 'idle') throw new Error(`LiveData.start: already ${this.#state}`);
    this.#state = 'starting';
    const streams = this.#gateway.streams;
    // Rule 4 (a)-(b): listen before subscribing, so nothing published after the subscription is missed.
    this.#subs.push(streams.messages$.subscribe((m) => this.#route(m)));
    const resyncs = streams.resyncs$;
    if (resyncs) {
      this.#subs.push(resyncs.subscribe((n) => this.#onResync(n)));
    } else {
      let epoch: number | undefined;
      this.#subs.push(
        streams.connectionEpoch$.subscribe((e) => {
          if (epoch !== undefined && e !== epoch) this.#onResync({ reason: 'reconnect', epoch: e });
          epoch = e;
        }),
      );
    }
    try {
      await streams.subscribe(this.channels);
    } catch (e) {
      await this.stop();
      throw e;
    }
    if (this.#state !== 'starting') return; // stopped meanwhile
    this.#state = 'running';
    // (c): snapshots only now that the subscriptions are in place.
    for (const s of this.#streams) s.sync.start();
    this.#opts.logger?.info({ channels: this.channels }, 'live data subscribed');
  }

  async stop(): Promise<void> {
    if (this.#state === 'stopped') return;
    this.#state = 'stopped';
    for (const sub of this.#subs) sub.unsubscribe();
    this.#subs = [];
    for (const s of this.#streams) s.sync.stop();
    this.#statuses.complete();
  }

  #route(message: StreamMessage): void {
    const stream = this.#router.streamOf(message);
    if (!stream) return;
    try {
      stream.push(message.data);
    } catch (error) {
      // A message without a usable sequence changes nothing; the stream goes on (and a real loss shows as a gap).
      this.#opts.logger?.warn({ channel: stream.channel, error: (error as Error).message }, 'stream message refused');
    }
  }

  #onResync(notice: StreamResyncNotice): void {
    const affected = notice.channels ? new Set(notice.channels) : undefined;
    this.#opts.logger?.info({ reason: notice.reason, epoch: notice.epoch, channels: notice.channels }, 'streams resync');
    for (const s of this.#streams) {
      if (affected && !affected.has(s.channel)) continue;
      // reconnect() emits `resyncing` synchronously when the stream was live; the cause rides along with it.
      this.#pendingCause.set(s.channel, notice.reason);
      s.sync.reconnect();
      this.#pendingCause.delete(s.channel);
    }
  }

  #onStatus(channel: string, status: SyncStatus): void {
    const cause = status.state === 'resyncing' && status.reason === 'reconnect' ? this.#pendingCause.get(channel) : undefined;
    const entry: LiveStreamStatus = cause === undefined
      ? { stream: channel, status, at: this.#opts.clock.now() }
      : { stream: channel, status, cause, at: this.#opts.clock.now() };
    this.#latest.set(channel, entry);
    if (status.state === 'resyncing') {
      this.#opts.logger?.warn({ stream: channel, reason: status.reason, cause, expected: status.expected, got: status.got }, 'stream resyncing');
    }
    this.#statuses.next(entry);
  }
}
