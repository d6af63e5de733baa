/**
 * `createV1Gateway`: the {@link ExchangeGateway} over the legacy v1.1 interface — the v1.1 REST client for requests,
 * the v1.1 hub (`c2`) for streams and book snapshots — so a bot runs over v1.1 by changing one config line
 * (`venue.dialect: v1`). Everything crosses into the v3 model through the shared mapping (wire/v1/mapping).
 *
 * What v1.1 can express: markets, currencies, books (QueryExchangeState, with the Nonce as sequence), trades,
 * tickers, balances, open/closed/single orders, LIMIT orders GOOD_TIL_CANCELLED or IMMEDIATE_OR_CANCEL, cancels.
 * Batches and cancel-all run as their single requests one after another. What v1.1 cannot express is listed in
 * {@link V1_1_LACKS} (the gateway's `lacks`): placing it is refused with `ApiError` code `NOT_SUPPORTED_ON_V1_1`
 * naming the feature and why, after the same shape checks the v3 client makes (a malformed request is a
 * ValidationError on every gateway); candles are absent (the kernel refuses to follow them at start). The runtime
 * refuses a v1.1 bot config that needs those before anything runs (bot-plugins.ts), by the same table.
 *
 * v1.1 has no clientOrderId: the gateway remembers the ids it placed (clientOrderId → order id, this process only)
 * and puts them back on every order it reports, refusing a repeated one with CLIENTORDERID_ALREADY_EXISTS as v3 does.
 * Nor has it executions: see v1-executions.ts.
 *
 * WIRE (rate precision): v1.1's getmarkets publishes no price precision (seed 001 section 2; the official v1.1
 * document has none either), yet the engine behind it refuses a rate finer than the market allows with
 * `{"success":false,"message":"RATE_PRECISION_NOT_ALLOWED","result":null}` — what v1.1 clients met on USD markets,
 * which took 3 decimals while BTC markets took 8 (ccxt/ccxt#3307, DeviaVir/zenbot#1970, JKorf/Bittrex.Net#133), and
 * what the 2021 hub captures show: USD and most USDT markets never carry a rate past 3 decimals, BTC markets 8.
 * So neither guess holds: 8 decimals (the finest the wire carries) is refused on a USD market, and the decimals of
 * observed prices (this gateway's earlier guess) are coarser than the venue allows whenever the prices happen to be
 * round (0 for BTC-USD where the engine takes 3). The precision is therefore taken, never guessed: from
 * {@link V1GatewayOptions.precision} (the user states the venue's rule), else from the same engine's v3 GET /markets
 * ({@link V1GatewayOptions.v3RestUrl}; both versions run on one engine and may be mixed, as the upgrade guide
 * says), else {@link V1_PRECISION}, the finest the v1.1 wire carries: never coarser than the venue allows, and a
 * rate it refuses is refused loudly, never rounded away. A configured precision finer than the venue's published
 * one is refused when the markets are read (every order at it would be).
 */
import { ApiError, ValidationError } from '../../../core/errors.js';
import { type Clock, systemClock } from '../../../core/clock.js';
import type { ExchangeGateway, Snapshot } from '../../../gateway/exchange-gateway.js';
import type { ApiErrorBody, BatchResponse, BulkCancelResult, Order } from '../../../model/order.js';
import type { Market } from '../../../model/market.js';
import { featureOfOrder, V1_1_LACKS, type VenueCapability } from '../../../model/venue-features.js';
import { createRestClient, type RestClient } from '../../rest/client.js';
import { validateBatch, validateDepth, validateNewConditionalOrder, validateNewOrder } from '../../rest/validate.js';
import {
  balanceFromV1,
  currencyFromV1,
  historyFromV1,
  marketFromV1,
  newOrderToV1,
  orderFromV1,
  summaryFromV1,
  tradeFromV1,
  V1_PRECISION,
} from '../../../wire/v1/mapping/index.js';
import { symbolToV1Market } from '../../../wire/v1/market-name.js';
import type { Credentials } from '../../rest/auth.js';
import type { HubLogger } from '../../hub/hub-client-types.js';
import type { Throttler } from '../../rest/throttler.js';
import { createV1RestClient, type V1RestClient } from '../rest/v1-rest-client.js';
import { V1ApiError } from '../rest/v1-errors.js';
import { V1GatewayStreams, type V1GatewayStreamsOptions, type V1HubTuning } from './v1-gateway-streams.js';

/** Options of {@link createV1Gateway}. */
export interface V1GatewayOptions {
  /** v1.1 REST base: `https://api.bittrex.com/api/v1.1` or the simulator's `.../api/v1.1`. */
  restUrl: string;
  /** Classic SignalR base of hub c2: `https://socket.bittrex.com/signalr` or the simulator's `.../signalr`. */
  hubUrl: string;
  credentials?: Credentials | undefined;
  clock?: Clock | undefined;
  throttler?: Throttler | undefined;
  venue?: string | undefined;
  /** See {@link V1GatewayStreamsOptions.staleAfterMs}. */
  staleAfterMs?: number | undefined;
  /** Hub connection tuning: reconnect backoff, silence and call timeouts (as the v3 gateway's `hub`). */
  hub?: V1HubTuning | undefined;
  /**
   * pino (or compatible) logger, as the v3 gateway's: hub connection events (lost, reconnecting, reconnected) and the
   * REST clients' failed and throttled requests; never keys, secrets or signatures.
   */
  logger?: HubLogger | undefined;
  /**
   * Rate precision (decimals, 0-8) per v3 market symbol, stated by the user because v1.1 does not publish it
   * (see the module's WIRE note). Wins over {@link v3RestUrl}'s, which it may not be finer than.
   */
  precision?: Readonly<Record<string, number>> | undefined;
  /**
   * The same engine's v3 REST base (`https://api.bittrex.com/v3`, the simulator's `.../v3`): its public
   * GET /markets (one unsigned call through {@link throttler}) gives each market's precision.
   */
  v3RestUrl?: string | undefined;
}

/** The v1.1 gateway, with its REST client exposed for what the port does not cover. */
export interface V1Gateway extends ExchangeGateway {
  readonly streams: V1GatewayStreams;
  readonly rest: V1RestClient;
}

/** The v1.1 message codes whose v3 counterparts differ (others keep their name). */
const CODES: Record<string, { code: string; status: number }> = {
  INVALID_MARKET: { code: 'MARKET_DOES_NOT_EXIST', status: 404 },
  DUST_TRADE_DISALLOWED_MIN_VALUE_50K_SAT: { code: 'DUST_TRADE_DISALLOWED_MIN_VALUE', status: 400 },
  UUID_INVALID: { code: 'NOT_FOUND', status: 404 },
  INVALID_ORDER: { code: 'NOT_FOUND', status: 404 },
  ORDER_NOT_OPEN: { code: 'ORDER_NOT_OPEN', status: 409 },
  INSUFFICIENT_FUNDS: { code: 'INSUFFICIENT_FUNDS', status: 409 },
  THROTTLED: { code: 'THROTTLED', status: 429 },
  APIKEY_INVALID: { code: 'APIKEY_INVALID', status: 401 },
  INVALID_SIGNATURE: { code: 'INVALID_SIGNATURE', status: 401 },
  INVALID_PERMISSION: { code: 'INVALID_PERMISSION', status: 403 },
};

/** A v1.1 refusal as the ApiError the port promises. */
function asApiError(err: unknown): never {
  if (err instanceof V1ApiError) {
    const m = CODES[err.code] ?? { code: err.code, status: 400 };
    throw new ApiError({ status: m.status, code: m.code, detail: `v1.1 answered ${err.serviceMessage}`, request: err.request });
  }
  throw err;
}

/** What v1.1 cannot express, in the words of {@link V1_1_LACKS}. */
export function notOnV1(capability: VenueCapability, detail?: string): ApiError {
  const lacked = V1_1_LACKS[capability]!;
  return new ApiError({ status: 400, code: 'NOT_SUPPORTED_ON_V1_1', detail: `${detail ?? lacked.what} has no v1.1 form: ${lacked.why}` });
}

/**
 * Create the v1.1 gateway. Nothing touches the network until the first call.
 *
 * @example
 * const g = createV1Gateway({ restUrl: `${origin}/api/v1.1`, hubUrl: `${origin}/signalr`, credentials });
 * await g.streams.subscribe(['orderbook_BTC-USD_25', 'order', 'balance', 'execution']);
 */
export function createV1Gateway(opts: V1GatewayOptions): V1Gateway {
  const clock = opts.clock ?? systemClock;
  // The bot's logger, as the v3 gateway gives its REST client: failed and throttled requests are logged (paths only).
  const rest = createV1RestClient({ baseUrl: opts.restUrl, credentials: opts.credentials, throttler: opts.throttler, clock, logger: opts.logger });
  const clientIds = new Map<string, string>(); // order id → clientOrderId
  const byClientId = new Map<string, string>(); // clientOrderId → order id
  const decorate = (o: Order): Order => {
    const c = clientIds.get(o.id);
    return c === undefined ? o : { ...o, clientOrderId: c };
  };
  const streams = new V1GatewayStreams({ hubUrl: opts.hubUrl, credentials: opts.credentials, clock, decorate, hub: opts.hub, logger: opts.logger, ...(opts.staleAfterMs !== undefined ? { staleAfterMs: opts.staleAfterMs } : {}) });
  const call = <T>(p: Promise<T>): Promise<T> => p.catch(asApiError);
  const v3: RestClient | undefined =
    opts.v3RestUrl === undefined ? undefined : createRestClient({ baseUrl: opts.v3RestUrl, throttler: rest.throttler, clock, logger: opts.logger });
  const order = async (id: string): Promise<Order> => {
    const o = decorate(orderFromV1(await call(rest.account.getOrder(id))));
    streams.executions.observe(o);
    return o;
  };

  const gateway: V1Gateway = {
    venue: opts.venue ?? 'bittrex-v1',
    lacks: V1_1_LACKS,
    streams,
    rest,
    async markets() {
      // The precision is taken, never guessed from prices: see the module's WIRE note.
      const [list, published] = await Promise.all([call(rest.public.getMarkets()), v3?.markets.list()]);
      const venue = new Map(published?.map((m) => [m.symbol, m.precision]));
      return list.map((m): Market => {
        const market = marketFromV1(m);
        const configured = opts.precision?.[market.symbol];
        const allowed = venue.get(market.symbol);
        if (configured !== undefined && allowed !== undefined && configured > allowed) {
          throw new ValidationError(
            `precision.${market.symbol}`,
            `${configured} decimals is finer than the ${allowed} the venue allows (its v3 GET /markets says so); every order at it would be refused RATE_PRECISION_NOT_ALLOWED`,
          );
        }
        return { ...market, precision: configured ?? allowed ?? V1_PRECISION };
      });
    },
    currencies: async () => (await call(rest.public.getCurrencies())).map(currencyFromV1),
    async orderBook(marketSymbol, depth) {
      validateDepth(depth, 'GET /markets/{marketSymbol}/orderbook');
      return streams.orderBook(marketSymbol, depth).catch(async (err: unknown) => {
        // The hub refuses an unknown market with a bare method error; REST says which market problem it is.
        await call(rest.public.getMarketSummary(symbolToV1Market(marketSymbol)));
        throw err;
      });
    },
    async tickers() {
      const list = await call(rest.public.getMarketSummaries());
      return { data: list.map((s) => summaryFromV1(s).ticker), sequence: 0 };
    },
    async trades(marketSymbol) {
      const sequence = streams.sequenceOf(`trade:${marketSymbol.toUpperCase()}`);
      const list = await call(rest.public.getMarketHistory(symbolToV1Market(marketSymbol)));
      return { data: list.map(tradeFromV1), sequence };
    },
    async balances() {
      const sequence = streams.sequenceOf('balance');
      const now = new Date(clock.now());
      return { data: (await call(rest.account.getBalances())).map((b) => balanceFromV1(b, now).balance), sequence };
    },
    async openOrders(marketSymbol): Promise<Snapshot<Order[]>> {
      const sequence = streams.sequenceOf('order');
      const list = await call(rest.market.getOpenOrders(marketSymbol === undefined ? undefined : symbolToV1Market(marketSymbol)));
      return { data: list.map((o) => decorate(orderFromV1(o))), sequence };
    },
    async closedOrders(page) {
      const list = await call(rest.account.getOrderHistory(page?.marketSymbol === undefined ? undefined : symbolToV1Market(page.marketSymbol)));
      return list.map((h) => decorate(historyFromV1(h))).slice(0, page?.pageSize ?? 100);
    },
    order,
    openConditionalOrders: async () => ({ data: [], sequence: 0 }),
    closedConditionalOrders: async () => [],
    conditionalOrder: () => Promise.reject(notOnV1('conditionalOrders')),
    async lastExecution() {
      const lastId = streams.executions.lastId;
      return { data: lastId === undefined ? {} : { lastId }, sequence: streams.executions.sequence };
    },
    executions: async (page) => streams.executions.page(page),
    async placeOrder(n) {
      validateNewOrder(n, 'POST /orders');
      const lacked = featureOfOrder(n); // every order feature is one v1.1 lacks
      if (lacked !== undefined) throw notOnV1(lacked, lacked === 'fillOrKill' || lacked === 'postOnly' ? `time in force ${n.timeInForce}` : `a ${n.type} order`);
      if (n.clientOrderId !== undefined && byClientId.has(n.clientOrderId)) {
        const existing = byClientId.get(n.clientOrderId)!;
        throw new ApiError({ status: 409, code: 'CLIENTORDERID_ALREADY_EXISTS', data: { existingOrderId: existing } });
      }
      // The clientOrderId stays here (see the module note); v1.1 gets the order without it.
      const { clientOrderId: _local, ...wire } = n;
      const { endpoint, order: req } = newOrderToV1(wire);
      const { uuid } = await call(endpoint === 'buylimit' ? rest.market.buyLimit(req) : rest.market.sellLimit(req));
      if (n.clientOrderId !== undefined) {
        clientIds.set(uuid, n.clientOrderId);
        byClientId.set(n.clientOrderId, uuid);
      }
      const placed = decorate(orderFromV1(await call(rest.account.getOrder(uuid))));
      streams.executions.track(placed);
      return placed;
    },
    async cancelOrder(orderId) {
      await call(rest.market.cancel(orderId));
      return order(orderId);
    },
    // v1.1 has no cancel-all: the open orders, cancelled one by one (a call each against the key's budget). An
    // order that closed meanwhile was not cancelled and is left out, as the service leaves it out of its answer.
    async cancelAllOrders(marketSymbol) {
      const open = await call(rest.market.getOpenOrders(marketSymbol === undefined ? undefined : symbolToV1Market(marketSymbol)));
      const out: BulkCancelResult[] = [];
      for (const o of open) {
        const cancelled = await gateway.cancelOrder(o.OrderUuid).catch((err: unknown) => {
          if (err instanceof ApiError && (err.code === 'ORDER_NOT_OPEN' || err.code === 'NOT_FOUND')) return undefined;
          throw err;
        });
        if (cancelled) out.push({ id: cancelled.id, statusCode: 'SUCCESS', result: cancelled });
      }
      return out;
    },
    // v1.1 has no batch endpoint; the same operations one after another answer what the single requests would.
    async batch(operations): Promise<BatchResponse[]> {
      validateBatch(operations, 'POST /batch');
      const out: BatchResponse[] = [];
      for (const op of operations) {
        try {
          if (op.operation === 'POST') out.push({ status: 201, ok: true, payload: await gateway.placeOrder(op.payload) });
          else out.push({ status: 200, ok: true, payload: await gateway.cancelOrder(op.payload.id) });
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          const payload: ApiErrorBody = { code: err.code };
          if (err.detail !== undefined) payload.detail = err.detail;
          if (err.data !== undefined) payload.data = err.data;
          out.push({ status: err.status, ok: false, payload });
        }
      }
      return out;
    },
    async placeConditionalOrder(n) {
      validateNewConditionalOrder(n, 'POST /conditional-orders');
      throw notOnV1('conditionalOrders');
    },
    cancelConditionalOrder: () => Promise.reject(notOnV1('conditionalOrders')),
    async close() {
      const results = await Promise.allSettled([streams.close(), rest.close(), ...(v3 ? [v3.close()] : [])]);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
  };
  return gateway;
}
