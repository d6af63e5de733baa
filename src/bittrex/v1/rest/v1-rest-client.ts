/**
 * `createV1RestClient`: every v1.1 REST endpoint of seed 001 section 4, grouped as the paths are (`public`,
 * `market`, `account`), answering the exact v1.1 types of `wire/v1/rest-types.ts`. Turn them into the v3 model
 * with `wire/v1/mapping` (`orderFromV1`, `balanceFromV1`, …).
 *
 * WIRE: where the seed (and the official document) declare an array but the service answered a single object —
 * getticker, getorder, getdepositaddress, getorderbook (`{Quantity, Rate}` levels, a bare array for one side) —
 * the client accepts both and returns one value (see server/v1/v1-shapes.ts for the evidence).
 */
import type { Dispatcher } from 'undici';
import type { Clock } from '../../../core/clock.js';
import { WireFormatError } from '../../../core/errors.js';
import type { Decoder } from '../../../model/decode.js';
import { v1array } from '../../../wire/v1/decode.js';
import type { V1BookType } from '../../../wire/v1/mapping/market-data.js';
import type { V1LimitOrder } from '../../../wire/v1/mapping/orders.js';
import type { V1WithdrawRequest } from '../../../wire/v1/mapping/funds.js';
import {
  decodeV1Address, decodeV1Balance, decodeV1Currency, decodeV1DepositHistoryEntry, decodeV1HistoryEntry, decodeV1Market,
  decodeV1MarketHistoryEntry, decodeV1MarketSummary, decodeV1MarketTick, decodeV1Order, decodeV1OrderBook,
  decodeV1OrderBookEntry, decodeV1Uuid, decodeV1WithdrawalHistoryEntry,
  type V1Address, type V1Balance, type V1Currency, type V1DepositHistoryEntry, type V1HistoryEntry, type V1Market,
  type V1MarketHistoryEntry, type V1MarketSummary, type V1MarketTick, type V1Order, type V1OrderBook, type V1Uuid,
  type V1WithdrawalHistoryEntry,
} from '../../../wire/v1/rest-types.js';
import type { Credentials } from '../../rest/auth.js';
import type { RestLogger } from '../../rest/http.js';
import { createThrottler, type Throttler } from '../../rest/throttler.js';
import { V1Transport } from './v1-transport.js';

/** Options of {@link createV1RestClient}. */
export interface V1RestClientOptions {
  /** Base URL with the version path: `https://api.bittrex.com/api/v1.1` or the simulator's `.../api/v1.1`. */
  baseUrl: string;
  /** Needed for everything outside /public. The same key works on v3 (seed section 9). */
  credentials?: Credentials | undefined;
  /** The key's call budget (60/minute by default); share it with the key's v3 client: one key, one budget. */
  throttler?: Throttler | undefined;
  clock?: Clock | undefined;
  timeoutMs?: number | undefined;
  dispatcher?: Dispatcher | undefined;
  logger?: RestLogger | undefined;
}

/** /public/* (unsigned). */
export interface V1PublicEndpoints {
  getMarkets(): Promise<V1Market[]>;
  getCurrencies(): Promise<V1Currency[]>;
  /** The market's tick (v1.1 name, `BTC-LTC`). */
  getTicker(market: string): Promise<V1MarketTick>;
  getMarketSummaries(): Promise<V1MarketSummary[]>;
  getMarketSummary(market: string): Promise<V1MarketSummary[]>;
  /** The book's `buy`, `sell` or both sides (the other left empty). */
  getOrderBook(market: string, type?: V1BookType): Promise<V1OrderBook>;
  getMarketHistory(market: string): Promise<V1MarketHistoryEntry[]>;
}

/** /market/* (signed). */
export interface V1MarketEndpoints {
  /** Place a limit buy. Never re-sent by the client: v1.1 has no idempotency key. */
  buyLimit(order: V1LimitOrder): Promise<V1Uuid>;
  /** Place a limit sell. Never re-sent by the client. */
  sellLimit(order: V1LimitOrder): Promise<V1Uuid>;
  cancel(uuid: string): Promise<V1Uuid | null>;
  getOpenOrders(market?: string): Promise<V1Order[]>;
}

/** /account/* (signed). */
export interface V1AccountEndpoints {
  getBalances(): Promise<V1Balance[]>;
  getBalance(currency: string): Promise<V1Balance>;
  /** Fails with ADDRESS_GENERATING until an address exists (and starts generating one). */
  getDepositAddress(currency: string): Promise<V1Address>;
  withdraw(request: V1WithdrawRequest): Promise<V1Uuid>;
  getOrder(uuid: string): Promise<V1Order>;
  getOrderHistory(market?: string): Promise<V1HistoryEntry[]>;
  getWithdrawalHistory(currency?: string): Promise<V1WithdrawalHistoryEntry[]>;
  getDepositHistory(currency?: string): Promise<V1DepositHistoryEntry[]>;
}

/** The v1.1 REST client. */
export interface V1RestClient {
  readonly public: V1PublicEndpoints;
  readonly market: V1MarketEndpoints;
  readonly account: V1AccountEndpoints;
  readonly throttler: Throttler;
  close(): Promise<void>;
}

/** One value, sent alone or as the only item of an array (see the module note). */
function single<T>(item: Decoder<T>): Decoder<T> {
  return (v, path, where) => {
    if (!Array.isArray(v)) return item(v, path, where);
    if (v.length !== 1) throw new WireFormatError(where, path, `holds ${v.length} items, expected one`);
    return item(v[0], `${path}[0]`, where);
  };
}

/** getorderbook: `[{buy, sell}]` (seed), `{buy, sell}` (service, type=both) or a bare side (service, type=buy|sell). */
function orderBookOf(type: V1BookType): Decoder<V1OrderBook> {
  const side = v1array(decodeV1OrderBookEntry);
  return (v, path, where) => {
    const first: unknown = Array.isArray(v) ? v[0] : undefined;
    const isBook = typeof first === 'object' && first !== null && ('buy' in first || 'sell' in first);
    const bareSide = Array.isArray(v) && !isBook;
    if (bareSide && type !== 'both') {
      const levels = side(v, path, where);
      return type === 'buy' ? { buy: levels, sell: [] } : { buy: [], sell: levels };
    }
    return single(decodeV1OrderBook)(v, path, where);
  };
}

const nullableUuid: Decoder<V1Uuid | null> = (v, path, where) => (v === null ? null : decodeV1Uuid(v, path, where));

/**
 * Create a v1.1 REST client.
 *
 * @example
 * const v1 = createV1RestClient({ baseUrl: 'http://127.0.0.1:PORT/api/v1.1', credentials: { apiKey, apiSecret } });
 * const { uuid } = await v1.market.buyLimit({ market: 'USD-BTC', quantity: dec('0.01'), rate: dec('30000') });
 * const order = orderFromV1(await v1.account.getOrder(uuid)); // the v3 model
 * await v1.close();
 */
export function createV1RestClient(opts: V1RestClientOptions): V1RestClient {
  const throttler = opts.throttler ?? createThrottler(opts.clock ? { clock: opts.clock } : {});
  const http = new V1Transport({
    baseUrl: opts.baseUrl,
    credentials: opts.credentials,
    throttler,
    clock: opts.clock,
    timeoutMs: opts.timeoutMs,
    dispatcher: opts.dispatcher,
    logger: opts.logger,
  });
  const pub = <T>(path: string, d: Decoder<T>, query?: Record<string, string | undefined>) =>
    http.call({ path: `/public/${path}`, query, signed: false }, d);
  const acct = <T>(path: string, d: Decoder<T>, query?: Record<string, string | undefined>) =>
    http.call({ path: `/account/${path}`, query, signed: true }, d);
  const place = (path: 'buylimit' | 'selllimit', o: V1LimitOrder) =>
    http.call(
      {
        path: `/market/${path}`,
        query: { market: o.market, quantity: o.quantity, rate: o.rate, timeInForce: o.timeInForce },
        signed: true,
        priority: 'place',
      },
      decodeV1Uuid,
    );
  return {
    public: {
      getMarkets: () => pub('getmarkets', v1array(decodeV1Market)),
      getCurrencies: () => pub('getcurrencies', v1array(decodeV1Currency)),
      getTicker: (market) => pub('getticker', single(decodeV1MarketTick), { market }),
      getMarketSummaries: () => pub('getmarketsummaries', v1array(decodeV1MarketSummary)),
      getMarketSummary: (market) => pub('getmarketsummary', v1array(decodeV1MarketSummary), { market }),
      getOrderBook: (market, type = 'both') => pub('getorderbook', orderBookOf(type), { market, type }),
      getMarketHistory: (market) => pub('getmarkethistory', v1array(decodeV1MarketHistoryEntry), { market }),
    },
    market: {
      buyLimit: (o) => place('buylimit', o),
      sellLimit: (o) => place('selllimit', o),
      cancel: (uuid) => http.call({ path: '/market/cancel', query: { uuid }, signed: true, priority: 'cancel', idempotent: false }, nullableUuid),
      getOpenOrders: (market) => http.call({ path: '/market/getopenorders', query: { market }, signed: true }, v1array(decodeV1Order)),
    },
    account: {
      getBalances: () => acct('getbalances', v1array(decodeV1Balance)),
      getBalance: (currency) => acct('getbalance', single(decodeV1Balance), { currency }),
      getDepositAddress: (currency) => acct('getdepositaddress', single(decodeV1Address), { currency }),
      withdraw: (w) =>
        http.call(
          {
            path: '/account/withdraw',
            query: { currency: w.currency, quantity: w.quantity, address: w.address, paymentid: w.paymentid },
            signed: true,
            priority: 'place',
          },
          decodeV1Uuid,
        ),
      getOrder: (uuid) => acct('getorder', single(decodeV1Order), { uuid }),
      getOrderHistory: (market) => acct('getorderhistory', v1array(decodeV1HistoryEntry), { market }),
      getWithdrawalHistory: (currency) => acct('getwithdrawalhistory', v1array(decodeV1WithdrawalHistoryEntry), { currency }),
      getDepositHistory: (currency) => acct('getdeposithistory', v1array(decodeV1DepositHistoryEntry), { currency }),
    },
    throttler,
    close: () => http.close(),
  };
}
