/**
 * The simulator engine behind the {@link ExchangeGateway} port, in-process: what backtests (and fast tests of the
 * kernel) trade against instead of HTTP and the hub. It answers exactly what the network gateway would over the
 * simulator server — the same model objects, the same {@link ApiError} codes, statuses and data (each SimError is
 * converted 1:1), snapshots with the Sequence of their stream — so strategy, risk and order code cannot tell.
 * Requests the REST client refuses locally (a MARKET order with GOOD_TIL_CANCELLED, an empty batch, a page size
 * of 500) are refused here by the same checks, with the same {@link ValidationError}, before the engine sees them.
 *
 * Streams: the engine's bus events become the typed {@link StreamMessage}s of the hub (as the hub client would
 * decode them), filtered by the channels subscribed — private streams for this account, `subaccounts_*` streams
 * for its sub-accounts, as the hub routes them. Delivery is deferred to a microtask, in order: the engine
 * publishes while it is still inside a call, and a consumer reacting to a message by placing an order must not
 * re-enter the matching engine mid-operation (on the network this could not happen either).
 */
import { Observable, BehaviorSubject, Subject } from 'rxjs';
import { GatewaySubscriptionError } from '../bittrex/gateway/gateway-errors.js';
import { HubSubscriptionError } from '../bittrex/hub/hub-errors.js';
import { parseChannelName, type Channel, type StreamMessage } from '../bittrex/hub/messages.js';
import {
  optionalText,
  requireText,
  validateBatch,
  validateCandleKind,
  validateDepth,
  validateNewConditionalOrder,
  validateNewOrder,
  validatePageFilter,
} from '../bittrex/rest/validate.js';
import { ApiError, type ValidationError } from '../core/errors.js';
import type { SimEngine } from '../sim/engine.js';
import type { SimEvent } from '../sim/events.js';
import { SimError } from '../sim/sim-error.js';
import type { ExchangeGateway, GatewayPage, GatewayStreams, Snapshot } from './exchange-gateway.js';

/** Options of {@link createSimGateway}. */
export interface SimGatewayOptions {
  /** Name for logs and metrics (default `sim`). */
  venue?: string;
}

/**
 * An in-process gateway acting as account `accountId` of `engine`.
 *
 * @example
 * const engine = createSimEngine({ clock });
 * const accountId = engine.createParticipant({ USD: dec('100000') });
 * const gateway = createSimGateway(engine, accountId);
 * await gateway.streams.subscribe(['order', 'execution', 'orderbook_BTC-USD_25']);
 * gateway.streams.messages$.subscribe((m) => store.apply(m));
 * const order = await gateway.placeOrder({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT',
 *   timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.1'), limit: dec('30000'), clientOrderId: randomUUID() });
 */
export function createSimGateway(engine: SimEngine, accountId: string, options: SimGatewayOptions = {}): ExchangeGateway {
  const streams = new SimStreams(engine, accountId);
  // Every call goes through `call`, so a refusal surfaces as the ApiError the network gateway would raise, and
  // asynchronously (a promise), like a request.
  const call = async <T>(method: string, path: string, fn: () => T): Promise<T> => {
    try {
      return fn();
    } catch (e) {
      throw toApiError(e, method, path);
    }
  };
  // The REST client's own checks, with its wording, so a request it would never send never reaches the engine.
  const page = (p: GatewayPage | undefined, where: string) => {
    const q = { ...(p ?? {}) };
    optionalText('marketSymbol', q.marketSymbol, where);
    validatePageFilter(q, where);
    return q;
  };
  const id = (field: string, value: string, where: string) => requireText(field, value, where);
  const market = (m: string | undefined, where: string) => optionalText('marketSymbol', m, where);

  return {
    venue: options.venue ?? 'sim',
    streams,
    markets: () => call('GET', '/markets', () => engine.markets()),
    currencies: () => call('GET', '/currencies', () => engine.currencies()),
    orderBook: (m, depth) =>
      call('GET', `/markets/${m}/orderbook`, () => {
        const where = 'GET /markets/{marketSymbol}/orderbook';
        requireText('marketSymbol', m, where);
        validateDepth(depth, where);
        return engine.orderBook(m, depth);
      }),
    tickers: () => call('GET', '/markets/tickers', () => engine.tickers()),
    // The candle stream and this snapshot are TRADE candles (GET .../candles/{interval}/recent, type left out).
    candles: (m, interval) =>
      call('GET', `/markets/${m}/candles/${interval}/recent`, () => {
        const where = 'GET /markets/{marketSymbol}/candles/{candleType}/{candleInterval}/recent';
        requireText('marketSymbol', m, where);
        validateCandleKind(interval, undefined, where);
        return engine.candles(m, 'TRADE', interval);
      }),
    trades: (m) => call('GET', `/markets/${m}/trades`, () => (requireText('marketSymbol', m, 'GET /markets/{marketSymbol}/trades'), engine.trades(m))),
    balances: () => call('GET', '/balances', () => engine.funds.balances(accountId)),
    openOrders: (m) => call('GET', '/orders/open', () => (market(m, 'GET /orders/open'), engine.openOrders(accountId, m))),
    closedOrders: (p) => call('GET', '/orders/closed', () => engine.closedOrders(accountId, page(p, 'GET /orders/closed'))),
    order: (oid) => call('GET', `/orders/${oid}`, () => engine.getOrder(accountId, id('orderId', oid, 'GET /orders/{orderId}'))),
    openConditionalOrders: (m) =>
      call('GET', '/conditional-orders/open', () => (market(m, 'GET /conditional-orders/open'), engine.openConditionalOrders(accountId, m))),
    closedConditionalOrders: (p) =>
      call('GET', '/conditional-orders/closed', () => engine.closedConditionalOrders(accountId, page(p, 'GET /conditional-orders/closed'))),
    conditionalOrder: (cid) =>
      call('GET', `/conditional-orders/${cid}`, () =>
        engine.getConditionalOrder(accountId, id('conditionalOrderId', cid, 'GET /conditional-orders/{conditionalOrderId}')),
      ),
    lastExecution: () => call('GET', '/executions/last-id', (): Snapshot<{ lastId?: string }> => engine.lastExecution(accountId)),
    executions: (p) => call('GET', '/executions', () => engine.executions(accountId, page(p, 'GET /executions'))),
    placeOrder: (o) => call('POST', '/orders', () => (validateNewOrder(o, 'POST /orders'), engine.placeOrder(accountId, o))),
    cancelOrder: (oid) => call('DELETE', `/orders/${oid}`, () => engine.cancelOrder(accountId, id('orderId', oid, 'DELETE /orders/{orderId}'))),
    cancelAllOrders: (m) => call('DELETE', '/orders/open', () => (market(m, 'DELETE /orders/open'), engine.cancelAll(accountId, m))),
    batch: (ops) => call('POST', '/batch', () => (validateBatch(ops, 'POST /batch'), engine.batch(accountId, ops))),
    placeConditionalOrder: (o) =>
      call('POST', '/conditional-orders', () => (validateNewConditionalOrder(o, 'POST /conditional-orders'), engine.createConditionalOrder(accountId, o))),
    cancelConditionalOrder: (cid) =>
      call('DELETE', `/conditional-orders/${cid}`, () =>
        engine.cancelConditionalOrder(accountId, id('conditionalOrderId', cid, 'DELETE /conditional-orders/{conditionalOrderId}')),
      ),
    close: async () => streams.close(),
  };
}

/** A SimError as the ApiError the REST client raises for the same answer; anything else is passed through. */
export function toApiError(e: unknown, method: string, path: string): unknown {
  if (!(e instanceof SimError)) return e;
  return new ApiError({ status: e.status, code: e.code, detail: e.detail, data: e.data, request: { method, path: `/v3${path}` } });
}

/** The hub side of the in-process gateway: subscriptions and bus events as stream messages. */
class SimStreams implements GatewayStreams {
  readonly #engine: SimEngine;
  readonly #accountId: string;
  readonly #messages = new Subject<StreamMessage>();
  readonly #epoch = new BehaviorSubject<number>(1);
  readonly #channels = new Set<string>();
  readonly #queue: StreamMessage[] = [];
  #draining = false;
  #closed = false;
  #off: (() => void) | undefined;

  readonly messages$: Observable<StreamMessage> = this.#messages.asObservable();
  readonly connectionEpoch$: Observable<number> = this.#epoch.asObservable();

  constructor(engine: SimEngine, accountId: string) {
    this.#engine = engine;
    this.#accountId = accountId;
    // With no channel subscribed nothing is routed (#route): the engine may then skip building what only we would
    // read (a backtest's reads gateway never subscribes: its venue publishes the streams).
    this.#off = engine.bus.on((e) => this.#onEvent(e), () => this.#channels.size > 0);
  }

  /**
   * As the hub answers Subscribe (one SocketResponse per channel, seed section 6): each channel is accepted or
   * refused on its own, the accepted ones stay subscribed, and the refused ones are named, with the hub's code,
   * in one {@link GatewaySubscriptionError} — the network gateway's error.
   */
  async subscribe(channels: readonly string[]): Promise<void> {
    if (this.#closed) throw new Error('gateway streams are closed');
    const failures: HubSubscriptionError[] = [];
    for (const c of channels) {
      const refusal = this.#refusal(c);
      if (refusal) failures.push(new HubSubscriptionError(c, refusal, 'Subscribe'));
      else this.#channels.add(c);
    }
    if (failures.length > 0) throw new GatewaySubscriptionError(failures);
  }

  async unsubscribe(channels: readonly string[]): Promise<void> {
    const failures: HubSubscriptionError[] = [];
    for (const c of channels) {
      if (parseChannelName(c) === undefined) failures.push(new HubSubscriptionError(c, 'INVALID_CHANNEL', 'Unsubscribe'));
      else this.#channels.delete(c);
    }
    if (failures.length > 0) throw new GatewaySubscriptionError(failures);
  }

  close(): void {
    this.#closed = true;
    this.#off?.();
    this.#off = undefined;
    this.#queue.length = 0;
    this.#messages.complete();
    this.#epoch.complete();
  }

  #onEvent(e: SimEvent): void {
    const message = this.#route(e);
    if (!message) return;
    this.#queue.push(message);
    if (!this.#draining) {
      this.#draining = true;
      queueMicrotask(() => this.#drain());
    }
  }

  #drain(): void {
    // Messages published while draining join the same loop, so the order is the engine's order.
    for (let m = this.#queue.shift(); m !== undefined; m = this.#queue.shift()) this.#messages.next(m);
    this.#draining = false;
  }

  /** The stream message of an engine event, or undefined when no subscribed channel carries it to this account. */
  #route(e: SimEvent): StreamMessage | undefined {
    switch (e.kind) {
      case 'orderBook':
        return this.#has(`orderbook_${e.marketSymbol}_${e.depth}`)
          ? { name: 'orderBook', data: { marketSymbol: e.marketSymbol, depth: e.depth, sequence: e.sequence, bidDeltas: e.bidDeltas, askDeltas: e.askDeltas } }
          : undefined;
      case 'trade':
        return this.#has(`trade_${e.marketSymbol}`) ? { name: 'trade', data: { sequence: e.sequence, marketSymbol: e.marketSymbol, deltas: e.deltas } } : undefined;
      case 'ticker':
        return this.#has(`ticker_${e.delta.symbol}`) ? { name: 'ticker', data: e.delta } : undefined;
      case 'tickers':
        return this.#has('tickers') ? { name: 'tickers', data: { sequence: e.sequence, deltas: e.deltas } } : undefined;
      case 'marketSummary':
        return this.#has(`market_summary_${e.delta.symbol}`) ? { name: 'marketSummary', data: e.delta } : undefined;
      case 'marketSummaries':
        return this.#has('market_summaries') ? { name: 'marketSummaries', data: { sequence: e.sequence, deltas: e.deltas } } : undefined;
      case 'candle':
        // The candle stream carries TRADE candles only (its snapshot is the TRADE recent-candles endpoint).
        if (e.candleType !== 'TRADE' || !this.#has(`candle_${e.marketSymbol}_${e.interval}`)) return undefined;
        return { name: 'candle', data: { sequence: e.sequence, marketSymbol: e.marketSymbol, interval: e.interval, delta: e.delta, candleType: e.candleType } };
      case 'execution':
        return this.#private('execution', e.accountId) ? { name: 'execution', data: { accountId: e.accountId, sequence: e.sequence, deltas: e.deltas } } : undefined;
      case 'balance':
        return this.#private('balance', e.accountId) ? { name: 'balance', data: { accountId: e.accountId, sequence: e.sequence, delta: e.delta } } : undefined;
      case 'order':
        return this.#private('order', e.accountId) ? { name: 'order', data: { accountId: e.accountId, sequence: e.sequence, delta: e.delta } } : undefined;
      case 'conditionalOrder':
        return this.#private('conditional_order', e.accountId)
          ? { name: 'conditionalOrder', data: { accountId: e.accountId, sequence: e.sequence, delta: e.delta } }
          : undefined;
      case 'deposit':
        return this.#private('deposit', e.accountId) ? { name: 'deposit', data: { accountId: e.accountId, sequence: e.sequence, delta: e.delta } } : undefined;
    }
  }

  /** The hub's ErrorCode for subscribing to `channel`, or undefined when it would be accepted. */
  #refusal(channel: string): string | undefined {
    const parsed = parseChannelName(channel);
    if (!parsed) return 'INVALID_CHANNEL';
    // An unknown market's channel would succeed and never deliver anything; the hub says so instead.
    if ('marketSymbol' in parsed && !this.#engine.catalog.markets().some((m) => m.symbol === parsed.marketSymbol.toUpperCase())) {
      return 'MARKET_DOES_NOT_EXIST';
    }
    return undefined;
  }

  #has(channel: string): boolean {
    return this.#channels.has(channel);
  }

  /** Own events on the plain channel; a managed sub-account's on `subaccounts_<stream>` (seed rule 2). */
  #private(stream: Extract<Channel, { subaccounts: boolean }>['stream'], accountId: string): boolean {
    if (accountId === this.#accountId) return this.#channels.has(stream);
    return this.#channels.has(`subaccounts_${stream}`) && this.#engine.funds.accounts.masterOf(accountId) === this.#accountId;
  }
}
