/**
 * Seeded fuzzer of the v1.1 REST surface (`/api/v1.1`), the sibling of rest-fuzz.test.ts: a few thousand mutated
 * v1.1 GETs — absurd, huge, repeated and deeply nested parameters, wrong methods and paths, broken apikey/nonce/
 * apisign — over a real loopback socket. Every answer must be what the service answered: HTTP 200 with a
 * `{success, message, result}` wrapper whose failure message is a known v1.1 code (404/405 for what its
 * infrastructure refused), never a 5xx or a hang. Interleaved valid v1.1 placements by another account survive
 * unchanged, the fuzz account holds only orders a successful request created, and the ledger balances.
 *
 * A failure names its seed; `REXBOT_FUZZ_SEED=<seed> npx vitest run test/server/v1-rest-fuzz.test.ts` replays it.
 */
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hmacSha512Hex } from '../../src/bittrex/rest/auth.js';
import { createV1RestClient, type V1RestClient } from '../../src/bittrex/v1/rest/index.js';
import { dec } from '../../src/core/decimal.js';
import type { Order } from '../../src/model/order.js';
import { createV1Routes } from '../../src/server/v1/v1-rest-handler.js';
import { isThrottledMessage, V1_MESSAGE_CODES } from '../../src/wire/v1/message-codes.js';
import { fuzzSeed, seeded } from './fuzz/fuzz-rand.js';
import { v1FuzzRequest, type V1FuzzRequest, type V1FuzzWorld } from './fuzz/v1-rest-fuzz-gen.js';
import { type SimFixture, startFixture, type TestAccount } from './sim-fixture.js';

const SEED = fuzzSeed(0x5eed_0b11);
const REQUESTS = 2_000;
const KEEPER_EVERY = 40;
const MAX_HEADER_BYTES = 16 * 1024;
const AUTH_CODES = ['NONCE_NOT_PROVIDED', 'APIKEY_NOT_PROVIDED', 'APISIGN_NOT_PROVIDED', 'APIKEY_INVALID', 'INVALID_SIGNATURE'];
const KNOWN = new Set<string>([...V1_MESSAGE_CODES, 'NOT_FOUND', 'NOT_ALLOWED']);

interface Answer {
  status: number;
  text: string;
}

describe(`v1.1 REST fuzz (seed ${SEED})`, () => {
  let fx: SimFixture;
  let fuzz: TestAccount;
  let keeper: TestAccount;
  let keeperV1: V1RestClient;
  let paths: Set<string>;
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 4 });

  beforeAll(async () => {
    fx = await startFixture();
    fuzz = await fx.account({ USD: '1000000', BTC: '10' });
    keeper = await fx.account({ USD: '1000000' });
    keeperV1 = createV1RestClient({ baseUrl: `${fx.origin}/api/v1.1`, credentials: keeper, clock: fx.clock });
    paths = new Set(createV1Routes(fx.engine).keys());
  });
  afterAll(async () => {
    await keeperV1?.close();
    await agent.close();
    await fx?.close();
  });

  let nonce = 1;
  /** The target sent, and whether its authentication is intact. */
  function build(req: V1FuzzRequest): { target: string; headers: Record<string, string>; intact: boolean } {
    let query = req.query;
    const headers: Record<string, string> = {};
    let intact = req.signed;
    if (req.signed) {
      const parts = [query, req.postSign.omit === 'apikey' ? '' : `apikey=${req.foreignKey ?? fuzz.apiKey}`, req.postSign.omit === 'nonce' ? '' : `nonce=${nonce++}`];
      query = parts.filter(Boolean).join('&');
      const sign = hmacSha512Hex(fuzz.apiSecret, `${fx.origin}${req.path}?${query}`);
      headers.apisign = req.postSign.upperSign ? sign.toUpperCase() : sign;
      if (req.postSign.apisign !== undefined) {
        intact = false;
        if (req.postSign.apisign === null) delete headers.apisign;
        else headers.apisign = req.postSign.apisign;
      }
      if (req.postSign.omit || req.foreignKey) intact = false;
    }
    if (req.postSign.appendQuery) {
      query += req.postSign.appendQuery;
      intact = false;
    }
    return { target: query ? `${req.path}?${query}` : req.path, headers, intact };
  }

  function expectation(req: V1FuzzRequest, target: string, intact: boolean): { statuses: number[]; codes?: string[]; v3Body?: boolean } {
    if (target.length + 1_000 > MAX_HEADER_BYTES) return { statuses: target.length > MAX_HEADER_BYTES ? [431] : [431, 200, 404, 405], v3Body: true };
    const lower = req.path.toLowerCase();
    if (!lower.startsWith('/api/v1.1/') && lower !== '/api/v1.1') return { statuses: [404], v3Body: true };
    const route = lower.slice('/api/v1.1'.length).replace(/\/+$/, '') || '/';
    if (!paths.has(route)) return { statuses: [404], codes: ['NOT_FOUND'] };
    if (req.method !== 'GET') return { statuses: [405], codes: ['NOT_ALLOWED'] };
    if (!route.startsWith('/public/') && !intact) return { statuses: [200], codes: AUTH_CODES };
    return { statuses: [200] };
  }

  const created = new Set<string>();

  function check(req: V1FuzzRequest, target: string, intact: boolean, a: Answer): string[] {
    const exp = expectation(req, target, intact);
    const problems: string[] = [];
    if (!exp.statuses.includes(a.status)) problems.push(`status ${a.status}, expected one of ${exp.statuses.join(',')}`);
    if (req.method === 'HEAD' || exp.v3Body) return problems;
    let body: { success?: unknown; message?: unknown; result?: unknown };
    try {
      body = JSON.parse(a.text) as typeof body;
    } catch {
      return [...problems, `body is not JSON: ${JSON.stringify(a.text.slice(0, 120))}`];
    }
    if (typeof body.success !== 'boolean' || typeof body.message !== 'string' || !('result' in body)) return [...problems, 'not a v1.1 wrapper'];
    if (body.success) {
      if (exp.codes) problems.push(`succeeded, expected ${exp.codes.join('|')}`);
      const uuid = (body.result as { uuid?: string } | null)?.uuid;
      if (uuid && /\/market\/(buy|sell)limit$/i.test(req.path.replace(/\/+$/, ''))) created.add(uuid);
      return problems;
    }
    if (body.result !== null) problems.push('failure with a result');
    if (!KNOWN.has(body.message) && !isThrottledMessage(body.message)) problems.push(`unknown message ${body.message}`);
    if (exp.codes && !exp.codes.includes(body.message)) problems.push(`message ${body.message}, expected ${exp.codes.join('|')}`);
    return problems;
  }

  it(`answers ${REQUESTS} mutated v1.1 requests as the service did, and loses nothing accepted`, async () => {
    const rand = seeded(SEED);
    const placed: { id: string; order: Order }[] = [];
    const world: V1FuzzWorld = { keeperOrderIds: [], keeperApiKey: keeper.apiKey };
    const failures: string[] = [];
    const histogram = new Map<string, number>();
    for (let i = 0; i < REQUESTS; i++) {
      if (i % KEEPER_EVERY === 0) {
        const k = placed.length;
        const { uuid } = await keeperV1.market.buyLimit({ market: 'USD-BTC', quantity: dec(`0.0${1 + (k % 9)}`), rate: dec(String(19_000 + k)) });
        placed.push({ id: uuid, order: fx.engine.getOrder(keeper.accountId, uuid) });
        (world.keeperOrderIds as string[]).push(uuid);
      }
      const req = v1FuzzRequest(rand, world);
      const { target, headers, intact } = build(req);
      const where = `seed ${SEED} #${i}: ${req.mutations.join(' | ')}${req.signed ? ' [signed]' : ''}`;
      let a: Answer;
      try {
        const r = await agent.request({ origin: fx.origin, path: target, method: req.method, headers, headersTimeout: 10_000, bodyTimeout: 10_000 });
        a = { status: r.statusCode, text: await r.body.text() };
      } catch (err) {
        failures.push(`${where}: no answer: ${(err as Error).message}`);
        continue;
      }
      const problems = check(req, target, intact, a);
      if (problems.length > 0) failures.push(`${where}: ${problems.join('; ')} — ${a.status} ${a.text.slice(0, 200)}`);
      const key = `${a.status} ${/"message":"(\w+)"/.exec(a.text)?.[1] ?? (/"success":true/.test(a.text) ? 'ok' : '')}`.trim();
      histogram.set(key, (histogram.get(key) ?? 0) + 1);
      if (failures.length >= 20) break;
    }
    expect(failures, `${failures.length} bad answers`).toEqual([]);
    expect(fx.internalErrors, `seed ${SEED}: internal errors`).toEqual([]);
    const seen = new Set([...histogram.keys()]);
    for (const k of ['200 ok', '200 INVALID_MARKET', '200 INVALID_SIGNATURE', '200 QUANTITY_INVALID', '404 NOT_FOUND', '405 NOT_ALLOWED']) {
      expect(seen, `seed ${SEED}: never answered ${k}`).toContain(k);
    }

    for (const p of placed) expect(fx.engine.getOrder(keeper.accountId, p.id), `seed ${SEED}: keeper order ${p.id}`).toEqual(p.order);
    expect(fx.engine.openOrders(keeper.accountId).data.map((o) => o.id).sort()).toEqual(placed.map((p) => p.id).sort());
    const ids = fx.engine.openOrders(fuzz.accountId).data.map((o) => o.id);
    let page = fx.engine.closedOrders(fuzz.accountId, { pageSize: 200 });
    while (page.length > 0) {
      ids.push(...page.map((o) => o.id));
      page = fx.engine.closedOrders(fuzz.accountId, { pageSize: 200, nextPageToken: page[page.length - 1]!.id });
    }
    expect(ids.filter((id) => !created.has(id)), `seed ${SEED}: orders no successful request created`).toEqual([]);
    const audit = await fx.control('GET', '/audit');
    expect(audit.json.filter((x: { discrepancy: string }) => Number(x.discrepancy) !== 0), `seed ${SEED}: ledger audit`).toEqual([]);
    console.log(`v1-rest-fuzz seed ${SEED}: ${[...histogram].sort().map(([k, v]) => `${k}×${v}`).join(', ')}`);
  });
});
