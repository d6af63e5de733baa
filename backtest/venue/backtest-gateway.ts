/**
 * The {@link ExchangeGateway} of a backtest: the kernel talks to the {@link BacktestVenue} through it exactly as
 * it talks to Bittrex or the simulator server, with latency in virtual time and no sockets.
 *
 * - Commands (place, cancel, cancel-all, batch) leave the bot now and reach the venue after the order-entry (or
 *   cancel) latency, at exactly that virtual time (a clock timer, not the next market event). Their answer comes
 *   back after the market-data latency, behind whatever the venue published before answering.
 * - Everything the venue publishes — market data and our private events — reaches the bot after the market-data
 *   latency, in publication order (a later message never overtakes an earlier one, as on one connection).
 * - Reads (balances, open orders, book, trades, candles snapshots) answer at once with the venue's state now.
 * - Requests the REST client refuses locally are refused here the same way, at once.
 * - Conditional orders are the venue's (engine rules, triggered by recorded trades); placing and cancelling them
 *   take the order-entry and cancel latencies like orders.
 */
import { BehaviorSubject, type Observable } from 'rxjs';
import { GatewaySubscriptionError } from '../../src/bittrex/gateway/gateway-errors.js';
import { HubSubscriptionError } from '../../src/bittrex/hub/hub-errors.js';
import { parseChannelName, type StreamMessage } from '../../src/bittrex/hub/messages.js';
import {
  optionalText,
  requireText,
  validateBatch,
  validateCandleKind,
  validateDepth,
  validateNewConditionalOrder,
  validateNewOrder,
} from '../../src/bittrex/rest/validate.js';
import type { TimerHandle, VirtualClock } from '../../src/core/clock.js';
import { ZERO } from '../../src/core/decimal.js';
import { Multicast } from '../../src/core/multicast.js';
import type { ExchangeGateway, GatewayStreams } from '../../src/gateway/exchange-gateway.js';
import { createSimGateway, toApiError } from '../../src/gateway/sim-gateway.js';
import type { Ticker } from '../../src/model/market.js';
import type { BacktestVenue } from './backtest-venue.js';
import type { FeedDepth } from './market-feed.js';
import type { Latency } from './latency.js';

/** Latencies of a {@link createBacktestGateway}. */
export interface GatewayLatencies {
  marketData: Latency;
  orderEntry: Latency;
  cancel: Latency;
}

/** The gateway over `venue` (see the module note). */
export function createBacktestGateway(venue: BacktestVenue, latency: GatewayLatencies): ExchangeGateway & { streams: BacktestStreams } {
  const clock = venue.clock;
  const reads = createSimGateway(venue.engine, venue.accountId, { venue: 'backtest' });
  const streams = new BacktestStreams(venue, latency.marketData);
  const command = <T>(l: Latency, method: string, path: string, check: () => void, run: () => T): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      try {
        check();
      } catch (e) {
        reject(e);
        return;
      }
      clock.setTimeout(() => {
        try {
          const result = run();
          streams.enqueueReply(() => resolve(result));
        } catch (e) {
          const err = toApiError(e, method, path);
          streams.enqueueReply(() => reject(err));
        }
      }, l.next());
    });
  const feed = (m: string, where: string) => {
    requireText('marketSymbol', m, where);
    const f = venue.feed(m);
    if (f) return f;
    try {
      venue.engine.market(m); // 404 MARKET_DOES_NOT_EXIST for a market the venue does not list at all
    } catch (e) {
      throw toApiError(e, 'GET', where);
    }
    throw new Error(`market ${m} is listed but has no recorded data in this backtest`);
  };
  const call = async <T>(fn: () => T): Promise<T> => {
    try {
      return fn();
    } catch (e) {
      throw toApiError(e, 'GET', '(backtest read)');
    }
  };

  return {
    ...reads,
    venue: 'backtest',
    streams,
    orderBook: (m, depth) =>
      call(() => {
        const where = 'GET /markets/{marketSymbol}/orderbook';
        validateDepth(depth, where);
        return feed(m, where).snapshot(depth);
      }),
    trades: (m) => call(() => feed(m, 'GET /markets/{marketSymbol}/trades').trades()),
    candles: (m, interval) =>
      call(() => {
        const where = 'GET /markets/{marketSymbol}/candles/{candleType}/{candleInterval}/recent';
        validateCandleKind(interval, undefined, where);
        return feed(m, where).candles(interval);
      }),
    tickers: () =>
      call(() => ({
        data: venue.marketSymbols.map((s): Ticker => {
          const f = venue.feed(s)!;
          const last = f.trades().data[0];
          return { symbol: s, lastTradeRate: last?.rate ?? ZERO, bidRate: f.book.bid.best()?.rate ?? ZERO, askRate: f.book.ask.best()?.rate ?? ZERO };
        }),
        sequence: 0,
      })),
    placeOrder: (o) => command(latency.orderEntry, 'POST', '/orders', () => validateNewOrder(o, 'POST /orders'), () => venue.placeOrder(o)),
    cancelOrder: (id) =>
      command(latency.cancel, 'DELETE', `/orders/${id}`, () => requireText('orderId', id, 'DELETE /orders/{orderId}'), () => venue.cancelOrder(id)),
    cancelAllOrders: (m) =>
      command(latency.cancel, 'DELETE', '/orders/open', () => optionalText('marketSymbol', m, 'DELETE /orders/open'), () => venue.cancelAll(m)),
    batch: (ops) => command(latency.orderEntry, 'POST', '/batch', () => validateBatch(ops, 'POST /batch'), () => venue.batch(ops)),
    openConditionalOrders: (m) =>
      call(() => {
        optionalText('marketSymbol', m, 'GET /conditional-orders/open');
        return venue.conditionalOrders.listOpen(venue.accountId, m);
      }),
    closedConditionalOrders: (p) => call(() => venue.conditionalOrders.listClosed(venue.accountId, { ...(p ?? {}) })),
    conditionalOrder: (id) => call(() => venue.conditionalOrders.get(venue.accountId, id)),
    placeConditionalOrder: (o) =>
      command(
        latency.orderEntry,
        'POST',
        '/conditional-orders',
        () => validateNewConditionalOrder(o, 'POST /conditional-orders'),
        () => venue.conditionalOrders.create(venue.accountId, o),
      ),
    cancelConditionalOrder: (id) =>
      command(
        latency.cancel,
        'DELETE',
        `/conditional-orders/${id}`,
        () => requireText('conditionalOrderId', id, 'DELETE /conditional-orders/{conditionalOrderId}'),
        () => venue.conditionalOrders.cancel(venue.accountId, id),
      ),
    close: async () => streams.close(),
  };
}

/** Schedules the drain as a microtask (see #schedule). */
const SETTLED: Promise<void> = Promise.resolve();

/** What waits to reach the bot: a stream message, or a command's answer (a function). */
type Outgoing = StreamMessage | (() => void);

/** The hub side: subscriptions, and delivery after the market-data latency, in order. */
export class BacktestStreams implements GatewayStreams {
  readonly #venue: BacktestVenue;
  readonly #clock: VirtualClock;
  readonly #latency: Latency;
  readonly #epoch = new BehaviorSubject<number>(1);
  readonly #channels = new Set<string>();
  /**
   * The queue, as a ring in two parallel arrays: what to deliver and when it is due, `#size` items from `#head` on
   * (indexes modulo the capacity, a power of two). Not an object per item: nearly every recorded event queues one
   * message, and an object holding a time (a double, boxed on its own) was two allocations per message. A ring rather
   * than arrays emptied now and then: those grew again from nothing after each emptying (~70 bytes of backing stores
   * per message); a slot is cleared as it is delivered, so a delivered message is let go at once.
   */
  #out: Array<Outgoing | undefined> = new Array<Outgoing | undefined>(64).fill(undefined);
  #dues = new Float64Array(64);
  #head = 0;
  #size = 0;
  #lastDue = 0;
  #timer: TimerHandle | undefined;
  #timerAt = 0;
  #microtask = false;
  #closed = false;
  readonly #off: () => void;
  /** Messages delivered to the bot. */
  delivered = 0;
  /**
   * While true, what falls due at once waits for {@link deliverDue} instead of a microtask: the session loop sets it
   * while the venue applies a recorded event and delivers at the point where that microtask would have run (see
   * backtest-session.ts), so a delivery costs no promise job and no turn of its own.
   */
  holdDue = false;
  /** Something due now is held for {@link deliverDue}. */
  #held = false;

  /**
   * The last two channels asked about and their answers (a book's and a trade channel alternate): the venue names
   * its hot messages' channels with strings made once, so a repeated name is nearly always the very same string,
   * compared without reading it, where a Set lookup compares the subscribed name's text with it on every message.
   * Forgotten whenever the subscriptions change.
   */
  #recent0: string | undefined;
  #wanted0 = false;
  #recent1: string | undefined;
  #wanted1 = false;

  /** A Subject's fan-out without its per-value closure and iterator (src/core/multicast.ts): nearly every event sends. */
  readonly #messages = new Multicast<StreamMessage>();

  readonly messages$: Observable<StreamMessage> = this.#messages.observable;
  readonly connectionEpoch$: Observable<number> = this.#epoch.asObservable();

  constructor(venue: BacktestVenue, latency: Latency) {
    this.#venue = venue;
    this.#clock = venue.clock;
    this.#latency = latency;
    // The venue names each message's channel (channelOf's answer, known in advance for its hot messages).
    this.#off = venue.subscribe((m, channel) => {
      if (this.#wants(channel)) this.#enqueue(m);
    });
  }

  /** Whether `channel` is subscribed (the Set's answer, remembered for the last two channels). */
  #wants(channel: string): boolean {
    if (channel === this.#recent0) return this.#wanted0;
    if (channel === this.#recent1) return this.#wanted1;
    const wanted = this.#channels.has(channel);
    this.#recent1 = this.#recent0;
    this.#wanted1 = this.#wanted0;
    this.#recent0 = channel;
    this.#wanted0 = wanted;
    return wanted;
  }

  /** Forget the remembered answers of {@link #wants} (the subscriptions changed). */
  #forgetWanted(): void {
    this.#recent0 = undefined;
    this.#recent1 = undefined;
  }

  async subscribe(channels: readonly string[]): Promise<void> {
    if (this.#closed) throw new Error('gateway streams are closed');
    const failures: HubSubscriptionError[] = [];
    for (const c of channels) {
      const parsed = parseChannelName(c);
      if (!parsed) {
        failures.push(new HubSubscriptionError(c, 'INVALID_CHANNEL', 'Subscribe'));
        continue;
      }
      if ('marketSymbol' in parsed) {
        const feed = this.#venue.feed(parsed.marketSymbol);
        if (!feed) {
          failures.push(new HubSubscriptionError(c, 'MARKET_DOES_NOT_EXIST', 'Subscribe'));
          continue;
        }
        if (parsed.stream === 'orderbook') feed.follow(parsed.depth as FeedDepth);
      }
      this.#channels.add(c);
    }
    this.#forgetWanted();
    if (failures.length > 0) throw new GatewaySubscriptionError(failures);
  }

  async unsubscribe(channels: readonly string[]): Promise<void> {
    for (const c of channels) this.#channels.delete(c);
    this.#forgetWanted();
  }

  /** Whether messages due now wait for {@link deliverDue} (only while {@link holdDue} was set). */
  get holding(): boolean {
    return this.#held;
  }

  /** Deliver what is due now, in order, as the drain microtask would have; returns whether anything was held. */
  deliverDue(): boolean {
    if (!this.#held) return false;
    this.#held = false;
    this.#drain();
    return true;
  }

  /** A command's answer, behind what was published before it. */
  enqueueReply(reply: () => void): void {
    this.#enqueue(reply);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#off();
    this.#timer?.cancel();
    this.#out.fill(undefined);
    this.#size = 0;
    this.#messages.complete();
    this.#epoch.complete();
  }

  #enqueue(o: Outgoing): void {
    if (this.#closed) return;
    const now = this.#clock.now();
    // One connection: nothing overtakes what was sent before it.
    const due = Math.max(this.#lastDue, now + this.#latency.next());
    this.#lastDue = due;
    if (this.#size === this.#dues.length) this.#grow();
    const at = (this.#head + this.#size) & (this.#dues.length - 1);
    this.#out[at] = o;
    this.#dues[at] = due;
    this.#size++;
    this.#schedule();
  }

  /** Twice the room, the queue's items first in order. */
  #grow(): void {
    const n = this.#dues.length;
    const out = new Array<Outgoing | undefined>(n * 2).fill(undefined);
    const dues = new Float64Array(n * 2);
    for (let k = 0; k < n; k++) {
      const i = (this.#head + k) & (n - 1);
      out[k] = this.#out[i];
      dues[k] = this.#dues[i]!;
    }
    this.#out = out;
    this.#dues = dues;
    this.#head = 0;
  }

  #schedule(): void {
    if (this.#size === 0) return;
    const due = this.#dues[this.#head]!;
    const now = this.#clock.now();
    if (due <= now) {
      if (this.holdDue) this.#held = true;
      else if (!this.#microtask) {
        this.#microtask = true;
        // A promise job rather than queueMicrotask: the same place in the microtask queue, without the AsyncResource
        // Node wraps every queueMicrotask callback in (a drain is scheduled for almost every event).
        void SETTLED.then(this.#drainTask);
      }
    } else if (!this.#timer || this.#timerAt > due) {
      this.#timer?.cancel();
      this.#timerAt = due;
      this.#timer = this.#clock.setTimeout(this.#timerTask, due - now);
    }
  }

  /** {@link #drain} as a microtask callback, made once (a drain is scheduled for almost every event). */
  readonly #drainTask = (): void => this.#drain();
  /** {@link #drain} as the delivery timer's callback, made once. */
  readonly #timerTask = (): void => {
    this.#timer = undefined;
    this.#drain();
  };

  #drain(): void {
    this.#microtask = false;
    const now = this.#clock.now();
    // Items queued while draining are due no earlier than those before them, so one pass keeps the order.
    while (this.#size > 0 && this.#dues[this.#head]! <= now) {
      const head = this.#head;
      const o = this.#out[head]!;
      // Let go at once: a delivered message held on (with the books and trades it carries) outlived young-generation
      // collections and was promoted.
      this.#out[head] = undefined;
      this.#head = (head + 1) & (this.#dues.length - 1);
      this.#size--;
      if (typeof o === 'function') o();
      else {
        this.delivered++;
        this.#messages.next(o);
      }
    }
    this.#schedule();
  }
}
