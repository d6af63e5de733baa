/**
 * The v1.1 REST transport: every call is a GET whose query carries `apikey` and `nonce` when private, signed over
 * the exact URL sent (`apisign` header), spent through the per-key {@link Throttler} (seed section 8: 60 calls a
 * minute), answered HTTP 200 with a `{success, message, result}` wrapper that is unwrapped here into the decoded
 * result or a {@link V1ApiError} carrying the message code. Numbers are read from the JSON text exactly.
 */
import { Agent, type Dispatcher } from 'undici';
import { type Clock, systemClock } from '../../../core/clock.js';
import { ApiError, type RequestRef, ValidationError, WireFormatError } from '../../../core/errors.js';
import type { Decoder } from '../../../model/decode.js';
import { parseV1Json } from '../../../wire/v1/json.js';
import { isThrottledMessage } from '../../../wire/v1/message-codes.js';
import type { Credentials } from '../../rest/auth.js';
import { parseRetryAfter, type RestLogger, transportError } from '../../rest/http.js';
import type { RequestPriority, Throttler } from '../../rest/throttler.js';
import { signV1Url } from './v1-auth.js';
import { V1ApiError } from './v1-errors.js';
import { bodyTextWithin, MAX_RESPONSE_BYTES } from '../../rest/response-limits.js';

/** A query value: decimals are written in plain notation (`0.00000001`, never `1e-8`). */
export type V1QueryValue = string | number | { toFixed(): string } | undefined;

/** One v1.1 call. */
export interface V1Request {
  /** Path below the base URL, e.g. `/public/getmarkets`. */
  path: string;
  query?: Readonly<Record<string, V1QueryValue>> | undefined;
  /** Everything outside /public is signed. */
  signed: boolean;
  /** Throttler queue; default `read`. Placements say `place`, cancels `cancel`. */
  priority?: RequestPriority | undefined;
  /** Whether the call may be sent again after a throttled answer (reads only). Default: priority is `read`. */
  idempotent?: boolean | undefined;
}

/** Options of {@link V1Transport}. */
export interface V1TransportOptions {
  /** Base URL with the version path: `https://api.bittrex.com/api/v1.1` or `http://127.0.0.1:PORT/api/v1.1`. */
  baseUrl: string;
  credentials?: Credentials | undefined;
  throttler: Throttler;
  clock?: Clock | undefined;
  timeoutMs?: number | undefined;
  dispatcher?: Dispatcher | undefined;
  /**
   * pino-compatible logger: each request (method, path, status, duration) at debug, throttled answers and failures
   * at warn. Paths only: the query (where `apikey` goes) and the `apisign` header are never logged.
   */
  logger?: RestLogger | undefined;
  /** How many times a read answered "throttled" is tried in all. Default 5. */
  maxReadAttempts?: number | undefined;
}

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function snippet(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

/** The HTTP layer under the v1.1 client. */
export class V1Transport {
  readonly #origin: string;
  readonly #basePath: string;
  readonly #credentials: Credentials | undefined;
  readonly #throttler: Throttler;
  readonly #clock: Clock;
  readonly #timeoutMs: number;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #logger: RestLogger | undefined;
  readonly #maxReadAttempts: number;
  #lastNonce = 0;
  #closing: Promise<void> | undefined;

  constructor(opts: V1TransportOptions) {
    let url: URL;
    try {
      url = new URL(opts.baseUrl);
    } catch {
      throw new ValidationError('baseUrl', `is not an absolute URL: ${JSON.stringify(opts.baseUrl)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationError('baseUrl', `must be http or https, got ${url.protocol}`);
    if (url.search || url.hash) throw new ValidationError('baseUrl', 'must not carry a query or fragment');
    this.#origin = url.origin;
    this.#basePath = url.pathname.replace(/\/+$/, '');
    this.#credentials = opts.credentials;
    this.#throttler = opts.throttler;
    this.#clock = opts.clock ?? systemClock;
    this.#timeoutMs = opts.timeoutMs ?? 10_000;
    if (!(this.#timeoutMs > 0)) throw new ValidationError('timeoutMs', `must be positive, got ${opts.timeoutMs}`);
    this.#ownsDispatcher = opts.dispatcher === undefined;
    this.#dispatcher = opts.dispatcher ?? new Agent({ keepAliveTimeout: 30_000, connect: { timeout: this.#timeoutMs }, maxResponseSize: MAX_RESPONSE_BYTES });
    this.#logger = opts.logger;
    this.#maxReadAttempts = Math.max(1, opts.maxReadAttempts ?? 5);
  }

  /** `GET /api/v1.1/public/getmarkets`: how errors name an endpoint. */
  where(path: string): string {
    return `GET ${this.#basePath}${path}`;
  }

  /** Send `req`, unwrap the wrapper and decode `result` with `decoder`. */
  async call<T>(req: V1Request, decoder: Decoder<T>): Promise<T> {
    if (req.signed && !this.#credentials) {
      throw new ValidationError('credentials', `${this.where(req.path)} is private: createV1RestClient needs { credentials }`);
    }
    const ref: RequestRef = { method: 'GET', path: this.#basePath + req.path };
    const where = this.where(req.path);
    const priority = req.priority ?? 'read';
    const idempotent = req.idempotent ?? priority === 'read';
    for (let attempt = 1; ; attempt++) {
      const raw = await this.#throttler.schedule(priority, () => this.#once(req, ref));
      if (raw.status !== 200) {
        if (raw.status === 429 && idempotent && attempt < this.#maxReadAttempts) continue;
        throw this.#httpError(raw, ref, where);
      }
      let body: unknown;
      try {
        body = parseV1Json(raw.text);
      } catch {
        throw new WireFormatError(where, 'body', `is not JSON: ${snippet(raw.text)}`);
      }
      const wrapper = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
      if (typeof wrapper.success !== 'boolean') throw new WireFormatError(where, 'success', `is not a boolean: ${snippet(raw.text)}`);
      if (!wrapper.success) {
        const message = typeof wrapper.message === 'string' ? wrapper.message : '';
        if (isThrottledMessage(message)) {
          // The v1.1 limit answers 200 + a sentence, so the throttler learns of it here, not from a 429.
          this.#throttler.throttled();
          this.#logger?.warn?.({ method: 'GET', path: ref.path, message }, 'v1.1 request throttled');
          if (idempotent && attempt < this.#maxReadAttempts) continue;
        } else {
          this.#throttler.succeeded();
        }
        throw new V1ApiError(message, ref);
      }
      this.#throttler.succeeded();
      return decoder(wrapper.result ?? null, 'result', where);
    }
  }

  /** Close the keep-alive agent if this transport created it. Idempotent. */
  async close(): Promise<void> {
    if (!this.#ownsDispatcher) return;
    this.#closing ??= this.#dispatcher.close();
    await this.#closing;
  }

  /** Epoch ms, strictly increasing per transport (two calls in one millisecond must not share a nonce). */
  #nonce(): number {
    const n = Math.max(Math.floor(this.#clock.now()), this.#lastNonce + 1);
    this.#lastNonce = n;
    return n;
  }

  #target(req: V1Request): string {
    let qs = '';
    const add = (k: string, v: string) => {
      qs += `${qs ? '&' : '?'}${encodeURIComponent(k)}=${encodeURIComponent(v)}`;
    };
    for (const [k, v] of Object.entries(req.query ?? {})) {
      if (v === undefined) continue;
      add(k, typeof v === 'object' ? v.toFixed() : String(v));
    }
    if (req.signed) {
      // Signed here, after the throttler let the call through, so a queue wait cannot stale the nonce.
      add('apikey', this.#credentials!.apiKey);
      add('nonce', String(this.#nonce()));
    }
    return this.#basePath + req.path + qs;
  }

  async #once(req: V1Request, ref: RequestRef): Promise<Raw> {
    const target = this.#target(req);
    const headers: Record<string, string> = {};
    if (req.signed) headers.apisign = signV1Url(this.#credentials!.apiSecret, this.#origin + target);
    const started = this.#logger ? this.#clock.now() : 0;
    let raw: Raw;
    try {
      const r = await this.#dispatcher.request({
        origin: this.#origin,
        path: target,
        method: 'GET',
        headers,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
      });
      // The whole body within three idle timeouts (see response-limits.ts).
      raw = { status: r.statusCode, headers: r.headers, text: await bodyTextWithin(r.body, 3 * this.#timeoutMs) };
    } catch (err) {
      const mapped = transportError(err, ref, this.#timeoutMs);
      this.#logger?.warn?.({ method: 'GET', path: ref.path, error: mapped.code }, 'v1.1 request failed');
      throw mapped;
    }
    if (raw.status === 429) {
      const h = raw.headers['retry-after'];
      this.#throttler.throttled(parseRetryAfter(Array.isArray(h) ? h[0] : h, this.#clock.now()));
      this.#logger?.warn?.({ method: 'GET', path: ref.path, status: 429 }, 'v1.1 request throttled');
    }
    this.#logger?.debug?.({ method: 'GET', path: ref.path, status: raw.status, durationMs: this.#clock.now() - started }, 'v1.1 request');
    return raw;
  }

  #httpError(raw: Raw, ref: RequestRef, where: string): ApiError {
    if (raw.status !== 429) this.#throttler.succeeded();
    // A 404/405 from the service's own front still came in the wrapper: its message is the better code.
    let message: string | undefined;
    try {
      const body = JSON.parse(raw.text) as { success?: unknown; message?: unknown };
      if (body.success === false && typeof body.message === 'string' && body.message) message = body.message;
    } catch {
      message = undefined;
    }
    return new ApiError({
      status: raw.status,
      code: raw.status === 429 ? 'THROTTLED' : (message ?? `HTTP_${raw.status}`),
      detail: raw.text ? `${where} answered HTTP ${raw.status}: ${snippet(raw.text)}` : undefined,
      request: ref,
    });
  }
}
