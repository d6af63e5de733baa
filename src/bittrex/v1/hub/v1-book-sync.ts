/**
 * The seed's v1.1 resynchronization (seed 001 section 6; api-spec-v1-1.json "Socket Connections"), for a set of
 * markets on one connection at a time:
 *
 *   1. drop the connection and clear all state (nonces are per connection);
 *   2. connect again;
 *   3. subscribe to each market's deltas, caching every uE by nonce;
 *   4. query each market's state;
 *   5. apply the cached deltas in nonce order, starting after the query's nonce; then apply uE as they come.
 *
 * A nonce that skips (a lost uE), a connection that closes, or a market whose updates stop while trading goes on
 * (uL shows its volume moving, no uE for `staleAfterMs`) starts again at 1. Duplicates (nonce already applied)
 * are ignored.
 *
 * Starting again waits the v3 hub client's backoff ({@link ReconnectPolicy}: capped exponential delays with
 * jitter, the same policy and defaults the bot's v1.1 streams reconnect with), so a hub whose connect, subscribe or
 * QueryExchangeState keeps failing is asked again after 1, 2, 4 ... 30 s, not once a second forever. The delays start
 * over once the books were in step on a connection that then stayed up for `reconnect.stableAfterMs` (30 s by
 * default; 0: as soon as they are in step). A lost or skipped uE on such a proven connection is
 * resynchronized at once, as before; a repeated one backs off like any failure. Each resync is reported (event and
 * log) with its reason and the delay before the next attempt.
 */
import { Subject, type Observable, type Subscription } from 'rxjs';
import { systemClock, type Clock, type TimerHandle } from '../../../core/clock.js';
import type { V1DeltaFill, V1ExchangeDelta } from '../../../wire/v1/hub/messages.js';
import type { HubLogger } from '../../hub/hub-client-types.js';
import { ReconnectPolicy, type RandomSource, type ReconnectOptions } from '../../hub/reconnect-policy.js';
import { V1LocalBook } from './v1-local-book.js';
import type { V1HubClient, V1HubEvent } from './v1-hub-client.js';

/** Why a connection was recycled. */
export type V1ResyncCause = 'connect-failed' | 'closed' | 'gap' | 'stale' | 'bad-message' | 'query-failed';

/** What the synchronizer reports. */
export type V1BookSyncEvent =
  /** A book is (again) in step with the server at `nonce`: after a query, and after each applied uE. */
  | { type: 'book'; marketName: string; nonce: number; book: V1LocalBook }
  /** Fills of an applied uE. */
  | { type: 'fills'; marketName: string; nonce: number; fills: V1DeltaFill[] }
  /**
   * The connection is being dropped and every book discarded; the next connection is tried in `delayMs` (attempt
   * `attempt` of this outage, counted as the backoff counts it).
   */
  | { type: 'resync'; cause: V1ResyncCause; detail: string; attempt: number; delayMs: number };

/** Settings of {@link V1BookSync}. */
export interface V1BookSyncOptions {
  /** v1.1 market names (`USD-BTC`). */
  markets: readonly string[];
  /** Makes a fresh, unconnected client (one per connection). */
  newClient: () => V1HubClient;
  clock?: Clock;
  /** A market whose uE stop for this long while uL shows it trading is resynchronized; default 30 000 ms. */
  staleAfterMs?: number;
  /** Backoff between connections, and how long books must stay in step to reset it; defaults in DEFAULT_RECONNECT. */
  reconnect?: Partial<ReconnectOptions>;
  /** Random source of the backoff's jitter; default Math.random. */
  random?: RandomSource;
  /** Where each resync (reason, detail, attempt, delay) and each recovery is logged; default silent. */
  logger?: HubLogger;
}

interface MarketState {
  book: V1LocalBook | undefined;
  /** uE received before the query answered, by nonce. */
  cache: Map<number, V1ExchangeDelta> | undefined;
  lastDeltaAt: number;
  lastVolume: string | undefined;
}

/**
 * Keeps the books of `markets` in step with a v1.1 hub.
 *
 * @example
 * const sync = new V1BookSync({ markets: ['USD-BTC'], newClient: () => new V1HubClient({ url }) });
 * sync.events$.subscribe((e) => e.type === 'book' && console.log(e.nonce, e.book.bids(1)));
 * sync.start();
 */
export class V1BookSync {
  readonly #opts: Pick<V1BookSyncOptions, 'markets' | 'newClient'> & { clock: Clock; staleAfterMs: number };
  readonly #events = new Subject<V1BookSyncEvent>();
  readonly events$: Observable<V1BookSyncEvent> = this.#events.asObservable();
  readonly #policy: ReconnectPolicy;
  readonly #log: HubLogger;
  #client: V1HubClient | undefined;
  #sub: Subscription | undefined;
  #markets = new Map<string, MarketState>();
  #generation = 0;
  #stopped = false;
  #resyncs = 0;
  /** The wait before the next connection, while one is pending. */
  #retry: TimerHandle | undefined;
  /** Why the books were last dropped, until they are in step again (the recovery line says it). */
  #lastCause: V1ResyncCause | undefined;

  constructor(opts: V1BookSyncOptions) {
    this.#opts = { markets: opts.markets, newClient: opts.newClient, clock: opts.clock ?? systemClock, staleAfterMs: opts.staleAfterMs ?? 30_000 };
    this.#policy = new ReconnectPolicy(opts.reconnect, opts.random);
    this.#log = opts.logger ?? SILENT;
  }

  /** Connections recycled so far. */
  get resyncs(): number {
    return this.#resyncs;
  }

  /** The in-step book of a market, or undefined while it is synchronizing. */
  book(marketName: string): V1LocalBook | undefined {
    return this.#markets.get(marketName)?.book;
  }

  /** Connect and synchronize; reconnects by itself until {@link stop}. */
  start(): void {
    void this.#run(++this.#generation);
  }

  /** Drop the connection and stop. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#generation++;
    this.#retry?.cancel();
    this.#retry = undefined;
    this.#sub?.unsubscribe();
    await this.#client?.close();
    this.#events.complete();
  }

  async #run(gen: number): Promise<void> {
    const client = this.#opts.newClient();
    this.#client = client;
    this.#markets = new Map(this.#opts.markets.map((m) => [m, { book: undefined, cache: new Map(), lastDeltaAt: this.#opts.clock.now(), lastVolume: undefined }]));
    this.#sub = client.events$.subscribe((e) => this.#onEvent(gen, e));
    try {
      await client.connect();
      await client.subscribeToSummaryLiteDeltas();
      for (const m of this.#opts.markets) {
        if (!(await client.subscribeToExchangeDeltas(m))) throw new Error(`SubscribeToExchangeDeltas(${m}) answered false`);
      }
    } catch (err) {
      return this.#recycle(gen, 'connect-failed', (err as Error).message);
    }
    for (const m of this.#opts.markets) {
      if (gen !== this.#generation) return;
      try {
        const state = await client.queryExchangeState(m);
        if (gen !== this.#generation) return;
        const s = this.#markets.get(m) as MarketState;
        const book = new V1LocalBook(state);
        const cached = [...(s.cache ?? new Map<number, V1ExchangeDelta>()).values()].sort((a, b) => a.Nonce - b.Nonce);
        s.cache = undefined;
        s.book = book;
        this.#events.next({ type: 'book', marketName: m, nonce: book.nonce, book });
        for (const d of cached) if (!this.#apply(gen, s, d)) return;
      } catch (err) {
        return this.#recycle(gen, 'query-failed', `${m}: ${(err as Error).message}`);
      }
    }
    if (gen !== this.#generation) return;
    // Every book is in step: the backoff starts over if this connection now stays up (ReconnectPolicy.lost).
    this.#policy.connected(this.#opts.clock.now());
    if (this.#lastCause !== undefined) {
      this.#log.info({ markets: this.#opts.markets, reason: this.#lastCause, resyncs: this.#resyncs }, 'books in step again');
      this.#lastCause = undefined;
    }
  }

  #onEvent(gen: number, e: V1HubEvent): void {
    if (gen !== this.#generation) return;
    if (e.type === 'closed') return this.#recycle(gen, 'closed', e.error?.message ?? 'connection closed');
    if (e.type === 'bad-message') return this.#recycle(gen, 'bad-message', `${e.method}: ${e.error.message}`);
    const msg = e.message;
    if (msg.name === 'uE') {
      const s = this.#markets.get(msg.data.MarketName);
      if (!s) return;
      s.lastDeltaAt = this.#opts.clock.now();
      if (s.cache) s.cache.set(msg.data.Nonce, msg.data);
      else this.#apply(gen, s, msg.data);
    } else if (msg.name === 'uL') {
      const now = this.#opts.clock.now();
      for (const d of msg.data.Deltas) {
        const s = this.#markets.get(d.MarketName);
        if (!s) continue;
        const volume = d.BaseVolume.toString();
        const traded = s.lastVolume !== undefined && volume !== s.lastVolume;
        s.lastVolume = volume;
        // Trading goes on, yet this market's deltas have been silent for longer than allowed: the connection is
        // no longer delivering them (the document's "recycle" case).
        if (traded && s.book && now - s.lastDeltaAt > this.#opts.staleAfterMs) {
          return this.#recycle(gen, 'stale', `${d.MarketName}: trading seen, no uE for ${now - s.lastDeltaAt} ms`);
        }
      }
    }
  }

  /** Apply one uE to an in-step book; false when it forced a resync. */
  #apply(gen: number, s: MarketState, d: V1ExchangeDelta): boolean {
    const book = s.book as V1LocalBook;
    if (d.Nonce <= book.nonce) return true; // Already in the snapshot, or a duplicate.
    if (d.Nonce !== book.nonce + 1) {
      this.#recycle(gen, 'gap', `${d.MarketName}: nonce ${d.Nonce} after ${book.nonce}`);
      return false;
    }
    book.apply(d.Nonce, d.Buys, d.Sells);
    this.#events.next({ type: 'book', marketName: d.MarketName, nonce: d.Nonce, book });
    if (d.Fills.length > 0) this.#events.next({ type: 'fills', marketName: d.MarketName, nonce: d.Nonce, fills: d.Fills });
    return true;
  }

  #recycle(gen: number, cause: V1ResyncCause, detail: string): void {
    if (gen !== this.#generation || this.#stopped) return;
    const next = ++this.#generation;
    this.#resyncs++;
    this.#lastCause = cause;
    this.#sub?.unsubscribe();
    const old = this.#client;
    this.#client = undefined;
    for (const s of this.#markets.values()) s.book = undefined;
    this.#policy.lost(this.#opts.clock.now());
    const backoff = this.#policy.nextDelayMs();
    const attempt = this.#policy.attempt;
    // A message lost on a connection that proved itself (the backoff was reset) is fetched again at once; on a
    // connection that keeps losing them, or after a failure, the backoff's delay applies.
    const delayMs = (cause === 'gap' || cause === 'stale') && attempt === 1 ? 0 : backoff;
    this.#events.next({ type: 'resync', cause, detail, attempt, delayMs });
    this.#log.warn({ markets: this.#opts.markets, reason: cause, detail, attempt, delay: delayMs }, 'books resyncing');
    void old?.close();
    this.#retry = this.#opts.clock.setTimeout(() => {
      this.#retry = undefined;
      if (next === this.#generation && !this.#stopped) void this.#run(next);
    }, delayMs);
  }
}

const SILENT: HubLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined };
