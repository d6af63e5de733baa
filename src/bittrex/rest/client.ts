/**
 * `createRestClient`: a typed, exact, rate-limit-aware client for every v3 REST endpoint, usable on its own.
 *
 * Each resource group is a small object over one shared {@link HttpTransport}; the transport signs private
 * calls, spends the per-key call budget through one {@link Throttler}, and decodes answers into exact model
 * types (decimals as `Decimal`, timestamps as `Date`).
 */
import type { Dispatcher } from 'undici';
import type { Clock } from '../../core/clock.js';
import type { Credentials } from './auth.js';
import { type AccountEndpoints, createAccountEndpoints } from './endpoints/account.js';
import { type AddressesEndpoints, createAddressesEndpoints } from './endpoints/addresses.js';
import { type BalancesEndpoints, createBalancesEndpoints } from './endpoints/balances.js';
import { type BatchEndpoints, createBatchEndpoints } from './endpoints/batch.js';
import { type ConditionalOrdersEndpoints, createConditionalOrdersEndpoints } from './endpoints/conditional-orders.js';
import { type CurrenciesEndpoints, createCurrenciesEndpoints } from './endpoints/currencies.js';
import { type DepositsEndpoints, createDepositsEndpoints } from './endpoints/deposits.js';
import { type ExecutionsEndpoints, createExecutionsEndpoints } from './endpoints/executions.js';
import { type MarketsEndpoints, createMarketsEndpoints } from './endpoints/markets.js';
import { type OrdersEndpoints, createOrdersEndpoints } from './endpoints/orders.js';
import { type PingEndpoints, createPingEndpoints } from './endpoints/ping.js';
import { type SubaccountsEndpoints, createSubaccountsEndpoints } from './endpoints/subaccounts.js';
import { type TransfersEndpoints, createTransfersEndpoints } from './endpoints/transfers.js';
import { type WithdrawalsEndpoints, createWithdrawalsEndpoints } from './endpoints/withdrawals.js';
import { HttpTransport, type RestLogger } from './http.js';
import { createThrottler, type Throttler } from './throttler.js';
import type { VenueClock } from './venue-clock.js';

/** Options of {@link createRestClient}. */
export interface RestClientOptions {
  /** Base URL with the version path, e.g. `https://api.bittrex.com/v3` or `http://127.0.0.1:PORT/v3`. */
  baseUrl: string;
  /** API key and secret; needed for every endpoint except /markets*, /currencies* and /ping. */
  credentials?: Credentials | undefined;
  /** Sub-account every authenticated call acts for unless the call says otherwise (partners only). */
  subaccountId?: string | undefined;
  /** Response headers/body timeout in ms. Default 10 000. */
  timeoutMs?: number | undefined;
  /** The call budget. Share one throttler between all clients of one API key. Default `createThrottler({ clock })`. */
  throttler?: Throttler | undefined;
  /** Time source for request timestamps, Retry-After and the default throttler. Default the system clock. */
  clock?: Clock | undefined;
  /** undici dispatcher to send through; by default the client owns a keep-alive Agent. */
  dispatcher?: Dispatcher | undefined;
  /** pino-compatible logger: method, path, status and duration at debug; never keys, secrets or signatures. */
  logger?: RestLogger | undefined;
  /**
   * The venue's time signed requests carry. A request refused with 401 INVALID_TIMESTAMP makes it measure the
   * venue's clock (GET /ping) and the request is sent once more on the venue's time, with one warning logged.
   * Share one with the hub client of the same gateway. Default: a new one over `clock`.
   */
  venueClock?: VenueClock | undefined;
}

/** The v3 REST client: one property per resource group. */
export interface RestClient {
  readonly account: AccountEndpoints;
  readonly addresses: AddressesEndpoints;
  readonly balances: BalancesEndpoints;
  readonly batch: BatchEndpoints;
  readonly conditionalOrders: ConditionalOrdersEndpoints;
  readonly currencies: CurrenciesEndpoints;
  readonly deposits: DepositsEndpoints;
  readonly executions: ExecutionsEndpoints;
  readonly markets: MarketsEndpoints;
  readonly orders: OrdersEndpoints;
  readonly ping: PingEndpoints;
  readonly subaccounts: SubaccountsEndpoints;
  readonly transfers: TransfersEndpoints;
  readonly withdrawals: WithdrawalsEndpoints;
  /** The throttler this client spends its calls through (share it with other clients of the same key). */
  readonly throttler: Throttler;
  /** Close the keep-alive connections the client opened (not those of a dispatcher passed in). */
  close(): Promise<void>;
}

/**
 * Create a v3 REST client.
 *
 * @example
 * const client = createRestClient({ baseUrl: 'https://api.bittrex.com/v3', credentials: { apiKey, apiSecret } });
 * const { data: book, sequence } = await client.markets.orderBook('BTC-USD', { depth: 25 });
 * const order = await client.orders.create({
 *   marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', quantity: dec('0.01'), limit: dec('30000'),
 *   timeInForce: 'GOOD_TIL_CANCELLED', clientOrderId: randomUUID(),
 * });
 * await client.close();
 */
export function createRestClient(opts: RestClientOptions): RestClient {
  const throttler = opts.throttler ?? createThrottler(opts.clock ? { clock: opts.clock } : {});
  const http = new HttpTransport({
    baseUrl: opts.baseUrl,
    credentials: opts.credentials,
    subaccountId: opts.subaccountId,
    timeoutMs: opts.timeoutMs,
    throttler,
    clock: opts.clock,
    dispatcher: opts.dispatcher,
    logger: opts.logger,
    venueClock: opts.venueClock,
  });
  return {
    account: createAccountEndpoints(http),
    addresses: createAddressesEndpoints(http),
    balances: createBalancesEndpoints(http),
    batch: createBatchEndpoints(http),
    conditionalOrders: createConditionalOrdersEndpoints(http),
    currencies: createCurrenciesEndpoints(http),
    deposits: createDepositsEndpoints(http),
    executions: createExecutionsEndpoints(http),
    markets: createMarketsEndpoints(http),
    orders: createOrdersEndpoints(http),
    ping: createPingEndpoints(http),
    subaccounts: createSubaccountsEndpoints(http),
    transfers: createTransfersEndpoints(http),
    withdrawals: createWithdrawalsEndpoints(http),
    throttler,
    close: () => http.close(),
  };
}
