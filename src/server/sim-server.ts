/**
 * The simulator's network face: one loopback HTTP server carrying the v3 REST interface (`/v3`), the legacy v1.1
 * REST interface (`/api/v1.1`, same engine and keys), the classic
 * SignalR hub (`/signalr`, the seed's `{socket_url}`), the ASP.NET Core SignalR hub (`/hub`, for
 * `@microsoft/signalr` clients) and the control API (`/control`), all over one {@link SimEngine}.
 */
import { SimError } from '../sim/sim-error.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { type Clock, systemClock } from '../core/clock.js';
import type { SimEngine } from '../sim/engine.js';
import { answerClientError } from './client-error.js';
import { createControlHandler } from './control/control-api.js';
import { bridgeEventsToHub } from './hub-bridge.js';
import { attachHub } from './hub/attach-hub.js';
import { Hub } from './hub/hub.js';
import { bridgeEventsToV1Hub, v1EngineBackend } from './hub-v1/v1-engine-backend.js';
import { V1Hub } from './hub-v1/v1-hub.js';
import { RestFaults } from './rest/faults.js';
import { KeyRateLimiter } from './rest/rate-limit.js';
import { ReplayGuard } from './rest/replay-guard.js';
import { createRestHandler, type RouteDef } from './rest/rest-handler.js';
import { sendError } from './rest/respond.js';
import { Router } from './rest/router.js';
import { addAccountRoutes } from './rest/routes/account-routes.js';
import { addMarketRoutes } from './rest/routes/market-routes.js';
import { addOrderRoutes } from './rest/routes/order-routes.js';
import { createV1RestHandler, V1_BASE_PATH } from './v1/v1-rest-handler.js';

/** Options of {@link startSimServer}. */
export interface SimServerOptions {
  engine: SimEngine;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Calls per minute per API key before 429 THROTTLED; 0 or undefined = unlimited. */
  callsPerMinute?: number;
  /** Accepted Api-Timestamp skew; default 5 minutes. */
  timestampWindowMs?: number;
  /** Bearer token of the control API; default a random one. */
  controlToken?: string;
  /**
   * Clock of the hub's heartbeats, keep-alives and authentication expiry. Default the system clock, also when the
   * engine runs on a virtual clock: transport liveness is wall-clock business for real clients.
   */
  hubClock?: Clock;
  /** v1.1 result shapes where the service and its document disagree (server/v1/v1-shapes.ts); default `service`. */
  v1ResultShapes?: 'service' | 'document';
  /** Where unexpected handler failures (bugs) are reported. */
  onInternalError?: (err: unknown, where: string) => void;
  /**
   * Repeated authentication failures (REST, per key and per connection): answered at once up to `freeFailures`
   * (default 5), then held back `baseDelayMs` (default 250) doubling per failure up to `maxDelayMs` (default 10 s)
   * on `clock` (default the system clock).
   */
  authFailures?: { freeFailures?: number; baseDelayMs?: number; maxDelayMs?: number; clock?: Clock };
  /**
   * Time to receive a whole request, headers and body (default 30 s; a body trickled slower is cut with 408).
   * The service's bodies are small: a slow client must not hold a socket for minutes.
   */
  requestTimeoutMs?: number;
  /** Open connections at most (REST keep-alive and hub sockets alike); further ones are closed at once. Default 1024. */
  maxConnections?: number;
  /** Slow hub consumers: unsent bytes allowed per connection (default 16 MiB) and over all of them (default 256 MiB). */
  hubBuffers?: { perConnection?: number; total?: number };
}

/** Default of {@link SimServerOptions.requestTimeoutMs}. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Default of {@link SimServerOptions.maxConnections}. */
export const DEFAULT_MAX_CONNECTIONS = 1024;

/** A running simulator server. */
export interface SimServer {
  readonly port: number;
  /** `http://127.0.0.1:PORT/v3` */
  readonly restUrl: string;
  /** `http://127.0.0.1:PORT/api/v1.1` (legacy v1.1 REST, same engine, accounts and keys) */
  readonly restV1Url: string;
  /** `http://127.0.0.1:PORT/signalr` (classic SignalR) */
  readonly hubUrl: string;
  /** `http://127.0.0.1:PORT/hub` (ASP.NET Core SignalR) */
  readonly coreHubUrl: string;
  /** `http://127.0.0.1:PORT/control` */
  readonly controlUrl: string;
  readonly controlToken: string;
  readonly hub: Hub;
  /** The v1.1 hub `c2`, on the same classic path as `c3` (connectionData `[{"name":"c2"}]`). */
  readonly v1Hub: V1Hub;
  readonly restFaults: RestFaults;
  readonly limiter: KeyRateLimiter;
  readonly http: Server;
  close(): Promise<void>;
}

/**
 * Start the simulator's server over `engine`.
 *
 * @example
 * const engine = createSimEngine({ clock: systemClock });
 * const sim = await startSimServer({ engine });
 * const client = createRestClient({ baseUrl: sim.restUrl, credentials });
 */
export async function startSimServer(opts: SimServerOptions): Promise<SimServer> {
  const { engine } = opts;
  const host = opts.host ?? '127.0.0.1';
  const restFaults = new RestFaults();
  const limiter = new KeyRateLimiter(engine.clock, opts.callsPerMinute);
  const controlToken = opts.controlToken ?? randomBytes(16).toString('hex');
  const accounts = engine.funds.accounts;

  const router = new Router<RouteDef>();
  addMarketRoutes(router, engine);
  addAccountRoutes(router, engine);
  addOrderRoutes(router, engine);
  const af = opts.authFailures ?? {};
  const replays = new ReplayGuard({
    clock: engine.clock,
    timestampWindowMs: opts.timestampWindowMs ?? 5 * 60_000,
    ...(af.freeFailures !== undefined ? { freeFailures: af.freeFailures } : {}),
    ...(af.baseDelayMs !== undefined ? { baseDelayMs: af.baseDelayMs } : {}),
    ...(af.maxDelayMs !== undefined ? { maxDelayMs: af.maxDelayMs } : {}),
  });
  const rest = createRestHandler(router, {
    replays,
    authClock: af.clock ?? systemClock,
    basePath: '/v3',
    keys: accounts,
    clock: engine.clock,
    faults: restFaults,
    limiter,
    ...(opts.timestampWindowMs ? { timestampWindowMs: opts.timestampWindowMs } : {}),
    ...(opts.onInternalError ? { onInternalError: opts.onInternalError } : {}),
  });

  const restV1 = createV1RestHandler({
    engine,
    replays,
    keys: accounts,
    clock: engine.clock,
    faults: restFaults,
    limiter,
    shapes: opts.v1ResultShapes,
    ...(opts.onInternalError ? { onInternalError: opts.onInternalError } : {}),
  });

  const hub = new Hub({
    clock: opts.hubClock ?? systemClock,
    ...(opts.onInternalError ? { onInternalError: opts.onInternalError } : {}),
    ...(opts.hubBuffers ? { buffers: opts.hubBuffers } : {}),
    backend: {
      findKey: (apiKey) => {
        const k = accounts.findKey(apiKey);
        return k ? { secret: k.secret, accountId: k.accountId } : undefined;
      },
      subaccountsOf: (id) => accounts.subaccountsOf(id).map((s) => s.id),
      marketExists: (symbol) => engine.catalog.markets().some((m) => m.symbol === symbol.toUpperCase()),
      // The catalog's own answer, so a reversed symbol is MARKET_NAME_REVERSED here as on REST.
      marketError: (symbol) => {
        try {
          engine.catalog.market(symbol);
          return undefined;
        } catch (err) {
          if (err instanceof SimError) return err.code;
          throw err;
        }
      },
    },
  });
  const unbridge = bridgeEventsToHub(engine.bus, hub, (id) => accounts.isSubaccount(id));
  const v1Backend = v1EngineBackend(engine);
  const v1Hub = new V1Hub({ backend: v1Backend, clock: opts.hubClock ?? systemClock });
  const unbridgeV1 = bridgeEventsToV1Hub(engine, v1Hub, v1Backend);
  const control = createControlHandler(
    { clock: engine.clock, catalog: engine.catalog, funds: engine.funds, ledger: engine.ledger, restFaults, limiter, hub },
    { basePath: '/control', token: controlToken },
  );

  const requestTimeout = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const server = createServer({
    requestTimeout,
    headersTimeout: Math.min(requestTimeout, 10_000),
    // Node checks these timeouts on this interval (30 s by default, which would double a short timeout).
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(requestTimeout / 4))),
  }, (req, res) => {
    void (async () => {
      if (await rest(req, res)) return;
      if (await restV1(req, res)) return;
      if (await control(req, res)) return;
      req.resume();
      sendError(res, 404, 'NOT_FOUND', `no such endpoint: ${req.method} ${req.url}`);
    })().catch((err: unknown) => {
      opts.onInternalError?.(err, `${req.method} ${req.url}`);
      if (!res.headersSent) sendError(res, 500, 'ORDER_ERROR_CONTACT_SUPPORT', 'internal error');
      else res.destroy();
    });
  });
  server.maxConnections = opts.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  // Keep-alive sockets must not hold close() hostage.
  server.keepAliveTimeout = 5_000;
  // What the HTTP parser refuses (unknown method, oversize request line) gets a JSON refusal like any other.
  server.on('clientError', answerClientError);
  const attached = attachHub(server, hub, { classicPath: '/signalr', corePath: '/hub', v1Hub });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closed = false;
  return {
    port,
    restUrl: `${origin}/v3`,
    restV1Url: `${origin}${V1_BASE_PATH}`,
    hubUrl: `${origin}/signalr`,
    coreHubUrl: `${origin}/hub`,
    controlUrl: `${origin}/control`,
    controlToken,
    hub,
    v1Hub,
    restFaults,
    limiter,
    http: server,
    async close() {
      if (closed) return;
      closed = true;
      unbridge();
      unbridgeV1();
      attached.detach();
      hub.closeAll();
      v1Hub.closeAll();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      hub.stop();
    },
  };
}
