/**
 * Shared fixture of the REST end-to-end tests: a simulator engine on a {@link VirtualClock}, the real loopback
 * server over it, the control API, project REST clients, and a raw (optionally signed) request helper for what
 * the client refuses to send (bad input, tampered signatures, not-allowed order combinations).
 *
 * Every client made here runs on the engine's virtual clock: signatures carry the server's time, and the client's
 * throttler counts minutes of the same clock, so nothing depends on the wall clock. The budget is huge unless a
 * test asks otherwise, so the client never holds a call back by itself.
 */
import { Agent } from 'undici';
import { expect } from 'vitest';
import { type Credentials, signRequest } from '../../src/bittrex/rest/auth.js';
import { createRestClient, type RestClient, type RestClientOptions } from '../../src/bittrex/rest/client.js';
import { createThrottler } from '../../src/bittrex/rest/throttler.js';
import { type Clock, type TimerHandle, VirtualClock } from '../../src/core/clock.js';
import { ApiError } from '../../src/core/errors.js';
import { startSimServer, type SimServer, type SimServerOptions } from '../../src/server/sim-server.js';
import type { SimConfig } from '../../src/sim/config.js';
import { createSimEngine, type SimEngine } from '../../src/sim/engine.js';

/** Virtual start time: a whole minute, so per-minute call budgets are deterministic. */
export const T0 = Date.parse('2021-06-14T12:00:00.000Z');

/** A test account made through the control API, with a client acting for it. */
export interface TestAccount extends Credentials {
  accountId: string;
  client: RestClient;
}

/** What a raw request answered. `json` is the parsed body (undefined when empty or not JSON). */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // Tests read error bodies and raw answers field by field; `any` keeps that terse.
  json: any;
}

/** Options of {@link SimFixture.signed}: what to send and how to (mis)sign it. */
export interface SignedOptions {
  body?: string | Buffer | undefined;
  subaccountId?: string | undefined;
  /** Api-Timestamp; default the virtual clock's now. */
  timestamp?: number | string | undefined;
  /** Sign this URI instead of the one sent (default: exactly the target sent). */
  signUri?: string | undefined;
  /** Hash this body instead of the one sent (default: the body sent). */
  signBody?: string | undefined;
  /** Sign this method instead of the one sent. */
  signMethod?: string | undefined;
  /** Extra or replacing headers, applied after signing. */
  headers?: Record<string, string> | undefined;
}

/** One simulator with its server, clients and helpers. Create with {@link startFixture}; `close()` after. */
export class SimFixture {
  readonly engine: SimEngine;
  readonly clock: VirtualClock;
  readonly sim: SimServer;
  /** Unexpected server failures (each one answered 500): {@link close} fails the file when there are any. */
  readonly internalErrors: string[];
  readonly #agent = new Agent({ keepAliveTimeout: 10_000 });
  readonly #clients: RestClient[] = [];

  constructor(engine: SimEngine, clock: VirtualClock, sim: SimServer, internalErrors: string[]) {
    this.engine = engine;
    this.clock = clock;
    this.sim = sim;
    this.internalErrors = internalErrors;
  }

  /** `http://127.0.0.1:PORT` */
  get origin(): string {
    return this.sim.restUrl.replace(/\/v3$/, '');
  }

  /** A project REST client on the virtual clock (closed by {@link close}). */
  client(credentials?: Credentials, opts: Partial<RestClientOptions> = {}): RestClient {
    const clock = opts.clock ?? this.clock;
    const c = createRestClient({
      baseUrl: this.sim.restUrl,
      credentials,
      clock,
      throttler: createThrottler({ clock, callsPerMinute: 1_000_000_000 }),
      ...opts,
    });
    this.#clients.push(c);
    return c;
  }

  /** Create a funded master account (all scopes unless told) through POST /control/accounts. */
  async account(balances: Record<string, string> = {}, scopes?: Array<'view' | 'trade' | 'withdraw'>): Promise<TestAccount> {
    // Partners, so sub-accounts and transfers work for every test account (the rule itself: rest-partners.test.ts).
    const r = await this.control('POST', '/accounts', { balances, partner: true, ...(scopes ? { scopes } : {}) });
    expect(r.status, r.text).toBe(200);
    const { accountId, apiKey, apiSecret } = r.json as { accountId: string; apiKey: string; apiSecret: string };
    return { accountId, apiKey, apiSecret, client: this.client({ apiKey, apiSecret }) };
  }

  /** Call the control API (default with the right token). */
  async control(method: string, path: string, body?: unknown, token: string | null = this.sim.controlToken): Promise<RawAnswer> {
    const headers: Record<string, string> = {};
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return this.#send(method, `/control${path}`, headers, body === undefined ? undefined : JSON.stringify(body));
  }

  /** Advance the simulator's virtual clock through POST /control/clock/advance. */
  async advance(ms: number): Promise<void> {
    const r = await this.control('POST', '/clock/advance', { ms });
    expect(r.status, r.text).toBe(200);
  }

  /** An unsigned request to any path of the server (`/v3/...`, `/control/...`, `/elsewhere`). */
  async http(method: string, path: string, opts: { body?: string; headers?: Record<string, string> } = {}): Promise<RawAnswer> {
    return this.#send(method, path, opts.headers ?? {}, opts.body);
  }

  /** An unsigned request; `target` is below /v3 (`/markets?x=1`). */
  async raw(method: string, target: string, opts: { body?: string | Buffer; headers?: Record<string, string> } = {}): Promise<RawAnswer> {
    const headers = { ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers };
    return this.#send(method, `/v3${target}`, headers, opts.body);
  }

  /**
   * A signed request sent byte for byte as given: `target` (below /v3, query included) goes on the wire
   * unchanged and, unless `signUri` says otherwise, is exactly what is signed.
   */
  #lastTimestamp = 0;
  /**
   * The virtual clock's time, but never the same twice: the server refuses a state-changing request whose
   * (key, timestamp, signature) it has seen (a replay), and on a clock that does not move, two identical requests
   * would be exactly that. A real client's clock moves on between requests.
   */
  #freshTimestamp(): number {
    this.#lastTimestamp = Math.max(this.clock.now(), this.#lastTimestamp + 1);
    return this.#lastTimestamp;
  }

  async signed(creds: Credentials, method: string, target: string, opts: SignedOptions = {}): Promise<RawAnswer> {
    const path = `/v3${target}`;
    const body = opts.body;
    const bodyText = body === undefined ? undefined : typeof body === 'string' ? body : body.toString('utf8');
    const h = signRequest(creds, {
      method: opts.signMethod ?? method,
      uri: opts.signUri ?? `${this.origin}${path}`,
      body: opts.signBody ?? bodyText,
      timestamp: opts.timestamp ?? this.#freshTimestamp(),
      subaccountId: opts.subaccountId,
    });
    const headers: Record<string, string> = { ...h };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return this.#send(method, path, { ...headers, ...opts.headers }, body);
  }

  /** A signed POST of a JSON value. */
  async post(creds: Credentials, target: string, value: unknown, opts: SignedOptions = {}): Promise<RawAnswer> {
    return this.signed(creds, 'POST', target, { ...opts, body: JSON.stringify(value) });
  }

  async #send(method: string, path: string, headers: Record<string, string>, body: string | Buffer | undefined): Promise<RawAnswer> {
    const r = await this.#agent.request({ origin: this.origin, path, method, headers, body: body ?? null });
    const text = await r.body.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: r.statusCode, headers: r.headers, text, json };
  }

  /** Close every client, the raw agent and the server; then fail if the server hit an internal error. */
  async close(): Promise<void> {
    await Promise.all(this.#clients.map((c) => c.close()));
    await this.#agent.close();
    await this.sim.close();
    this.engine.dispose();
    expect(this.internalErrors, 'internal server errors (500)').toEqual([]);
  }
}

/** Start an engine on a virtual clock at {@link T0} and the simulator server over it. */
export async function startFixture(opts: { config?: SimConfig; server?: Partial<SimServerOptions> } = {}): Promise<SimFixture> {
  const clock = new VirtualClock(T0);
  const engine = createSimEngine({ clock, ...(opts.config ? { config: opts.config } : {}) });
  const internalErrors: string[] = [];
  const sim = await startSimServer({
    engine,
    // A 500 is always a bug: record it so the file fails, with the stack in the output.
    onInternalError: (err, where) => internalErrors.push(`${where}: ${(err as Error).stack ?? String(err)}`),
    // Tests send many bad signatures on purpose: hold repeated failures back by milliseconds, not seconds.
    authFailures: { baseDelayMs: 1, maxDelayMs: 5 },
    ...opts.server,
  });
  return new SimFixture(engine, clock, sim, internalErrors);
}

/**
 * A clock for a client whose throttler must wait (after a 429 it pauses to the next minute): reads the virtual
 * clock, and a sleep moves the virtual clock forward by itself, so waiting costs no wall time.
 */
export function selfAdvancingClock(clock: VirtualClock): Clock {
  return {
    now: () => clock.now(),
    setTimeout: (fn: () => void, ms: number): TimerHandle => clock.setTimeout(fn, ms),
    setInterval: (fn: () => void, ms: number): TimerHandle => clock.setInterval(fn, ms),
    sleep: (ms: number) => {
      const done = clock.sleep(ms);
      void clock.advance(ms);
      return done;
    },
  };
}

/** Await `p` and assert it failed with an {@link ApiError} of `status` and `code`; returns the error. */
export async function apiError(p: Promise<unknown>, status: number, code: string): Promise<ApiError> {
  const err = await p.then(
    (v) => new Error(`expected ${status} ${code}, got success: ${JSON.stringify(v)}`),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  const e = err as ApiError;
  expect({ status: e.status, code: e.code }, e.detail).toEqual({ status, code });
  return e;
}

/** Everything an account can change through REST, as plain JSON, to compare before and after a refused request. */
export async function accountState(client: RestClient): Promise<string> {
  const [balances, balSeq, open, openSeq, cond, condSeq, wds, addrs, subs, sent, closed] = await Promise.all([
    client.balances.list(),
    client.balances.sequence(),
    client.orders.listOpen(),
    client.orders.openSequence(),
    client.conditionalOrders.listOpen(),
    client.conditionalOrders.openSequence(),
    client.withdrawals.listOpen(),
    client.addresses.list(),
    client.subaccounts.list(),
    client.transfers.listSent(),
    client.orders.listClosed(),
  ]);
  return JSON.stringify({ balances, balSeq, open, openSeq, cond, condSeq, wds, addrs, subs, sent, closed });
}
