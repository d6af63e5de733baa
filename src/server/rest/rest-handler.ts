/**
 * The simulator's v3 REST pipeline: route -> faults -> body -> signature -> call limit -> handler -> answer.
 * Handlers are synchronous calls into the engine, so a request is applied atomically; whatever goes wrong
 * answers a status and a code (never a 500 for bad input, and never a partial state change).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../core/clock.js';
import { SimError } from '../../sim/sim-error.js';
import { parseJsonBody, readBody } from './body.js';
import { faultCode, type RestFaults } from './faults.js';
import type { ReplayGuard } from './replay-guard.js';
import type { KeyRateLimiter } from './rate-limit.js';
import { type Caller, type KeyDirectory, type Scope, type VerifyOptions, verifyRequest } from './request-auth.js';
import { sendError, sendJson, sendSimError } from './respond.js';
import { type Params, Router } from './router.js';

/** What a route handler sees. */
export interface RouteContext {
  caller: Caller | undefined;
  params: Params;
  query: URLSearchParams;
  body: unknown;
  method: string;
  /** Path below the base path, e.g. `/orders/open`. */
  path: string;
}

/** What a route handler answers. `sequence` becomes the `Sequence` header (HEAD and snapshot GETs). */
export interface RouteResult {
  status?: number;
  body?: unknown;
  sequence?: number;
}

/** One route: the scope it needs (`public` for unsigned market data) and its handler. */
export interface RouteDef {
  auth: Scope | 'public';
  handle(ctx: RouteContext): RouteResult;
}

/** Options of {@link createRestHandler}. */
export interface RestHandlerOptions {
  basePath: string;
  keys: KeyDirectory;
  clock: Clock;
  faults: RestFaults;
  limiter: KeyRateLimiter;
  timestampWindowMs?: number;
  /** Refuses replayed state-changing requests and says how long to hold back repeated authentication failures. */
  replays?: ReplayGuard;
  /** The clock that holds failed authentications back (default `clock`). */
  authClock?: Clock;
  /** Called for unexpected handler failures (bugs), which answer 500 ORDER_ERROR_CONTACT_SUPPORT. */
  onInternalError?: (err: unknown, where: string) => void;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A request handler for `router`'s routes under `opts.basePath`; returns false when the path is not its. */
export function createRestHandler(router: Router<RouteDef>, opts: RestHandlerOptions) {
  const base = opts.basePath.replace(/\/$/, '');
  const replays = opts.replays;
  const authClock = opts.authClock ?? opts.clock;
  /**
   * Verify the signature; hold repeated failures back; refuse a replayed state-changing request. A verified caller
   * is returned as it is (no promise: the signed happy path awaits nothing here); only a refusal is asynchronous,
   * as it may hold the answer back first.
   */
  // The verification options of each scope, built once rather than per request.
  const verifyOptions = new Map<Scope, VerifyOptions>();
  const optionsFor = (scope: Scope): VerifyOptions => {
    let o = verifyOptions.get(scope);
    if (!o) verifyOptions.set(scope, (o = { keys: opts.keys, clock: opts.clock, scope, ...(opts.timestampWindowMs ? { timestampWindowMs: opts.timestampWindowMs } : {}) }));
    return o;
  };
  function authenticate(req: IncomingMessage, raw: Buffer, scope: Scope, method: string): Caller | Promise<never> {
    let caller: Caller;
    try {
      caller = verifyRequest(req, raw, optionsFor(scope));
    } catch (err) {
      return refuse(req, err);
    }
    if (replays) {
      replays.succeeded(req.socket);
      if (STATE_CHANGING.has(method) && !replays.firstUse(caller.apiKey, String(req.headers['api-timestamp']), String(req.headers['api-signature']))) {
        throw new SimError(401, 'INVALID_SIGNATURE', 'this signed request was already received (a replay); sign every request anew with a fresh Api-Timestamp');
      }
    }
    return caller;
  }
  /** A failed verification: held back when the key or connection keeps failing, then thrown. */
  async function refuse(req: IncomingMessage, err: unknown): Promise<never> {
    if (replays && err instanceof SimError && err.status === 401) {
      // Per key only for keys that exist: unknown keys are counted on the connection alone (no map of junk).
      const key = err.code === 'APIKEY_INVALID' ? undefined : String(req.headers['api-key']);
      const holdMs = replays.failed(key, req.socket);
      if (holdMs > 0) await authClock.sleep(holdMs);
    }
    throw err;
  }
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const target = req.url ?? '/';
    const qi = target.indexOf('?');
    const rawPath = qi >= 0 ? target.slice(0, qi) : target;
    if (rawPath !== base && !rawPath.startsWith(`${base}/`)) return false;
    const path = rawPath.slice(base.length) || '/';
    const method = (req.method ?? 'GET').toUpperCase();
    const query = new URLSearchParams(qi >= 0 ? target.slice(qi + 1) : '');
    const where = `${method} ${rawPath}`;

    const m = router.match(method, path);
    if (m.kind === 'not-found') {
      req.resume();
      sendError(res, 404, 'NOT_FOUND', `no such endpoint: ${where}`);
      return true;
    }
    if (m.kind === 'method-not-allowed') {
      req.resume();
      sendError(res, 405, 'NOT_ALLOWED', `${method} is not allowed on ${rawPath}`, undefined, { Allow: [...new Set(m.allowed)].join(', ') });
      return true;
    }

    const fault = opts.faults.decide(method, path);
    if (fault.delayMs > 0) await opts.clock.sleep(fault.delayMs);
    if (fault.kind === 'drop') {
      req.socket.destroy();
      return true;
    }
    if (fault.kind === 'throttle') {
      req.resume();
      sendError(res, 429, 'THROTTLED', 'too many requests (injected)', undefined, { 'Retry-After': '1' });
      return true;
    }
    if (fault.kind === 'error') {
      req.resume();
      sendError(res, fault.status, faultCode(fault.status), 'injected failure');
      return true;
    }

    let result: RouteResult;
    try {
      const raw = await readBody(req);
      const route = m.handler;
      let caller: Caller | undefined;
      if (route.auth !== 'public') {
        const verified = authenticate(req, raw, route.auth, method);
        caller = verified instanceof Promise ? await verified : verified;
      }
      const waitMs = opts.limiter.take(caller?.apiKey ?? `ip:${req.socket.remoteAddress ?? ''}`);
      if (waitMs !== undefined) {
        sendError(res, 429, 'THROTTLED', 'call limit exceeded for this minute', undefined, { 'Retry-After': String(Math.ceil(waitMs / 1000)) });
        return true;
      }
      const body = method === 'POST' || method === 'PUT' ? parseJsonBody(raw) : undefined;
      result = route.handle({ caller, params: m.params, query, body, method, path });
    } catch (err) {
      if (err instanceof SimError) {
        sendSimError(res, err);
      } else {
        opts.onInternalError?.(err, where);
        sendError(res, 500, 'ORDER_ERROR_CONTACT_SUPPORT', 'internal error');
      }
      return true;
    }

    if (fault.loseResponse) {
      // The request was applied; the client never hears of it.
      req.socket.destroy();
      return true;
    }
    const headers: Record<string, string> = {};
    if (result.sequence !== undefined) headers.Sequence = String(result.sequence);
    if (method === 'HEAD') {
      res.writeHead(result.status ?? 200, headers);
      res.end();
      return true;
    }
    sendJson(res, result.status ?? 200, result.body, headers);
    return true;
  };
}
