/**
 * The v1.1 hub behind the {@link GatewayStreams} port: the kernel subscribes v3 channel names and receives v3
 * stream messages, while the wire is hub `c2`.
 *
 * - `orderbook_{m}_{depth}` → SubscribeToExchangeDeltas; each uE becomes an `orderBook` message per subscribed
 *   depth, its Nonce the sequence. The snapshot (QueryExchangeState on the same connection) is kept as a local
 *   book moved on by the uE (seed section 6), so a depth's snapshot is its top levels and each message carries
 *   the changes of those top levels (a level entering them included, one leaving them as quantity 0), as a v3
 *   depth stream does; a new connection bumps the epoch and every book resyncs.
 * - `trade_{m}` → the fills of those uE, numbered by the gateway (uE nonces also count book-only changes).
 * - `order`, `balance` → uO and uB (Authenticate at connect), numbered by the gateway per channel.
 * - `execution` → v1.1 has no execution stream: each uO whose filled quantity grew becomes one execution of the
 *   difference (rate = proceeds difference / quantity difference), kept in {@link V1Executions}.
 * - A followed market whose uE stop while uL shows it trading gets the connection recycled (reconnect, new epoch).
 * - A lost connection (closed, silent: see V1HubClient's watchdog, or recycled) is made again with the v3 hub
 *   client's backoff ({@link ReconnectPolicy}, reconnect-loop.ts): growing delays that start over only once a
 *   connection has stayed up, so a hub that accepts and drops every connection is not hammered once a second.
 *   As the v3 hub client, the streams log the loss and its reason (`HUB_SILENT`, `closed`, `stale`), each retry's
 *   delay and the recovery, and `resyncs$` tells the kernel why the streams resync.
 * - `heartbeat` needs nothing; `conditional_order` is accepted and stays empty (its snapshot too: v1.1 has no
 *   conditional orders, and the gateway refuses to place one). Every other channel (candles, tickers, summaries, conditional orders, deposits,
 *   sub-accounts) has no v1.1 form and is refused by name.
 */
import { BehaviorSubject, Subject, type Observable } from 'rxjs';
import type { Clock } from '../../../core/clock.js';
import type { StreamMessage } from '../../hub/messages.js';
import type { GatewayStreams, Snapshot, StreamResyncNotice } from '../../../gateway/exchange-gateway.js';
import { NetworkError, RexbotError } from '../../../core/errors.js';
import type { HubLogger } from '../../hub/hub-client-types.js';
import type { Order } from '../../../model/order.js';
import type { OrderBook } from '../../../model/market.js';
import { balanceDeltaFromV1, exchangeDeltaFromV1, orderDeltaFromV1 } from '../../../wire/v1/mapping/streams.js';
import { symbolToV1Market, v1MarketToSymbol } from '../../../wire/v1/market-name.js';
import { GatewaySubscriptionError } from '../../gateway/gateway-errors.js';
import { HubSubscriptionError } from '../../hub/hub-errors.js';
import { BackoffSleep, reconnectLoop } from '../../hub/reconnect-loop.js';
import { ReconnectPolicy, type RandomSource, type ReconnectOptions } from '../../hub/reconnect-policy.js';
import { V1HubClient, type V1HubClientOptions, type V1HubCredentials, type V1HubEvent } from '../hub/v1-hub-client.js';
import { V1LocalBook } from '../hub/v1-local-book.js';
import type { V1ExchangeDelta } from '../../../wire/v1/hub/messages.js';
import { ZERO } from '../../../core/decimal.js';
import type { OrderBookEntry } from '../../../model/market.js';
import { V1Executions } from './v1-executions.js';

/** Hub connection tuning of the v1.1 streams; the names and defaults of the v3 gateway's `hub` where they match. */
export interface V1HubTuning {
  /** Backoff between reconnect attempts, and how long a connection must stay up to reset it; see DEFAULT_RECONNECT. */
  reconnect?: Partial<ReconnectOptions> | undefined;
  /** Random source for backoff jitter; default Math.random. */
  random?: RandomSource | undefined;
  /** See {@link V1HubClientOptions.silenceTimeoutMs}; default 20 000 ms. */
  silenceTimeoutMs?: number | undefined;
  /** See {@link V1HubClientOptions.invokeTimeoutMs}; default 15 000 ms. */
  invokeTimeoutMs?: number | undefined;
  /** See {@link V1HubClientOptions.connectTimeoutMs}; default 15 000 ms. */
  connectTimeoutMs?: number | undefined;
}

/** Settings of {@link V1GatewayStreams}. */
export interface V1GatewayStreamsOptions {
  hubUrl: string;
  credentials?: V1HubCredentials | undefined;
  clock: Clock;
  /** Orders as the gateway knows them (adds clientOrderId). */
  decorate: (o: Order) => Order;
  /** Reconnect backoff, silence and call timeouts of the hub connection. */
  hub?: V1HubTuning | undefined;
  /** Where connection events are logged (as the v3 hub client's); default silent. */
  logger?: HubLogger | undefined;
  /**
   * A followed market whose uE stop for this long while uL shows it trading gets the connection recycled (the
   * document's "connections may need recycling"); default 30 000 ms.
   */
  staleAfterMs?: number;
}

const BOOK_RE = /^orderbook_([A-Za-z0-9]+-[A-Za-z0-9]+)_(1|25|500)$/;
const TRADE_RE = /^trade_([A-Za-z0-9]+-[A-Za-z0-9]+)$/;
const ACCOUNT = new Set(['order', 'balance', 'execution']);
/** Channels v1.1 has nothing for, accepted because nothing can ever be on them: no conditional orders exist. */
const ALWAYS_EMPTY = new Set(['heartbeat', 'conditional_order']);

/** The v1.1 streams of one gateway. */
export class V1GatewayStreams implements GatewayStreams {
  readonly #opts: V1GatewayStreamsOptions;
  readonly #messages = new Subject<StreamMessage>();
  readonly #epoch = new BehaviorSubject(0);
  readonly messages$: Observable<StreamMessage> = this.#messages.asObservable();
  readonly connectionEpoch$: Observable<number> = this.#epoch.asObservable();
  readonly #resyncs = new Subject<StreamResyncNotice>();
  /** Every new connection after the first, with the reason the one before it was lost. */
  readonly resyncs$: Observable<StreamResyncNotice> = this.#resyncs.asObservable();
  readonly executions = new V1Executions();
  /** v3 symbol → subscribed depths. */
  readonly #books = new Map<string, Set<number>>();
  readonly #trades = new Set<string>();
  readonly #account = new Set<string>();
  /** v3 symbol → trade message counter. */
  readonly #tradeSeq = new Map<string, number>();
  #orderSeq = 0;
  #balanceSeq = 0;
  /** v3 symbol → when its last uE came, and its last uL volume. */
  readonly #activity = new Map<string, { deltaAt: number; volume: string | undefined }>();
  /** v3 symbol → its book on the current connection, once a snapshot was taken of a followed market. */
  readonly #local = new Map<string, V1LocalBook>();
  /** v3 symbol → uE of a followed market not yet in a local book (they may overtake the snapshot's answer). */
  readonly #pending = new Map<string, V1ExchangeDelta[]>();
  #client: V1HubClient | undefined;
  #connecting: Promise<V1HubClient> | undefined;
  #closed = false;
  readonly #policy: ReconnectPolicy;
  readonly #backoff: BackoffSleep;
  /** Bumped by every reconnect loop started and by close(), so an older loop knows it is over. */
  #loop = 0;
  /** Clients whose connection closed: one that closes while {@link #connect} sets it up is not taken on. */
  readonly #lost = new WeakSet<V1HubClient>();
  /** Clients this side closed because a followed market went stale. */
  readonly #recycled = new WeakSet<V1HubClient>();
  /** Why the last connection in use was lost: the reason its replacement reports. */
  #lostReason = 'closed';
  readonly #log: HubLogger;

  constructor(opts: V1GatewayStreamsOptions) {
    this.#opts = opts;
    this.#policy = new ReconnectPolicy(opts.hub?.reconnect, opts.hub?.random);
    this.#backoff = new BackoffSleep(opts.clock);
    this.#log = opts.logger ?? SILENT;
  }

  /** Current counters, read before a REST snapshot so the stream continues it (see the module note). */
  sequenceOf(channel: 'order' | 'balance' | 'execution' | `trade:${string}`): number {
    if (channel === 'order') return this.#orderSeq;
    if (channel === 'balance') return this.#balanceSeq;
    if (channel === 'execution') return this.executions.sequence;
    return this.#tradeSeq.get(channel.slice(6)) ?? 0;
  }

  /**
   * Subscribe what v1.1 can deliver; the channels it cannot (no v1.1 form, or no such market) are named in one
   * GatewaySubscriptionError, in the order given, after the others were subscribed (as the v3 hub answers).
   */
  async subscribe(channels: readonly string[]): Promise<void> {
    const failures: HubSubscriptionError[] = [];
    const client = await this.#connection();
    for (const c of channels) {
      const book = BOOK_RE.exec(c);
      const trade = TRADE_RE.exec(c);
      const symbol = (book?.[1] ?? trade?.[1])?.toUpperCase();
      if (symbol !== undefined) {
        if (!this.#books.has(symbol) && !this.#trades.has(symbol)) {
          if (!(await client.subscribeToExchangeDeltas(symbolToV1Market(symbol)))) {
            failures.push(new HubSubscriptionError(c, 'MARKET_DOES_NOT_EXIST', 'Subscribe'));
            continue;
          }
        }
        if (book) this.#books.set(symbol, (this.#books.get(symbol) ?? new Set()).add(Number(book[2])));
        else this.#trades.add(symbol);
      } else if (ACCOUNT.has(c)) {
        this.#account.add(c);
      } else if (!ALWAYS_EMPTY.has(c)) {
        failures.push(new HubSubscriptionError(c, 'INVALID_CHANNEL', 'Subscribe'));
      }
    }
    if (failures.length > 0) throw new GatewaySubscriptionError(failures);
  }

  async unsubscribe(channels: readonly string[]): Promise<void> {
    // v1.1 has no unsubscribe method: the channel's messages are simply no longer passed on.
    for (const c of channels) {
      const book = BOOK_RE.exec(c);
      const trade = TRADE_RE.exec(c);
      if (book) this.#books.get(book[1]!.toUpperCase())?.delete(Number(book[2]));
      else if (trade) this.#trades.delete(trade[1]!.toUpperCase());
      else this.#account.delete(c);
      // A market no longer followed is no longer moved on: its local book would go stale.
      const symbol = (book?.[1] ?? trade?.[1])?.toUpperCase();
      if (symbol !== undefined && !this.#follows(symbol)) this.#local.delete(symbol);
    }
  }

  /** The top `depth` levels of `symbol`'s book at the connection's current Nonce. */
  async orderBook(symbol: string, depth: number): Promise<Snapshot<OrderBook>> {
    const client = await this.#connection();
    const key = symbol.toUpperCase();
    let book = this.#local.get(key);
    if (!book) {
      book = new V1LocalBook(await client.queryExchangeState(symbolToV1Market(symbol)));
      // Kept only while its uE come on this connection (nothing else would move it on); the uE that overtook the
      // answer are applied after its Nonce, as the seed's resynchronization does.
      if (this.#client === client && this.#follows(key)) {
        for (const d of this.#pending.get(key) ?? []) if (d.Nonce === book.nonce + 1) book.apply(d.Nonce, d.Buys, d.Sells);
        this.#pending.delete(key);
        this.#local.set(key, book);
      }
    }
    return { data: { bid: book.bids(depth), ask: book.asks(depth) }, sequence: book.nonce };
  }

  #follows(symbol: string): boolean {
    return this.#books.has(symbol) || this.#trades.has(symbol);
  }

  /** One uE as `orderBook` messages, one per subscribed depth: the changes of that depth's top levels. */
  #bookMessages(symbol: string, raw: V1ExchangeDelta, d: ReturnType<typeof exchangeDeltaFromV1>): void {
    const depths = [...(this.#books.get(symbol) ?? [])] as (1 | 25 | 500)[];
    const book = this.#local.get(symbol);
    if (!book) {
      const pending = this.#pending.get(symbol) ?? [];
      pending.push(raw);
      this.#pending.set(symbol, pending.slice(-1_000));
    } else if (raw.Nonce !== book.nonce + 1) {
      // Already in the snapshot (passed on as is: a consumer drops it), or a gap: the next snapshot queries again.
      if (raw.Nonce > book.nonce) this.#local.delete(symbol);
    } else {
      const before = depths.map((n) => [book.bids(n), book.asks(n)] as const);
      book.apply(raw.Nonce, raw.Buys, raw.Sells);
      depths.forEach((depth, i) => {
        const [bids, asks] = before[i]!;
        this.#messages.next({ name: 'orderBook', data: { marketSymbol: symbol, depth, sequence: d.sequence, bidDeltas: changes(bids, book.bids(depth)), askDeltas: changes(asks, book.asks(depth)) } });
      });
      return;
    }
    for (const depth of depths) {
      this.#messages.next({ name: 'orderBook', data: { marketSymbol: symbol, depth, sequence: d.sequence, bidDeltas: d.bidDeltas, askDeltas: d.askDeltas } });
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#loop++;
    this.#backoff.interrupt();
    await this.#client?.close();
    this.#messages.complete();
    this.#epoch.complete();
    this.#resyncs.complete();
  }

  #connection(): Promise<V1HubClient> {
    if (this.#closed) return Promise.reject(new Error('the v1.1 gateway streams are closed'));
    if (this.#client) return Promise.resolve(this.#client);
    this.#connecting ??= this.#connect().finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async #connect(): Promise<V1HubClient> {
    const client = new V1HubClient(this.#clientOptions());
    client.events$.subscribe((e) => this.#onEvent(client, e));
    await client.connect();
    await client.subscribeToSummaryLiteDeltas();
    this.#activity.clear();
    this.#local.clear();
    this.#pending.clear();
    // Markets followed on a previous connection are followed again on this one.
    for (const symbol of new Set([...this.#books.keys(), ...this.#trades])) await client.subscribeToExchangeDeltas(symbolToV1Market(symbol));
    if (this.#closed || this.#lost.has(client)) {
      await client.close();
      throw new Error(this.#closed ? 'the v1.1 gateway streams are closed' : 'the v1.1 hub connection closed while it was set up');
    }
    this.#client = client;
    this.#policy.connected(this.#opts.clock.now());
    // Every new connection is a new epoch, the first one included (1 once subscribed, as on every gateway).
    const epoch = this.#epoch.value + 1;
    const channels = this.#books.size + this.#trades.size + this.#account.size;
    if (epoch === 1) {
      this.#log.info({ epoch, channels }, 'hub connected');
    } else {
      this.#log.info({ epoch, reason: this.#lostReason, channels }, 'hub reconnected');
      // Before the epoch moves, as the v3 streams do: a synchronizer resyncs once, knowing why.
      this.#resyncs.next({ reason: this.#lostReason, epoch });
    }
    this.#epoch.next(epoch);
    return client;
  }

  #clientOptions(): V1HubClientOptions {
    const { silenceTimeoutMs, invokeTimeoutMs, connectTimeoutMs } = this.#opts.hub ?? {};
    return {
      url: this.#opts.hubUrl,
      clock: this.#opts.clock,
      ...(this.#opts.credentials ? { credentials: this.#opts.credentials } : {}),
      ...(silenceTimeoutMs !== undefined ? { silenceTimeoutMs } : {}),
      ...(invokeTimeoutMs !== undefined ? { invokeTimeoutMs } : {}),
      ...(connectTimeoutMs !== undefined ? { connectTimeoutMs } : {}),
    };
  }

  /** Connect again in the background, backing off (see reconnect-loop.ts), until connected or closed. */
  #reconnect(reason: string): void {
    const loop = ++this.#loop;
    this.#backoff.interrupt(); // an older loop still waiting is over
    void reconnectLoop(reason, {
      current: () => loop === this.#loop && !this.#closed,
      delayMs: () => this.#policy.nextDelayMs(),
      sleep: (ms) => this.#backoff.sleep(ms),
      status: () => undefined,
      connect: async () => void (await this.#connection()),
      failed: (err) => (err instanceof RexbotError ? err.code : 'connect-failed'),
      log: this.#log,
    });
  }

  /** Recycle the connection when a followed market trades (uL volume moves) but its uE have stopped. */
  #watch(client: V1HubClient, deltas: readonly { MarketName: string; BaseVolume: { toString(): string } }[]): void {
    const now = this.#opts.clock.now();
    for (const d of deltas) {
      const symbol = v1MarketToSymbol(d.MarketName);
      if (symbol === undefined || (!this.#books.has(symbol) && !this.#trades.has(symbol))) continue;
      const a = this.#activity.get(symbol) ?? { deltaAt: now, volume: undefined };
      const volume = d.BaseVolume.toString();
      const traded = a.volume !== undefined && a.volume !== volume;
      this.#activity.set(symbol, { ...a, volume });
      if (traded && now - a.deltaAt > (this.#opts.staleAfterMs ?? 30_000)) {
        // Closing reports `closed`, which reconnects and bumps the epoch: every synchronizer resyncs.
        this.#recycled.add(client);
        void client.close();
        return;
      }
    }
  }

  #onEvent(client: V1HubClient, e: V1HubEvent): void {
    if (e.type === 'closed') {
      this.#lost.add(client);
      // A client never taken on fails the #connect setting it up, which tells whoever asked (a loop retries).
      if (this.#client !== client || this.#closed) return;
      this.#client = undefined;
      this.#policy.lost(this.#opts.clock.now());
      const reason = lossReason(e.error, this.#recycled.has(client));
      this.#lostReason = reason;
      this.#log.warn({ epoch: this.#epoch.value, reason, ...(e.error ? { error: e.error.message } : {}) }, 'hub connection lost');
      // Nonces belonged to that connection: reconnect, then every synchronizer resyncs on the new epoch.
      this.#reconnect(reason);
      return;
    }
    if (e.type !== 'message' || this.#client !== client) return;
    const m = e.message;
    if (m.name === 'uL') return this.#watch(client, m.data.Deltas);
    if (m.name === 'uE') {
      const d = exchangeDeltaFromV1(m.data);
      this.#activity.set(d.marketSymbol, { deltaAt: this.#opts.clock.now(), volume: this.#activity.get(d.marketSymbol)?.volume });
      if (this.#follows(d.marketSymbol)) this.#bookMessages(d.marketSymbol, m.data, d);
      if (d.trades.length > 0 && this.#trades.has(d.marketSymbol)) {
        const sequence = (this.#tradeSeq.get(d.marketSymbol) ?? 0) + 1;
        this.#tradeSeq.set(d.marketSymbol, sequence);
        this.#messages.next({ name: 'trade', data: { sequence, marketSymbol: d.marketSymbol, deltas: d.trades } });
      } else if (d.trades.length > 0) {
        this.#tradeSeq.set(d.marketSymbol, (this.#tradeSeq.get(d.marketSymbol) ?? 0) + 1);
      }
    } else if (m.name === 'uO') {
      const { accountId, delta } = orderDeltaFromV1(m.data);
      const order = this.#opts.decorate(delta);
      const sequence = ++this.#orderSeq;
      if (this.#account.has('order')) this.#messages.next({ name: 'order', data: { accountId, sequence, delta: order } });
      const fresh = this.executions.observe(order);
      if (fresh.length > 0 && this.#account.has('execution')) {
        this.#messages.next({ name: 'execution', data: { accountId, sequence: this.executions.sequence, deltas: fresh } });
      }
    } else if (m.name === 'uB') {
      const { accountId, delta } = balanceDeltaFromV1(m.data, m.data.Delta.Uuid);
      const sequence = ++this.#balanceSeq;
      if (this.#account.has('balance')) this.#messages.next({ name: 'balance', data: { accountId, sequence, delta } });
    }
  }
}

/**
 * Why a connection in use ended, in the v3 hub client's words where they match: `stale` (recycled here), the code
 * of the error V1HubClient closed it for (`HUB_SILENT`, an unanswered call's), else `closed` (the socket closed:
 * its NetworkError says by whom, and is logged as `error`).
 */
function lossReason(error: Error | undefined, recycled: boolean): string {
  if (recycled) return 'stale';
  return error instanceof RexbotError && !(error instanceof NetworkError) ? error.code : 'closed';
}

const SILENT: HubLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined };

/** The levels of `after` that differ from `before`, and those of `before` gone from `after` as quantity 0. */
function changes(before: readonly OrderBookEntry[], after: readonly OrderBookEntry[]): OrderBookEntry[] {
  const was = new Map(before.map((l) => [l.rate.toString(), l]));
  const out: OrderBookEntry[] = [];
  for (const l of after) {
    const w = was.get(l.rate.toString());
    if (w === undefined || !w.quantity.eq(l.quantity)) out.push(l);
    was.delete(l.rate.toString());
  }
  for (const w of was.values()) out.push({ rate: w.rate, quantity: ZERO });
  return out;
}
