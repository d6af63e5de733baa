/**
 * The simulator's v1.1 REST pipeline, under `/api/v1.1` beside v3's `/v3`, over the SAME engine, accounts, keys
 * and per-key call budget: route → faults → signature → call limit → handler → `{success, message, result}`.
 *
 * Every outcome of a request is HTTP 200 with the wrapper (seed sections 1 and 7), except what the service's
 * infrastructure answered itself: an unknown path (404) or a method other than GET (405), both still with the
 * wrapper so v1.1 clients can read them, and injected infrastructure faults. Handlers are synchronous calls into
 * the engine, so a refused request changes nothing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../core/clock.js';
import type { SimEngine } from '../../sim/engine.js';
import { stringifyV1 } from '../../wire/v1/json.js';
import { throttledMessage } from '../../wire/v1/message-codes.js';
import type { RestFaults } from '../rest/faults.js';
import type { KeyRateLimiter } from '../rest/rate-limit.js';
import type { ReplayGuard } from '../rest/replay-guard.js';
import type { KeyDirectory } from '../rest/request-auth.js';
import { NumericIds } from './numeric-ids.js';
import { verifyV1Request, type V1Caller } from './v1-auth.js';
import { v1MessageOf } from './v1-failure.js';
import { param } from './v1-params.js';
import { addV1FundsRoutes } from './v1-funds-routes.js';
import { addV1PublicRoutes } from './v1-public-routes.js';
import { addV1TradingRoutes } from './v1-trading-routes.js';
import type { V1Routes } from './v1-routes.js';
import type { V1ResultShapes } from './v1-shapes.js';

/** The v1.1 base path (seed: version v1.1 is in the base address; official: `/api/v1.1`). */
export const V1_BASE_PATH = '/api/v1.1';

/** Options of {@link createV1RestHandler}. */
export interface V1RestHandlerOptions {
  engine: SimEngine;
  keys: KeyDirectory;
  clock: Clock;
  faults: RestFaults;
  /** The same limiter as v3: one key, one budget. */
  limiter: KeyRateLimiter;
  basePath?: string;
  /** Result shapes where the service and its document disagree (v1-shapes.ts); default `service`. */
  shapes?: V1ResultShapes | undefined;
  onInternalError?: (err: unknown, where: string) => void;
  /**
   * v3's replay guard, shared: a state-changing v1.1 call (scope trade or withdraw: buylimit, selllimit, cancel,
   * withdraw) whose (key, apisign) was already seen is refused INVALID_SIGNATURE while its nonce, read as the
   * epoch milliseconds every known client sends, is inside the timestamp window. A nonce that is no such time
   * (v1.1 only asks for a number) is never refused: v1.1 has no timestamp to bound a replay by.
   */
  replays?: ReplayGuard | undefined;
}

/** Write one v1.1 answer. */
export function sendV1(res: ServerResponse, status: number, success: boolean, message: string, result: unknown): void {
  const text = stringifyV1({ success, message, result: result ?? null });
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** Build the v1.1 routes over `engine`. */
export function createV1Routes(engine: SimEngine, shapes: V1ResultShapes = 'service'): V1Routes {
  const routes: V1Routes = new Map();
  addV1PublicRoutes(routes, engine, new NumericIds(), shapes);
  addV1TradingRoutes(routes, engine, shapes);
  addV1FundsRoutes(routes, engine, new NumericIds(), shapes);
  return routes;
}

/** A request handler for the v1.1 routes; returns false when the path is not under the v1.1 base. */
export function createV1RestHandler(opts: V1RestHandlerOptions) {
  const base = (opts.basePath ?? V1_BASE_PATH).replace(/\/$/, '');
  const baseLower = base.toLowerCase();
  const routes = createV1Routes(opts.engine, opts.shapes);
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const target = req.url ?? '/';
    const qi = target.indexOf('?');
    const rawPath = qi >= 0 ? target.slice(0, qi) : target;
    // WIRE: the service's paths were case-insensitive (ASP.NET): /api/v1.1/public/getMarkets worked too.
    const lower = rawPath.toLowerCase();
    if (lower !== baseLower && !lower.startsWith(`${baseLower}/`)) return false;
    // v1.1 calls carry no body; whatever arrives is read and dropped.
    req.resume();
    const path = lower.slice(baseLower.length).replace(/\/+$/, '') || '/';
    const method = (req.method ?? 'GET').toUpperCase();
    const route = routes.get(path);
    if (!route) {
      sendV1(res, 404, false, 'NOT_FOUND', null);
      return true;
    }
    if (method !== 'GET') {
      res.setHeader('Allow', 'GET');
      sendV1(res, 405, false, 'NOT_ALLOWED', null);
      return true;
    }
    const query = new URLSearchParams(qi >= 0 ? target.slice(qi + 1) : '');

    const fault = opts.faults.decide(method, path);
    if (fault.delayMs > 0) await opts.clock.sleep(fault.delayMs);
    if (fault.kind === 'drop') {
      req.socket.destroy();
      return true;
    }
    if (fault.kind === 'throttle') {
      sendV1(res, 200, false, throttledMessage(path), null);
      return true;
    }
    if (fault.kind === 'error') {
      sendV1(res, fault.status, false, 'SERVICE_UNAVAILABLE', null);
      return true;
    }

    let result: unknown;
    try {
      let caller: V1Caller | undefined;
      if (route.auth !== 'public') caller = verifyV1Request(req, query, opts.keys, route.auth);
      if (caller && opts.replays && (route.auth === 'trade' || route.auth === 'withdraw')) {
        // A captured signed URL sent again: the same signature over the same nonce (see `replays`).
        if (!opts.replays.firstUse(caller.apiKey, param(query, 'nonce') ?? '', String(req.headers.apisign))) {
          sendV1(res, 200, false, 'INVALID_SIGNATURE', null);
          return true;
        }
      }
      const waitMs = opts.limiter.take(caller?.apiKey ?? `ip:${req.socket.remoteAddress ?? ''}`);
      if (waitMs !== undefined) {
        sendV1(res, 200, false, throttledMessage(path, Math.ceil(waitMs / 1000)), null);
        return true;
      }
      result = route.handle({ caller, query });
    } catch (err) {
      const message = v1MessageOf(err);
      if (message !== undefined) {
        sendV1(res, 200, false, message, null);
      } else {
        opts.onInternalError?.(err, `${method} ${rawPath}`);
        sendV1(res, 500, false, 'APICALL_FAILED', null);
      }
      return true;
    }
    if (fault.loseResponse) {
      req.socket.destroy();
      return true;
    }
    sendV1(res, 200, true, '', result);
    return true;
  };
}
