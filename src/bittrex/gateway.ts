/**
 * `createBittrexGateway`: the {@link ExchangeGateway} over the network — the v3 REST client for requests and
 * snapshots, the v3 hub client for streams. Live trading points it at the real interface, paper trading at
 * rexbot's simulator server; the kernel cannot tell the two apart, nor either from the in-process gateway.
 *
 * Every REST method maps 1:1 onto one endpoint of the REST client and fails the same way (ApiError with the
 * service's code, NetworkError saying whether the request may have reached the server, TimeoutError).
 * Snapshot methods answer `{ data, sequence }` with the `Sequence` header, for seed rule 4.
 */
import type { Dispatcher } from 'undici';
import { type Clock, systemClock } from '../core/clock.js';
import type { ExchangeGateway, GatewayPage } from '../gateway/exchange-gateway.js';
import { createHubClient } from './hub/hub-client.js';
import type { HubClient, HubClientOptions, HubLogger } from './hub/hub-client-types.js';
import { createHubTransport, type HubTransport } from './hub/transport.js';
import type { Credentials } from './rest/auth.js';
import { createRestClient, type RestClient } from './rest/client.js';
import type { Throttler } from './rest/throttler.js';
import { VenueClock } from './rest/venue-clock.js';
import { HubGatewayStreams } from './gateway/hub-streams.js';

export { GatewaySubscriptionError } from './gateway/gateway-errors.js';
export { HubGatewayStreams } from './gateway/hub-streams.js';

/** Hub client settings the gateway passes through (see {@link HubClientOptions} for each). */
export type GatewayHubTuning = Pick<
  HubClientOptions,
  'watchdogMultiple' | 'reconnect' | 'random' | 'invokeTimeoutMs' | 'connectTimeoutMs' | 'authRenewAfterMs' | 'randomContent'
>;

/** Options of {@link createBittrexGateway}. */
export interface BittrexGatewayOptions {
  /** REST base URL with the version path: `https://api.bittrex.com/v3`, or a simulator's `restUrl`. */
  restUrl: string;
  /** Hub URL of the chosen flavour: classic `.../signalr` (the service's), or core `.../hub` (the simulator's). */
  hubUrl: string;
  /**
   * Hub wire flavour: `classic` SignalR 1.5 (what the service spoke) or `core` (ASP.NET Core SignalR through
   * `@microsoft/signalr`); or a factory making one transport per connection attempt (tests, custom wires).
   */
  transport: 'classic' | 'core' | (() => HubTransport);
  /** API key and secret. Without them only public data (markets, books, public streams) is available. */
  credentials?: Credentials | undefined;
  /** Time source of every timer (throttler, hub watchdog, renewal, backoff). Default the system clock. */
  clock?: Clock | undefined;
  /** The call budget; share one throttler between every client of one API key. Default: a new one. */
  throttler?: Throttler | undefined;
  /** pino (or compatible) logger for connection events and requests; never sees keys or signatures. */
  logger?: HubLogger | undefined;
  /** Sub-account every REST call acts for (partners only). */
  subaccountId?: string | undefined;
  /** REST response timeout in ms; default 10 000. */
  restTimeoutMs?: number | undefined;
  /**
   * undici dispatcher the REST client sends through (a proxy agent, a shared pool, an instrumented wrapper);
   * default: the client owns a keep-alive Agent. A dispatcher passed in is not closed by {@link ExchangeGateway.close}.
   */
  dispatcher?: Dispatcher | undefined;
  /** Hub client tuning: watchdog, backoff, call timeouts, renewal period. */
  hub?: GatewayHubTuning | undefined;
  /** Name for logs and metrics; default `bittrex`. */
  venue?: string | undefined;
}

/** The network gateway, with its two clients exposed for what the port does not cover (withdrawals, ...). */
export interface BittrexGateway extends ExchangeGateway {
  readonly streams: HubGatewayStreams;
  readonly rest: RestClient;
  readonly hub: HubClient;
}

/**
 * Create the network gateway. Nothing touches the network until the first call; the hub connects on the first
 * `streams.subscribe`.
 *
 * @example
 * const gateway = createBittrexGateway({
 *   restUrl: sim.restUrl, hubUrl: sim.hubUrl, transport: 'classic',
 *   credentials: { apiKey, apiSecret },
 * });
 * gateway.streams.messages$.subscribe((m) => console.log(m.name));
 * await gateway.streams.subscribe(['orderbook_BTC-USD_25', 'order', 'balance']);
 * const { data: book, sequence } = await gateway.orderBook('BTC-USD', 25);
 * await gateway.close();
 */
export function createBittrexGateway(opts: BittrexGatewayOptions): BittrexGateway {
  const clock = opts.clock ?? systemClock;
  // One venue clock for both clients: a clock offset found by a REST refusal signs the hub's Authenticate too.
  const venueClock = new VenueClock({ clock, logger: opts.logger });
  const rest = createRestClient({
    baseUrl: opts.restUrl,
    credentials: opts.credentials,
    subaccountId: opts.subaccountId,
    timeoutMs: opts.restTimeoutMs,
    throttler: opts.throttler,
    dispatcher: opts.dispatcher,
    clock,
    logger: opts.logger,
    venueClock,
  });
  const kind = opts.transport;
  const transport = typeof kind === 'function' ? kind : () => createHubTransport(kind, { url: opts.hubUrl });
  const venueTime = { clock: venueClock, ping: () => rest.ping.get().then((p) => p.serverTime) };
  const hub = createHubClient({ ...opts.hub, transport, credentials: opts.credentials, clock, logger: opts.logger, venueTime });
  const streams = new HubGatewayStreams(hub);
  const page = (p: GatewayPage | undefined) => ({ ...p });

  return {
    venue: opts.venue ?? 'bittrex',
    streams,
    rest,
    hub,
    markets: () => rest.markets.list(),
    currencies: () => rest.currencies.list(),
    orderBook: (marketSymbol, depth) => rest.markets.orderBook(marketSymbol, { depth }),
    tickers: () => rest.markets.tickers(),
    trades: (marketSymbol) => rest.markets.trades(marketSymbol),
    candles: (marketSymbol, interval) => rest.markets.candles(marketSymbol, interval),
    balances: () => rest.balances.list(),
    openOrders: (marketSymbol) => rest.orders.listOpen({ marketSymbol }),
    closedOrders: (p) => rest.orders.listClosed(page(p)),
    order: (orderId) => rest.orders.get(orderId),
    openConditionalOrders: (marketSymbol) => rest.conditionalOrders.listOpen({ marketSymbol }),
    closedConditionalOrders: (p) => rest.conditionalOrders.listClosed(page(p)),
    conditionalOrder: (id) => rest.conditionalOrders.get(id),
    lastExecution: () => rest.executions.lastId(),
    executions: (p) => rest.executions.list(page(p)),
    placeOrder: (order) => rest.orders.create(order),
    cancelOrder: (orderId) => rest.orders.cancel(orderId),
    cancelAllOrders: (marketSymbol) => rest.orders.cancelAll({ marketSymbol }),
    batch: (operations) => rest.batch.submit(operations),
    placeConditionalOrder: (order) => rest.conditionalOrders.create(order),
    cancelConditionalOrder: (id) => rest.conditionalOrders.cancel(id),
    async close() {
      // Both, even when one fails: a half-closed gateway would keep sockets (and the process) alive.
      const results = await Promise.allSettled([streams.close(), rest.close()]);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
  };
}
