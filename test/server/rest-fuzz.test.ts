/**
 * Seeded REST fuzzer (project rule: bad input gets a clear error that says what and where, and nothing already
 * accepted is lost). A few thousand requests made by mutating valid v3 requests — methods, paths, queries, bodies,
 * Api-* headers, unsigned and correctly signed — go over a real loopback socket to the simulator. Every answer
 * must be one the route can give: never a 5xx, never a hang, every error a JSON `{code, detail, data?}` with a
 * known code. Interleaved valid placements by another account must all survive with their exact fields, the fuzz
 * account may hold only orders a successful request created, and the ledger audit must balance.
 *
 * A failure names its seed; `REXBOT_FUZZ_SEED=<seed> npx vitest run test/server/rest-fuzz.test.ts` replays it.
 */
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHash, hmacSha512Hex, signaturePreimage } from '../../src/bittrex/rest/auth.js';
import { dec } from '../../src/core/decimal.js';
import { ERROR_CODES } from '../../src/model/error-codes.js';
import { MAX_BODY_BYTES } from '../../src/server/rest/body.js';
import type { RouteDef } from '../../src/server/rest/rest-handler.js';
import { Router } from '../../src/server/rest/router.js';
import { addAccountRoutes } from '../../src/server/rest/routes/account-routes.js';
import { addMarketRoutes } from '../../src/server/rest/routes/market-routes.js';
import { addOrderRoutes } from '../../src/server/rest/routes/order-routes.js';
import { fuzzSeed, seeded, uuid } from './fuzz/fuzz-rand.js';
import { type FuzzRequest, type FuzzWorld, fuzzRequest } from './fuzz/rest-fuzz-gen.js';
import { type SimFixture, startFixture, type TestAccount } from './sim-fixture.js';

const SEED = fuzzSeed(0x5eed_4e57);
const REQUESTS = 2_500;
/** Every this many fuzzed requests, the keeper account places one valid order. */
const KEEPER_EVERY = 40;
/** Methods Node's HTTP parser knows; anything else is refused before routing. */
const PARSER_METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'PROPFIND']);
/** Node's default limit on the request line plus headers. */
const MAX_HEADER_BYTES = 16 * 1024;
const AUTH_CODES = ['APIKEY_INVALID', 'INVALID_TIMESTAMP', 'INVALID_SIGNATURE'];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

describe(`REST fuzz (seed ${SEED})`, () => {
  let fx: SimFixture;
  let fuzz: TestAccount;
  let keeper: TestAccount;
  let fuzzSub: string;
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 4 });
  const router = new Router<RouteDef>();

  beforeAll(async () => {
    fx = await startFixture();
    fuzz = await fx.account({ USD: '1000000' });
    keeper = await fx.account({ USD: '1000000' });
    fuzzSub = (await fuzz.client.subaccounts.create()).id;
    addMarketRoutes(router, fx.engine);
    addAccountRoutes(router, fx.engine);
    addOrderRoutes(router, fx.engine);
  });
  afterAll(async () => {
    await agent.close();
    await fx.close();
  });

  /** Whether the Api-* headers sent still authenticate (an edit may happen to repeat the right value). */
  const authIntact = new WeakMap<FuzzRequest, boolean>();

  let lastTs = 0;
  async function send(req: FuzzRequest): Promise<Answer> {
    const target = req.query ? `${req.path}?${req.query}` : req.path;
    const headers: Record<string, string> = {};
    if (req.signed) {
      // Never the same timestamp twice on the still virtual clock: an identical signed POST would be a replay.
      lastTs = Math.max(fx.clock.now(), lastTs + 1);
      const ts = String(lastTs);
      const hash = contentHash(req.body);
      headers['Api-Key'] = fuzz.apiKey;
      headers['Api-Timestamp'] = ts;
      headers['Api-Content-Hash'] = hash;
      headers['Api-Signature'] = hmacSha512Hex(fuzz.apiSecret, signaturePreimage(ts, `${fx.origin}${target}`, req.method, hash, req.subaccountId));
      if (req.subaccountId !== undefined) headers['Api-Subaccount-Id'] = req.subaccountId;
    }
    let intact = req.signed;
    for (const [name, value] of Object.entries(req.headerEdits)) {
      const before = headers[name];
      const same = value === 'UPPER' || (value !== null && before !== undefined && (name === 'Api-Key' || name === 'Api-Timestamp' ? value === before : value.toLowerCase() === before.toLowerCase()));
      if (name.startsWith('Api-') && !same) intact = false;
      if (value === null) delete headers[name];
      else headers[name] = value === 'UPPER' ? (headers[name] ?? '').toUpperCase() : value;
    }
    authIntact.set(req, intact);
    if (req.body !== undefined && req.contentType !== null) headers['Content-Type'] = req.contentType;
    const r = await agent.request({
      origin: fx.origin,
      path: target,
      method: req.method,
      headers,
      body: req.body ?? null,
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    const text = await r.body.text();
    return { status: r.statusCode, headers: r.headers, text };
  }

  /** The statuses the server may answer `req` with, and the codes when they are fixed. */
  function expectation(req: FuzzRequest): { statuses: number[]; codes?: string[] } {
    const target = req.query ? `${req.path}?${req.query}` : req.path;
    if (!PARSER_METHODS.has(req.method)) return { statuses: [400], codes: ['BAD_REQUEST'] };
    if (target.length + 1_000 > MAX_HEADER_BYTES) {
      return target.length > MAX_HEADER_BYTES ? { statuses: [431], codes: ['BAD_REQUEST'] } : { statuses: [431, 400, 401, 403, 404, 405, 413, 200, 201, 409] };
    }
    if (req.path !== '/v3' && !req.path.startsWith('/v3/')) return { statuses: [404], codes: ['NOT_FOUND'] };
    const m = router.match(req.method, req.path.slice(3) || '/');
    if (m.kind === 'not-found') return { statuses: [404], codes: ['NOT_FOUND'] };
    if (m.kind === 'method-not-allowed') return { statuses: [405], codes: ['NOT_ALLOWED'] };
    const size = req.body === undefined ? 0 : Buffer.byteLength(req.body);
    if (size > MAX_BODY_BYTES) return { statuses: [413], codes: ['PAYLOAD_TOO_LARGE'] };
    if (m.handler.auth !== 'public') {
      if (!authIntact.get(req)) return { statuses: [401], codes: AUTH_CODES };
      if (req.subaccountId !== undefined && req.subaccountId !== fuzzSub) return { statuses: [403], codes: ['FORBIDDEN'] };
      return { statuses: req.method === 'HEAD' ? [200] : [200, 201, 400, 403, 404, 409] };
    }
    return { statuses: [200, 400, 404] };
  }

  /** Ids of what successful fuzzed requests created (orders, conditional orders), by anyone's account. */
  const created = { orders: new Set<string>(), conditional: new Set<string>() };
  function noteCreated(req: FuzzRequest, a: Answer): void {
    const resource = req.path.split('/').filter(Boolean).slice(1).join('/');
    if (req.method !== 'POST' || a.status >= 300) return;
    const body = JSON.parse(a.text) as { id?: string } | Array<{ status: number; payload: { id?: string } }>;
    if (resource === 'orders' && !Array.isArray(body) && body.id) created.orders.add(body.id);
    if (resource === 'conditional-orders' && !Array.isArray(body) && body.id) created.conditional.add(body.id);
    if (resource === 'batch' && Array.isArray(body)) for (const item of body) if (item.status === 201 && item.payload.id) created.orders.add(item.payload.id);
  }

  /** Problems with one answer (empty when it is one the route can give). */
  function check(req: FuzzRequest, a: Answer): string[] {
    const problems: string[] = [];
    const exp = expectation(req);
    if (!exp.statuses.includes(a.status)) problems.push(`status ${a.status}, expected one of ${exp.statuses.join(',')}`);
    if (a.status < 400 || req.method === 'HEAD') return problems;
    let json: unknown;
    try {
      json = JSON.parse(a.text);
    } catch {
      return [...problems, `error body is not JSON: ${JSON.stringify(a.text.slice(0, 120))}`];
    }
    const body = json as { code?: unknown; detail?: unknown; data?: unknown };
    if (typeof body !== 'object' || body === null || typeof body.code !== 'string') return [...problems, 'error body has no string code'];
    if (!(ERROR_CODES as readonly string[]).includes(body.code)) problems.push(`unknown code ${body.code}`);
    if (exp.codes && !exp.codes.includes(body.code)) problems.push(`code ${body.code}, expected ${exp.codes.join('|')}`);
    if (typeof body.detail !== 'string' || body.detail.trim() === '') problems.push('error has no detail saying what is wrong');
    if (body.data !== undefined && (typeof body.data !== 'object' || body.data === null || Array.isArray(body.data))) problems.push('data is not an object');
    if (a.status === 405 && typeof a.headers.allow !== 'string') problems.push('405 without Allow');
    return problems;
  }

  it(`answers ${REQUESTS} mutated requests with a well-formed refusal (or success), and loses nothing accepted`, async () => {
    const rand = seeded(SEED);
    const keeperRand = seeded(SEED ^ 0x6b656570);
    const world: FuzzWorld = { keeperOrderIds: [], keeperClientOrderIds: [], keeperAccountId: keeper.accountId, keeperApiKey: keeper.apiKey, fuzzSubaccountId: fuzzSub, fuzzClientOrderId: uuid(seeded(SEED ^ 0xc01d)) };
    const placed: Array<{ id: string; json: unknown }> = [];
    const failures: string[] = [];
    const histogram = new Map<string, number>();

    for (let i = 0; i < REQUESTS; i++) {
      if (i % KEEPER_EVERY === 0) {
        const k = placed.length;
        const clientOrderId = uuid(keeperRand);
        const order = { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: `0.0${1 + (k % 9)}`, limit: String(19_000 + k), clientOrderId };
        const r = await fx.post(keeper, '/orders', order);
        expect(r.status, `seed ${SEED}: keeper placement ${k}: ${r.text}`).toBe(201);
        placed.push({ id: r.json.id as string, json: r.json });
        (world.keeperOrderIds as string[]).push(r.json.id as string);
        (world.keeperClientOrderIds as string[]).push(clientOrderId);
      }
      const req = fuzzRequest(rand, world, fx.clock.now());
      const where = `seed ${SEED} #${i}: ${req.mutations.join(' | ')}${req.signed ? ' [signed]' : ''}`;
      let a: Answer;
      try {
        a = await send(req);
      } catch (err) {
        failures.push(`${where}: no answer: ${(err as Error).message}`);
        continue;
      }
      const problems = check(req, a);
      if (problems.length > 0) failures.push(`${where}: ${problems.join('; ')} — ${a.status} ${a.text.slice(0, 200)}`);
      else noteCreated(req, a);
      const key = `${a.status} ${/"code":"(\w+)"/.exec(a.text)?.[1] ?? ''}`.trim();
      histogram.set(key, (histogram.get(key) ?? 0) + 1);
      if (failures.length >= 20) break;
    }
    expect(failures, `${failures.length} bad answers`).toEqual([]);
    expect(fx.internalErrors, `seed ${SEED}: internal errors`).toEqual([]);
    // Every kind of refusal was exercised, not just 404s.
    const statuses = new Set([...histogram.keys()].map((k) => Number(k.split(' ')[0])));
    for (const s of [200, 201, 400, 401, 403, 404, 405, 409, 413, 431]) expect(statuses, `seed ${SEED}: no ${s} seen`).toContain(s);

    // Everything the keeper placed is there, unchanged, and nothing else is.
    for (const p of placed) {
      const r = await fx.signed(keeper, 'GET', `/orders/${p.id}`);
      expect(r.json, `seed ${SEED}: keeper order ${p.id}`).toEqual(p.json);
    }
    const keeperOpen = fx.engine.openOrders(keeper.accountId).data.map((o) => o.id).sort();
    expect(keeperOpen, `seed ${SEED}: keeper's open orders`).toEqual(placed.map((p) => p.id).sort());
    expect(fx.engine.closedOrders(keeper.accountId, { pageSize: 200 }), `seed ${SEED}: keeper's closed orders`).toEqual([]);

    // The fuzz account and its sub-account hold only orders that a successful request created.
    for (const accountId of [fuzz.accountId, fuzzSub]) {
      const ids = fx.engine.openOrders(accountId).data.map((o) => o.id);
      let page = fx.engine.closedOrders(accountId, { pageSize: 200 });
      while (page.length > 0) {
        ids.push(...page.map((o) => o.id));
        page = fx.engine.closedOrders(accountId, { pageSize: 200, nextPageToken: page[page.length - 1]!.id });
      }
      expect(ids.filter((id) => !created.orders.has(id)), `seed ${SEED}: orders no successful request created`).toEqual([]);
      const cond = [...fx.engine.openConditionalOrders(accountId).data, ...fx.engine.closedConditionalOrders(accountId, { pageSize: 200 })];
      expect(cond.map((c) => c.id).filter((id) => !created.conditional.has(id)), `seed ${SEED}: conditional orders`).toEqual([]);
    }

    // The server still answers valid signed requests correctly, and the ledger balances.
    const balances = await keeper.client.balances.list();
    expect(balances.data.find((b) => b.currencySymbol === 'USD')?.total.toFixed(), `seed ${SEED}: keeper USD total`).toBe('1000000');
    const again = await keeper.client.orders.create({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('18000') });
    expect((await keeper.client.orders.get(again.id)).status).toBe('OPEN');
    const audit = await fx.control('GET', '/audit');
    expect(audit.json.filter((x: { discrepancy: string }) => Number(x.discrepancy) !== 0), `seed ${SEED}: ledger audit`).toEqual([]);
    console.log(`rest-fuzz seed ${SEED}: ${[...histogram].sort().map(([k, v]) => `${k}×${v}`).join(', ')}`);
  });
});
