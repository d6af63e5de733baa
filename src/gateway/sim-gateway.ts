/**
 * The simulator engine behind the {@link ExchangeGateway} port, in-process: what backtests (and fast tests of the
 * kernel) trade against instead of HTTP and the hub. It answers exactly what the network gateway would over the
 * simulator server — the same model objects, the same {@link ApiError} codes, statuses and data (each SimError is
 * converted 1:1), snapshots with the Sequence of their stream — so strategy, risk and order code cannot tell.
 *
 * Streams: the engine's bus events become the typed {@link StreamMessage}s of the hub (as the hub client would
 * decode them), filtered by the channels subscribed — private streams for this account, `subaccounts_*` streams
 * for its sub-accounts, as the hub routes them. Delivery is deferred to a microtask, in order: the engine
 * publishes while it is still inside a call, and a consumer reacting to a message by placing an order must not
 * re-enter the matching engine mid-operation (on the network this could not happen either).
 */
import { Observable, BehaviorSubject, Subject } from 'rxjs';
import { HubSubscriptionError } from '../bittrex/hub/hub-errors.js';
import { parseChannelName, type Channel, type StreamMessage } from '../bittrex/hub/messages.js';
import { ApiError } from '../core/errors.js';
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
  const page = (p: GatewayPage | undefined) => ({ ...(p ?? {}) });

  return {
    venue: options.venue ?? 'sim',
    streams,
    markets: () => call('GET', '/markets', () => engine.markets()),
    currencies: () => call('GET', '/currencies', () => engine.currencies()),
    orderBook: (m, depth) => call('GET', `/markets/${m}/orderbook`, () => engine.orderBook(m, depth)),
    tickers: () => call('GET', '/markets/tickers', () => engine.tickers()),
    trades: (m) => call('GET', `/markets/${m}/trades`, () => engine.trades(m)),
    candles: (m, interval) => call('GET', `/markets/${m}/candles/${interval}/recent`, () => engine.candles(m, 'TRADE', interval)),
    balances: () => call('GET', '/balances', () => engine.funds.balances(accountId)),
    openOrders: (m) => call('GET', '/orders/open', () => engine.openOrders(accountId, m)),
    closedOrders: (p) => call('GET', '/orders/closed', () => engine.closedOrders(accountId, page(p))),
    order: (id) => call('GET', `/orders/${id}`, () => engine.getOrder(accountId, id)),
    openConditionalOrders: (m) => call('GET', '/conditional-orders/open', () => engine.openConditionalOrders(accountId, m)),
    closedConditionalOrders: (p) => call('GET', '/conditional-orders/closed', () => engine.closedConditionalOrders(accountId, page(p))),
    conditionalOrder: (id) => call('GET', `/conditional-orders/${id}`, () => engine.getConditionalOrder(accountId, id)),
    lastExecution: () => call('GET', '/executions/last-id', (): Snapshot<{ lastId?: string }> => engine.lastExecution(accountId)),
    executions: (p) => call('GET', '/executions', () => engine.executions(accountId, page(p))),
    placeOrder: (o) => call('POST', '/orders', () => engine.placeOrder(accountId, o)),
    cancelOrder: (id) => call('DELETE', `/orders/${id}`, () => engine.cancelOrder(accountId, id)),
    cancelAllOrders: (m) => call('DELETE', '/orders/open', () => engine.cancelAll(accountId, m)),
    batch: (ops) => call('POST', '/batch', () => engine.batch(accountId, ops)),
    placeConditionalOrder: (o) => call('POST', '/conditional-orders', () => engine.createConditionalOrder(accountId, o)),
    cancelConditionalOrder: (id) => call('DELETE', `/conditional-orders/${id}`, () => engine.cancelConditionalOrder(accountId, id)),
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
  #off: (() => void) | undefined;

  readonly messages$: Observable<StreamMessage> = this.#messages.asObservable();
  readonly connectionEpoch$: Observable<number> = this.#epoch.asObservable();

  constructor(engine: SimEngine, accountId: string) {
    this.#engine = engine;
    this.#accountId = accountId;
    this.#off = engine.bus.on((e) => this.#onEvent(e));
  }

  async subscribe(channels: readonly string[]): Promise<void> {
    const bad = channels.filter((c) => parseChannelName(c) === undefined);
    if (bad.length > 0) throw new HubSubscriptionError(bad.join(', '), 'INVALID_CHANNEL', 'Subscribe');
    for (const c of channels) this.#channels.add(c);
  }

  async unsubscribe(channels: readonly string[]): Promise<void> {
    for (const c of channels) this.#channels.delete(c);
  }

  close(): void {
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

  #has(channel: string): boolean {
    return this.#channels.has(channel);
  }

  /** Own events on the plain channel; a managed sub-account's on `subaccounts_<stream>` (seed rule 2). */
  #private(stream: Extract<Channel, { subaccounts: boolean }>['stream'], accountId: string): boolean {
    if (accountId === this.#accountId) return this.#channels.has(stream);
    return this.#channels.has(`subaccounts_${stream}`) && this.#engine.funds.accounts.masterOf(accountId) === this.#accountId;
  }
}
