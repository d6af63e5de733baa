/**
 * Mount both hub flavours on a node:http server that other handlers (the REST server) share.
 *
 * Hub paths are claimed by wrapping the server's `emit` for `request` and `upgrade` events: a hub request never
 * reaches the other listeners, whichever order they were added in, and every other request reaches them
 * untouched. Plain listeners could not promise that: each `request` listener sees every request, so a REST
 * handler added later would answer 404 to `/signalr/negotiate` at the same time as the hub answered it.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Clock } from '../../core/clock.js';
import { ClassicHubEndpoint } from './classic-endpoint.js';
import { CoreHubEndpoint } from './core-endpoint.js';
import { refuseUpgrade, replyText } from './http-replies.js';
import type { ClassicHubService, HubBackend } from './hub-types.js';
import { Hub, type HubOptions } from './hub.js';

/** Where the two flavours live. */
export interface HubPaths {
  /** Classic ASP.NET SignalR 1.5 base path; default `/signalr` (the seed's `{socket_url}`). */
  classicPath?: string;
  /** ASP.NET Core SignalR path; default `/hub`. */
  corePath?: string;
  /** The v1.1 hub `c2`, served beside `c3` on the classic path (connectionData `[{"name":"c2"}]`). */
  v1Hub?: ClassicHubService;
}

/** The hub's hold on a server; `detach` gives the paths back and drops the hub's sockets. */
export interface AttachedHub {
  readonly classicPath: string;
  readonly corePath: string;
  detach(): void;
}

function normalise(path: string): string {
  const p = `/${path.replace(/^\/+|\/+$/g, '')}`;
  if (p === '/') throw new Error('a hub path cannot be the server root');
  return p;
}

/**
 * A request target whose path WHATWG URL parsing leaves exactly as it is: `/` then letters, digits, `-`, `_` and
 * single `/` (no dot segments, percent escapes, backslashes or `//` authority), up to the query. For such a target
 * the raw path is the parsed `pathname`, so whether a hub owns it can be told without building a URL.
 */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9_\-/]*(?:\?|$)/;

/** The path of a plain target (see {@link PLAIN_PATH}), else undefined. */
export function plainPath(target: string): string | undefined {
  if (!PLAIN_PATH.test(target)) return undefined;
  const q = target.indexOf('?');
  return q < 0 ? target : target.slice(0, q);
}

function parseUrl(req: IncomingMessage): URL | undefined {
  try {
    return new URL(req.url ?? '/', 'http://hub.invalid');
  } catch {
    return undefined;
  }
}

/**
 * Serve the hub on `server` under `classicPath` and `corePath`; everything else is left to other handlers.
 *
 * @example
 * const server = http.createServer(restHandler);
 * const hub = new Hub({ backend, clock });
 * attachHub(server, hub, { classicPath: '/signalr', corePath: '/hub' });
 * server.listen(8080, '127.0.0.1');
 */
export function attachHub(server: Server, hub: Hub, paths: HubPaths = {}): AttachedHub {
  const classicPath = normalise(paths.classicPath ?? '/signalr');
  const corePath = normalise(paths.corePath ?? '/hub');
  const within = (p: string, base: string): boolean => p === base || p.startsWith(`${base}/`);
  if (within(classicPath, corePath) || within(corePath, classicPath)) {
    throw new Error(`hub paths overlap: ${classicPath} and ${corePath}`);
  }
  const classicHubs = new Map([['c3', { service: hub as ClassicHubService, pushName: 'C3' }]]);
  if (paths.v1Hub) classicHubs.set('c2', { service: paths.v1Hub, pushName: 'C2' });
  const classic = new ClassicHubEndpoint(classicHubs, classicPath);
  const core = new CoreHubEndpoint(hub, corePath);
  const endpointFor = (url: URL): ClassicHubEndpoint | CoreHubEndpoint | undefined =>
    classic.owns(url.pathname) ? classic : core.owns(url.pathname) ? core : undefined;
  /** True when the request is certainly not the hub's: a plain path neither endpoint owns (no URL built). */
  const notHub = (req: IncomingMessage): boolean => {
    const path = plainPath(req.url ?? '/');
    return path !== undefined && !classic.owns(path) && !core.owns(path);
  };

  const originalEmit = server.emit;
  const emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    // Every REST request passes here: a plain path that is not the hub's goes on without parsing a URL.
    if ((event === 'request' || event === 'upgrade') && !notHub(args[0] as IncomingMessage)) {
      const req = args[0] as IncomingMessage;
      const url = parseUrl(req);
      const endpoint = url && endpointFor(url);
      if (url && endpoint) {
        try {
          if (event === 'request') endpoint.handleRequest(req, args[1] as Parameters<typeof endpoint.handleRequest>[1], url);
          else endpoint.handleUpgrade(req, args[1] as Duplex, args[2] as Buffer, url);
        } catch (err) {
          // Nothing may leave a request handler (it would reach Node's HTTP parser and end the process): report
          // it and close that one exchange.
          hub.reportInternalError(err, `${req.method ?? 'GET'} ${url.pathname}`);
          if (event === 'request') {
            const res = args[1] as Parameters<typeof endpoint.handleRequest>[1];
            if (!res.headersSent) replyText(res, 500, 'internal error');
            else res.destroy();
          } else (args[1] as Duplex).destroy();
        }
        return true;
      }
    }
    return (originalEmit as (this: Server, event: string | symbol, ...rest: unknown[]) => boolean).call(this, event, ...args);
  };
  server.emit = emit as typeof server.emit;

  // Node only emits 'upgrade' when someone listens for it. This listener sees the upgrades the hub did not claim
  // and refuses them only when nobody else is there to take them, so the socket is never left hanging.
  const unclaimedUpgrade = (req: IncomingMessage, socket: Duplex): void => {
    if (server.listenerCount('upgrade') === 1) refuseUpgrade(socket, 404, `no WebSocket route ${req.url ?? ''}`);
  };
  server.on('upgrade', unclaimedUpgrade);

  return {
    classicPath: classic.basePath,
    corePath: core.basePath,
    detach() {
      if (server.emit === emit) server.emit = originalEmit;
      server.off('upgrade', unclaimedUpgrade);
      classic.close();
      core.close();
    },
  };
}

/** Options of {@link startHubServer}. */
export interface HubServerOptions extends HubPaths, Omit<HubOptions, 'backend' | 'clock'> {
  backend: HubBackend;
  /** Time source for heartbeats, keep-alives and authentication expiry; default the system clock. */
  clock?: Clock;
  /** Port; default 0 (any free port). */
  port?: number;
  /** Interface; default 127.0.0.1 (loopback only). */
  host?: string;
}

/** A running standalone hub server. */
export interface HubServer {
  readonly hub: Hub;
  readonly server: Server;
  readonly port: number;
  /** `http://host:port`. */
  readonly origin: string;
  /** Base URL for classic clients, e.g. `http://127.0.0.1:40123/signalr`. */
  readonly classicUrl: string;
  /** URL for `@microsoft/signalr` clients, e.g. `http://127.0.0.1:40123/hub`. */
  readonly coreUrl: string;
  /** Stop the hub, drop its sockets and close the server. */
  close(): Promise<void>;
}

/**
 * Start a server that serves only the hub (tests, or a simulator without REST).
 *
 * @example
 * const srv = await startHubServer({ backend, clock: new VirtualClock(Date.now()) });
 * const t = createHubTransport('classic', { url: srv.classicUrl });
 * // …
 * await srv.close();
 */
export async function startHubServer(opts: HubServerOptions): Promise<HubServer> {
  const { port = 0, host = '127.0.0.1', classicPath, corePath, v1Hub, ...hubOpts } = opts;
  const hub = new Hub(hubOpts);
  const server = createServer((req, res) => replyText(res, 404, `no route ${req.method} ${req.url}`));
  const attached = attachHub(server, hub, { classicPath, corePath, ...(v1Hub ? { v1Hub } : {}) });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
  let closing: Promise<void> | undefined;
  return {
    hub,
    server,
    port: bound,
    origin,
    classicUrl: origin + attached.classicPath,
    coreUrl: origin + attached.corePath,
    close() {
      closing ??= new Promise<void>((resolve) => {
        hub.stop();
        attached.detach();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
