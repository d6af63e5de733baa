/**
 * The REST transport: one place that turns a {@link RestRequest} into an HTTP exchange with the v3 service.
 *
 * It builds the exact request target (base path + percent-encoded path + query), signs it with `auth.ts` over
 * that exact URI when the endpoint is private, runs it through the per-key {@link Throttler}, reads and parses
 * the answer, and maps every failure to a typed error: `ApiError` (the service said no), `NetworkError`
 * (below HTTP, saying whether the request may have reached the server), `TimeoutError` (no answer in time) and
 * `WireFormatError` (the answer is not what the contract says). Endpoint groups sit on top of it and only say
 * what to send and how to decode the answer.
 */
import { Agent, type Dispatcher } from 'undici';
import { type Clock, systemClock } from '../../core/clock.js';
import { parseVenueJson, WireJsonError } from '../../core/venue-json.js';
import { ApiError, type NetworkError, type RequestRef, RequestNotSentError, type TimeoutError, ValidationError, WireFormatError } from '../../core/errors.js';
import { type Decoder } from '../../model/decode.js';
import { decodeServicePing } from '../../model/misc.js';
import { toWireJsonBytes } from '../../model/encode.js';
import { contentHash, type Credentials, writeSignedHeaders } from './auth.js';
import { SigningTimestamps } from './signing-timestamps.js';
import type { RequestPriority, Throttler } from './throttler.js';
import { bodyTextWithin, MAX_RESPONSE_BYTES } from './response-limits.js';
import { afterTimestampRefusal, isTimestampRefusal } from './timestamp-refusal.js';
import { transportError } from './transport-error.js';
import { VenueClock } from './venue-clock.js';

export { transportError } from './transport-error.js';

/** HTTP methods the v3 interface uses. */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'DELETE';

/** A query value; `undefined` leaves the parameter out, dates are sent as ISO 8601. */
export type QueryValue = string | number | boolean | Date | undefined;

/** Query parameters in the order they are sent. */
export type Query = Readonly<Record<string, QueryValue>>;

/** Per-call options every authenticated method accepts as its last argument. */
export interface CallOptions {
  /**
   * Act on behalf of this sub-account (adds `Api-Subaccount-Id` and signs it). Overrides the client default;
   * `null` means the master account even when the client has a default sub-account.
   */
  subaccountId?: string | null | undefined;
}

/** A snapshot with the `Sequence` header it was served with, for synchronising with a stream (seed rule 4). */
export interface Sequenced<T> {
  data: T;
  sequence: number;
}

/** The subset of a pino logger the client uses. Only method, path, status and duration are ever logged. */
export interface RestLogger {
  debug?(obj: object, msg?: string): void;
  warn?(obj: object, msg?: string): void;
}

/** One request as an endpoint describes it. */
export interface RestRequest {
  method: HttpMethod;
  /** Path below the base URL, already percent-encoded, e.g. `/markets/BTC-USD/orderbook`. */
  path: string;
  query?: Query | undefined;
  /** JSON body (POST only); decimals are sent as plain strings, dates as ISO 8601. */
  body?: unknown;
  /** Private endpoints are signed; public market data (/markets, /currencies, /ping) is not. */
  signed: boolean;
  subaccountId?: string | null | undefined;
  /** Throttler queue; defaults to `read` for GET/HEAD and `place` otherwise. Cancels say so explicitly. */
  priority?: RequestPriority | undefined;
}

/** Options of {@link HttpTransport}. */
export interface HttpTransportOptions {
  /** Base URL including the version path, e.g. `https://api.bittrex.com/v3`. */
  baseUrl: string;
  credentials?: Credentials | undefined;
  /** Sub-account used when a call does not name one. */
  subaccountId?: string | undefined;
  /** Headers and body timeout (and connect timeout of the default agent). Default 10 000 ms. */
  timeoutMs?: number | undefined;
  throttler: Throttler;
  clock?: Clock | undefined;
  /** undici dispatcher; by default the transport owns a keep-alive `Agent` and closes it in {@link HttpTransport.close}. */
  dispatcher?: Dispatcher | undefined;
  logger?: RestLogger | undefined;
  /** How many times a GET/HEAD answered 429 is tried in all (through the throttler). Default 5. */
  maxReadAttempts?: number | undefined;
  /** The venue's time to sign with (share one with the hub); default a new one over `clock`, logging to `logger`. */
  venueClock?: VenueClock | undefined;
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The venue clock's generation the request was signed at (see venue-clock.ts). */
  venueGeneration: number;
}

/**
 * Builds `?a=1&b=x` from a query object, skipping undefined values. Keys and values are percent-encoded with
 * `encodeURIComponent`, dates become ISO 8601 strings.
 *
 * @example
 * buildQuery({ marketSymbol: 'BTC-USD', pageSize: 50, endDate: undefined }) // '?marketSymbol=BTC-USD&pageSize=50'
 */
export function buildQuery(query: Query | undefined): string {
  if (!query) return '';
  let qs = '';
  for (const key of Object.keys(query)) {
    const v = query[key];
    if (v === undefined) continue;
    const s = v instanceof Date ? v.toISOString() : String(v);
    qs += `${qs ? '&' : '?'}${encodeURIComponent(key)}=${encodeURIComponent(s)}`;
  }
  return qs;
}

/** Parses `Retry-After` (delay in seconds, or an HTTP date) into milliseconds from `now`. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function header(headers: RawResponse['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function snippet(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

/**
 * The HTTP layer under every endpoint group. Create it through `createRestClient`, which also builds the
 * throttler; use it directly only to add an endpoint the client does not know.
 */
export class HttpTransport {
  readonly #origin: string;
  readonly #basePath: string;
  readonly #credentials: Credentials | undefined;
  readonly #defaultSubaccount: string | undefined;
  readonly #timeoutMs: number;
  readonly #throttler: Throttler;
  readonly #clock: Clock;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #logger: RestLogger | undefined;
  readonly #maxReadAttempts: number;
  readonly #venue: VenueClock;
  #closing: Promise<void> | undefined;

  constructor(opts: HttpTransportOptions) {
    let url: URL;
    try {
      url = new URL(opts.baseUrl);
    } catch {
      throw new ValidationError('baseUrl', `is not an absolute URL: ${JSON.stringify(opts.baseUrl)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ValidationError('baseUrl', `must be http or https, got ${url.protocol}`);
    }
    if (url.search || url.hash) throw new ValidationError('baseUrl', 'must not carry a query or fragment');
    this.#origin = url.origin;
    this.#basePath = url.pathname.replace(/\/+$/, '');
    this.#credentials = opts.credentials;
    this.#defaultSubaccount = opts.subaccountId;
    this.#timeoutMs = opts.timeoutMs ?? 10_000;
    if (!(this.#timeoutMs > 0)) throw new ValidationError('timeoutMs', `must be positive, got ${opts.timeoutMs}`);
    this.#throttler = opts.throttler;
    this.#clock = opts.clock ?? systemClock;
    this.#ownsDispatcher = opts.dispatcher === undefined;
    this.#dispatcher =
      opts.dispatcher ?? new Agent({ keepAliveTimeout: 30_000, connect: { timeout: this.#timeoutMs }, maxResponseSize: MAX_RESPONSE_BYTES });
    this.#logger = opts.logger;
    this.#maxReadAttempts = Math.max(1, opts.maxReadAttempts ?? 5);
    this.#venue = opts.venueClock ?? new VenueClock({ clock: this.#clock, logger: opts.logger });
  }

  #timestamps = new SigningTimestamps();
  /** The venue clock's generation {@link #timestamps} counts in: a correction starts them afresh. */
  #timestampsGeneration = 0;
  readonly #pingVenue = () => this.call({ method: 'GET', path: '/ping', signed: false }, decodeServicePing).then((p) => p.serverTime);

  /** The endpoint name used in errors: `GET /v3/markets/BTC-USD/orderbook`. */
  where(method: HttpMethod, path: string): string {
    return `${method} ${this.#basePath}${path}`;
  }

  /** Send `req` and decode its JSON body with `decoder`. */
  async call<T>(req: RestRequest, decoder: Decoder<T>): Promise<T> {
    const where = this.where(req.method, req.path);
    const res = await this.#send(req, where);
    return decoder(parseJson(res.text, where), '', where);
  }

  /** Send a snapshot GET and return its decoded body with the `Sequence` header. */
  async callSequenced<T>(req: RestRequest, decoder: Decoder<T>): Promise<Sequenced<T>> {
    const where = this.where(req.method, req.path);
    const res = await this.#send(req, where);
    const sequence = parseSequence(header(res.headers, 'sequence'), where);
    return { data: decoder(parseJson(res.text, where), '', where), sequence };
  }

  /** Send a HEAD and return its `Sequence` header. */
  async head(req: RestRequest): Promise<number> {
    const where = this.where(req.method, req.path);
    const res = await this.#send(req, where);
    return parseSequence(header(res.headers, 'sequence'), where);
  }

  /** Close the keep-alive agent if this transport created it. Idempotent. */
  async close(): Promise<void> {
    if (!this.#ownsDispatcher) return;
    this.#closing ??= this.#dispatcher.close();
    await this.#closing;
  }

  async #send(req: RestRequest, where: string): Promise<RawResponse> {
    if (req.signed && !this.#credentials) {
      throw new ValidationError('credentials', `${where} is private: createRestClient needs { credentials }`);
    }
    const ref: RequestRef = { method: req.method, path: this.#basePath + req.path };
    const target = ref.path + buildQuery(req.query);
    // The body's bytes, written once: hashed for the signature and handed to undici as they are (a string body
    // was encoded to text, hashed as text, then converted to bytes again by undici).
    let body: Buffer | undefined;
    try {
      body = req.body === undefined ? undefined : toWireJsonBytes(req.body, 'plain');
    } catch (err) {
      // Nothing has left: the caller must know this request cannot have reached the server.
      throw new RequestNotSentError(ref, err);
    }
    const subaccountId = req.subaccountId === undefined ? this.#defaultSubaccount : (req.subaccountId ?? undefined);
    const idempotent = req.method === 'GET' || req.method === 'HEAD';
    const priority = req.priority ?? (idempotent ? 'read' : 'place');
    let clockRetried = false;
    for (let attempt = 1; ; attempt++) {
      // The callback is written inline on purpose: a named closure costs a keepNames helper call per request
      // under tsx/esbuild, which showed up in the rest-client bench profile.
      const res = await this.#throttler.schedule(priority, () => this.#once(req, ref, target, body, subaccountId));
      if (res.status >= 200 && res.status < 300) return res;
      // Only reads are retried: a placement answered 429 was not processed, but re-sending it is the caller's
      // decision (it owns the clientOrderId journal), never a transport's.
      if (res.status === 429 && idempotent && attempt < this.#maxReadAttempts) continue;
      const err = this.#apiError(res, ref, where);
      if (!req.signed || !isTimestampRefusal(err)) throw err;
      // The venue checks the timestamp before doing anything, so a request refused for it was not executed: sending
      // it once more, signed with the venue's time, is safe even for a placement (it cannot place twice).
      const next = await afterTimestampRefusal(err, this.#venue, res.venueGeneration, clockRetried, this.#pingVenue);
      if (next !== 'retry') throw next;
      clockRetried = true;
    }
  }

  async #once(
    req: RestRequest,
    ref: RequestRef,
    target: string,
    body: Buffer | undefined,
    subaccountId: string | undefined,
  ): Promise<RawResponse> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    const venueGeneration = this.#venue.generation;
    if (req.signed) {
      // Signed here, after the throttler let us through, so a long queue wait cannot stale the timestamp. The
      // headers are those of `signRequest`, in its order, written straight into this request's headers (no
      // second object to copy from).
      try {
        const hash = contentHash(body);
        writeSignedHeaders(headers, this.#credentials!, {
          method: req.method,
          uri: this.#origin + target,
          body,
          // What is signed besides the timestamp: an identical request needs a later one (signing-timestamps.ts).
          timestamp: this.#signingTimestamps(venueGeneration).next(this.#venue.now(), `${req.method} ${target} ${subaccountId ?? ''} ${hash}`),
          subaccountId,
          contentHash: hash,
        });
      } catch (err) {
        throw new RequestNotSentError(ref, err);
      }
    }
    const started = this.#logger ? this.#clock.now() : 0;
    let res: RawResponse;
    try {
      const r = await this.#dispatcher.request({
        origin: this.#origin,
        path: target,
        method: req.method,
        headers,
        body: body ?? null,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
        // undici closes the connection after every HEAD, in case a misbehaving server sends a body anyway; the
        // sequence polls (HEAD of a snapshot) then paid a new TCP connection each, ~1.4 ms CPU against ~0.3 ms
        // for a signed GET. The exchange's HEAD answers carry headers only (HTTP says so; the simulator's node
        // server never writes a body for HEAD), so the connection is kept like any other.
        ...(req.method === 'HEAD' ? { reset: false } : {}),
      });
      // The whole body within three idle timeouts: undici's bodyTimeout alone lets a dripped body run forever.
      res = { status: r.statusCode, headers: r.headers, text: await bodyTextWithin(r.body, 3 * this.#timeoutMs), venueGeneration };
    } catch (err) {
      const mapped = this.#transportError(err, ref);
      this.#logger?.warn?.({ method: ref.method, path: ref.path, error: mapped.code }, 'rest request failed');
      throw mapped;
    }
    if (res.status === 429) {
      this.#throttler.throttled(parseRetryAfter(header(res.headers, 'retry-after'), this.#clock.now()));
      this.#logger?.warn?.({ method: ref.method, path: ref.path, status: 429 }, 'rest request throttled');
    } else {
      this.#throttler.succeeded();
    }
    if (this.#logger?.debug) {
      this.#logger.debug(
        { method: ref.method, path: ref.path, status: res.status, durationMs: this.#clock.now() - started },
        'rest request',
      );
    }
    return res;
  }

  /**
   * The timestamps of venue-clock generation `generation`. Their rules (never back, never the same for one request)
   * hold on the venue's time; a correction that moves it back starts them afresh: what was signed on the old time
   * was refused as outside the window just the same, so nothing accepted can be replayed by it.
   */
  #signingTimestamps(generation: number): SigningTimestamps {
    if (generation !== this.#timestampsGeneration) {
      this.#timestamps = new SigningTimestamps();
      this.#timestampsGeneration = generation;
    }
    return this.#timestamps;
  }

  #transportError(err: unknown, ref: RequestRef): NetworkError | TimeoutError {
    return transportError(err, ref, this.#timeoutMs);
  }

  #apiError(res: RawResponse, ref: RequestRef, where: string): ApiError {
    // JSON.parse, not parseVenueJson, on purpose: `code` and `detail` are strings and nothing reads a number from the
    // free-form `data` (retry-policy reads a string id), so exact numbers would change nothing, while the exact
    // reader's refusals (a duplicate key, deep nesting) would lose the venue's `code` to "a non-JSON body".
    let parsed: unknown;
    try {
      parsed = res.text ? JSON.parse(res.text) : undefined;
    } catch {
      parsed = undefined;
    }
    const obj = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    const code = typeof obj.code === 'string' && obj.code ? obj.code : `HTTP_${res.status}`;
    let detail = typeof obj.detail === 'string' ? obj.detail : undefined;
    // A body that is not the service's Error JSON (an HTML page from a proxy) is still worth showing.
    if (parsed === undefined && res.text) detail = `${where} answered a non-JSON body: ${snippet(res.text)}`;
    const data =
      typeof obj.data === 'object' && obj.data !== null && !Array.isArray(obj.data)
        ? (obj.data as Record<string, unknown>)
        : undefined;
    return new ApiError({
      status: res.status,
      code,
      detail,
      data,
      request: ref,
      retryAfterMs: parseRetryAfter(header(res.headers, 'retry-after'), this.#clock.now()),
    });
  }
}

/** The body's JSON, every number in it exact (venue-json.ts: a quantity sent as a bare number keeps its digits). */
function parseJson(text: string, where: string): unknown {
  try {
    return parseVenueJson(text);
  } catch (err) {
    throw new WireFormatError(where, 'body', `is not JSON${err instanceof WireJsonError ? ` (${err.message})` : ''}: ${snippet(text)}`);
  }
}

/** Parses the `Sequence` header; missing or not a non-negative integer is a wire format error naming `where`. */
export function parseSequence(value: string | undefined, where: string): number {
  if (value === undefined) throw new WireFormatError(where, 'Sequence header', 'is missing');
  const v = value.trim();
  const n = /^\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n)) throw new WireFormatError(where, 'Sequence header', `is not a sequence number: ${snippet(value)}`);
  return n;
}
