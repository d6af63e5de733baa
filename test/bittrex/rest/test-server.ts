/**
 * A local v3 REST server for the client's tests (node:http on 127.0.0.1, port 0).
 *
 * It knows every endpoint of the official document (routes in test-routes.ts) and checks what a strict service
 * would: the method and path, the allowed query parameters, the JSON body, `Content-Type` only on bodies, and on
 * private endpoints the key and the signature, recomputed from the raw `req.url` it received (scheme + Host +
 * request target), the timestamp, method, content hash and `Api-Subaccount-Id`. Every request is recorded so
 * tests can assert exactly what was sent. Answers carry decimals as 8-dp strings, as the service did.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { contentHash, type Credentials, hexEquals, hmacSha512Hex, signaturePreimage } from '../../../src/bittrex/rest/auth.js';
import { createRoutes, createState, type Reply, type Route, type ServerState } from './test-routes.js';

/** One request as the server received it. */
export interface SeenRequest {
  method: string;
  /** Path without query, e.g. `/v3/markets/BTC-USD/orderbook`. */
  path: string;
  /** The raw request target, exactly as received. */
  url: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: unknown;
  /** True when the request carried Api-Signature (whether valid or not). */
  signed: boolean;
  subaccountId: string | undefined;
  /** The matched route, e.g. `GET /markets/{marketSymbol}/orderbook`, or undefined. */
  route: string | undefined;
}

/** A canned answer for the next request(s), or `hang` to never answer. */
export type Override = Reply | { hang: true };

/** A running test server. */
export interface TestServer {
  /** Base URL to give the client: `http://127.0.0.1:<port>/v3`. */
  readonly url: string;
  readonly credentials: Credentials;
  readonly requests: SeenRequest[];
  readonly state: ServerState;
  readonly routes: readonly Route[];
  /** The last request seen (throws when none). */
  last(): SeenRequest;
  /** Answer the next request with `reply` (queued; each override is used once), after recording it. */
  next(reply: Override): void;
  /** Forget recorded requests and pending overrides. */
  reset(): void;
  close(): Promise<void>;
}

const CREDENTIALS: Credentials = { apiKey: 'a1b2c3d4e5f60718293a4b5c6d7e8f90', apiSecret: '0f1e2d3c4b5a69788796a5b4c3d2e1f0' };
const BASE = '/v3';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, method: string, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers };
  let payload: string | undefined = reply.raw;
  if (payload === undefined && reply.body !== undefined) payload = JSON.stringify(reply.body);
  if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['Content-Type'] = reply.raw === undefined ? 'application/json; charset=utf-8' : 'text/html';
  }
  res.writeHead(reply.status ?? 200, headers);
  res.end(method === 'HEAD' ? undefined : payload);
}

function error(status: number, code: string, detail?: string): Reply {
  return { status, body: detail ? { code, detail } : { code } };
}

/** Checks the API key, content hash and signature of a private request. Returns an error reply, or undefined. */
function checkAuth(req: IncomingMessage, rawBody: string, creds: Credentials): Reply | undefined {
  const h = (name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const key = h('api-key');
  if (!key || key !== creds.apiKey) return error(401, 'APIKEY_INVALID');
  const ts = h('api-timestamp');
  if (!ts || !/^\d+$/.test(ts)) return error(401, 'INVALID_TIMESTAMP');
  const hash = h('api-content-hash') ?? '';
  if (!hexEquals(hash, contentHash(rawBody))) return error(400, 'INVALID_CONTENT_HASH');
  const uri = `http://${h('host')}${req.url}`;
  const expected = hmacSha512Hex(creds.apiSecret, signaturePreimage(ts, uri, req.method ?? '', hash, h('api-subaccount-id')));
  const sig = h('api-signature');
  if (!sig || !hexEquals(sig, expected)) return error(401, 'INVALID_SIGNATURE');
  return undefined;
}

/** Start the server on 127.0.0.1, port 0. */
export async function startTestServer(): Promise<TestServer> {
  const state = createState();
  const routes = createRoutes();
  const requests: SeenRequest[] = [];
  const overrides: Override[] = [];
  const sockets = new Set<Socket>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const target = new URL(req.url ?? '/', 'http://local');
    const method = req.method ?? 'GET';
    const rel = target.pathname.startsWith(`${BASE}/`) ? target.pathname.slice(BASE.length) : undefined;
    let params: Record<string, string> = {};
    const route = rel === undefined ? undefined : routes.find((r) => {
      if (r.method !== method) return false;
      const m = r.pattern.exec(rel);
      if (m) params = Object.fromEntries(Object.entries(m.groups ?? {}).filter(([, v]) => v !== undefined).map(([k, v]) => [k, decodeURIComponent(v!)]));
      return m !== null;
    });
    let body: unknown;
    let bodyIsJson = true;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      bodyIsJson = false;
    }
    const sub = req.headers['api-subaccount-id'];
    const seen: SeenRequest = {
      method,
      path: target.pathname,
      url: req.url ?? '',
      query: Object.fromEntries(target.searchParams),
      headers: req.headers,
      rawBody,
      body,
      signed: req.headers['api-signature'] !== undefined,
      subaccountId: Array.isArray(sub) ? sub[0] : sub,
      route: route?.key,
    };
    requests.push(seen);

    const override = overrides.shift();
    if (override && 'hang' in override) return; // never answer: the client's timeout must fire
    if (override) return send(res, method, override);
    if (!route) return send(res, method, error(404, 'NOT_FOUND', `no route ${method} ${target.pathname}`));
    if (route.auth) {
      const denied = checkAuth(req, rawBody, CREDENTIALS);
      if (denied) return send(res, method, denied);
    }
    const ctype = req.headers['content-type'];
    if (method === 'POST') {
      if (!ctype?.startsWith('application/json')) return send(res, method, error(400, 'BAD_REQUEST', 'POST needs Content-Type: application/json'));
      if (!bodyIsJson || body === undefined) return send(res, method, error(400, 'BAD_REQUEST', 'body is not JSON'));
    } else if (ctype !== undefined || rawBody !== '') {
      return send(res, method, error(400, 'BAD_REQUEST', `${method} carries no body and no Content-Type`));
    }
    for (const name of target.searchParams.keys()) {
      if (!(route.query ?? []).includes(name)) return send(res, method, error(400, 'INVALID_PARAMETER', `unknown query parameter ${name}`));
    }
    if (route.body) {
      try {
        route.body(body, '', `${method} ${target.pathname}`);
      } catch (err) {
        return send(res, method, error(400, 'BAD_REQUEST', (err as Error).message));
      }
    }
    const reply = route.handle({ params, query: seen.query, body, subaccountId: seen.subaccountId, state });
    if (route.sequence !== undefined && reply.status === undefined) {
      reply.headers = { ...reply.headers, Sequence: String(route.sequence) };
    }
    send(res, method, reply);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, req.method ?? 'GET', error(500, 'INTERNAL_ERROR', String(err)));
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${BASE}`,
    credentials: CREDENTIALS,
    requests,
    state,
    routes,
    last() {
      const r = requests[requests.length - 1];
      if (!r) throw new Error('the test server has seen no request');
      return r;
    },
    next(reply) {
      overrides.push(reply);
    },
    reset() {
      requests.length = 0;
      overrides.length = 0;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
