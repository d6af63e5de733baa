/**
 * Seeded hub fuzzer, both wire flavours of the simulator's hub. A properly connected client sends malformed frames
 * — invalid JSON, wrong shapes of H/M/A/I (classic) and type/target/arguments/invocationId (Core), unknown hubs and
 * methods, garbage channel names, garbage Authenticate arguments, missing record separators, oversized frames —
 * each followed by a barrier call. Every frame must get the protocol's error shape (classic `{"I","E"}` or `{"E"}`,
 * a Core Completion with `error`), its SocketResponses, nothing where the protocol answers nothing, or the close of
 * that one connection (a Core Close record saying why where the protocol has one). Meanwhile two well-behaved
 * clients, one per flavour, stay subscribed to a busy order book and their own order stream: they must receive
 * every message in sequence. Afterwards a new client of each flavour connects, authenticates and subscribes.
 *
 * A failure names its seed; `REXBOT_FUZZ_SEED=<seed> npx vitest run test/server/hub-fuzz.test.ts` replays it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePayload } from '../../src/bittrex/hub/codec.js';
import { dec } from '../../src/core/decimal.js';
import { DEEP, type Frame, HUGE_NUMBERS, classicFrame, coreFrame } from './fuzz/hub-fuzz-gen.js';
import { fuzzSeed, seeded } from './fuzz/fuzz-rand.js';
import { RawClassicClient, RawCoreClient, authArgs } from './hub/hub-test-kit.js';
import { type SimFixture, startFixture, type TestAccount } from './sim-fixture.js';

const SEED = fuzzSeed(0x40bf_022a);
const FRAMES = 400;
const BOOK = 'orderbook_BTC-USD_25';
const CHANNELS = ['heartbeat', 'order', BOOK];
const OK = { Success: true, ErrorCode: null };
const REFUSALS = ['INVALID_CHANNEL', 'MARKET_DOES_NOT_EXIST', 'MARKET_NAME_REVERSED', 'UNAUTHORIZED_USER'];
const AUTH_REFUSALS = ['INVALID_APIKEY', 'INVALID_TIMESTAMP', 'INVALID_SIGNATURE', 'THROTTLED'];

/** `p`, or a failure naming the seed when nothing comes (a hang) — never a timing assertion. */
function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_r, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within 10 s`)), 10_000);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

type Rec = Record<string, unknown>;

/** Problems with the frames a fuzzed frame got back (empty when they are what the protocol answers). */
function judge(f: Frame, replies: Rec[], flavour: 'classic' | 'core'): string[] {
  const e = f.expect;
  if (e.kind === 'silent') return replies.length === 0 ? [] : [`expected no answer, got ${JSON.stringify(replies).slice(0, 200)}`];
  if (replies.length !== 1) return [`expected one answer, got ${replies.length}: ${JSON.stringify(replies).slice(0, 200)}`];
  const r = replies[0]!;
  const error = flavour === 'classic' ? r.E : r.error;
  const result = flavour === 'classic' ? r.R : r.result;
  if (e.kind === 'error-no-id') {
    return Object.keys(r).join() === 'E' && typeof r.E === 'string' && r.E !== '' ? [] : [`expected {"E": reason}, got ${JSON.stringify(r)}`];
  }
  if (e.kind !== 'reply') return [`unexpected answer ${JSON.stringify(r)}`];
  const id = flavour === 'classic' ? r.I : r.invocationId;
  if (id !== e.id || (flavour === 'core' && r.type !== 3)) return [`answer not addressed to ${e.id}: ${JSON.stringify(r).slice(0, 200)}`];
  if ((error === undefined) === (result === undefined)) return [`expected exactly one of result and error: ${JSON.stringify(r).slice(0, 200)}`];
  if (error !== undefined && (typeof error !== 'string' || error === '')) return [`error is not a reason: ${JSON.stringify(r)}`];
  if (e.result === 'subscribe') {
    const list = result as Rec[] | undefined;
    if (!Array.isArray(list) || list.length !== e.channels) return [`expected ${e.channels} SocketResponses, got ${JSON.stringify(r).slice(0, 200)}`];
    const bad = list.filter((x) => !(x.Success === true && x.ErrorCode === null) && !(x.Success === false && REFUSALS.includes(x.ErrorCode as string)));
    return bad.length === 0 ? [] : [`malformed SocketResponses ${JSON.stringify(bad.slice(0, 3))}`];
  }
  if (e.result === 'auth') {
    const res = result as Rec | undefined;
    return res?.Success === false && AUTH_REFUSALS.includes(res.ErrorCode as string) ? [] : [`garbage Authenticate answered ${JSON.stringify(r)}`];
  }
  return [];
}

describe(`hub fuzz (seed ${SEED})`, () => {
  let fx: SimFixture;
  let maker: TestAccount;
  const clients: Array<{ close(): void }> = [];
  const open: string[] = [];
  const placed: string[] = [];
  let bookSeq0 = 0;
  let churns = 0;

  const key = () => ({ apiKey: maker.apiKey, secret: maker.apiSecret });
  async function classic(): Promise<RawClassicClient> {
    const c = new RawClassicClient(fx.sim.hubUrl);
    clients.push(c);
    await c.open();
    return c;
  }
  async function core(): Promise<RawCoreClient> {
    const c = new RawCoreClient(fx.sim.coreHubUrl);
    clients.push(c);
    await c.open();
    return c;
  }

  /** Move the busy streams: a resting order placed, or the oldest cancelled (book delta + order message each). */
  function churn(): void {
    const k = churns++;
    if (open.length >= 20 && k % 3 === 0) {
      fx.engine.cancelOrder(maker.accountId, open.shift()!);
      return;
    }
    const o = fx.engine.placeOrder(maker.accountId, { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec(String(20_000 + (k % 40))) });
    open.push(o.id);
    placed.push(o.id);
  }

  let watchClassic: RawClassicClient;
  let watchCore: RawCoreClient;

  beforeAll(async () => {
    fx = await startFixture();
    maker = await fx.account({ USD: '10000000' });
    bookSeq0 = Number((await fx.raw('GET', '/markets/BTC-USD/orderbook?depth=25')).headers.sequence);
    watchClassic = await classic();
    expect((await watchClassic.invoke('Authenticate', authArgs(key(), Date.now()))).R).toEqual(OK);
    expect(await watchClassic.subscribe(...CHANNELS)).toEqual([OK, OK, OK]);
    watchCore = await core();
    expect((await watchCore.invoke('Authenticate', authArgs(key(), Date.now()))).result).toEqual(OK);
    expect((await watchCore.invoke('Subscribe', [CHANNELS])).result).toEqual([OK, OK, OK]);
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await fx?.close();
  });

  it(`classic: ${FRAMES} malformed frames get error replies or close only that connection`, async () => {
    const rand = seeded(SEED);
    let c = await classic();
    const failures: string[] = [];
    for (let i = 0; i < FRAMES && failures.length < 10; i++) {
      const f = classicFrame(rand, i, maker.apiKey, Date.now());
      const where = `seed ${SEED} classic #${i} ${f.what}`;
      const before = c.frames.all.length;
      for (const m of f.messages) c.ws.send(m);
      if (f.expect.kind === 'close') {
        const code = await within(c.closed, where);
        if (code !== 1009) failures.push(`${where}: closed with ${code}, expected 1009 (message too big)`);
        c = await classic();
      } else {
        const barrier = `barrier-${i}`;
        c.ws.send(JSON.stringify({ H: 'c3', M: 'IsAuthenticated', A: [], I: barrier }));
        const b = await within(c.frames.next((x) => x.I === barrier), where);
        if (b.R !== false) failures.push(`${where}: garbage authenticated the connection: ${JSON.stringify(b)}`);
        const replies = c.frames.all.slice(before).filter((x) => x.I !== barrier && !Array.isArray(x.M) && Object.keys(x).length > 0);
        for (const p of judge(f, replies, 'classic')) failures.push(`${where}: ${p}`);
      }
      churn();
    }
    expect(failures).toEqual([]);
  });

  it(`Core: ${FRAMES} malformed records get Completion errors, nothing, or a Close of only that connection`, async () => {
    const rand = seeded(SEED ^ 0xc0de);
    let c = await core();
    const failures: string[] = [];
    for (let i = 0; i < FRAMES && failures.length < 10; i++) {
      const f = coreFrame(rand, i, maker.apiKey, Date.now());
      const where = `seed ${SEED} core #${i} ${f.what}`;
      const before = c.records.all.length;
      for (const m of f.messages) c.ws.send(m);
      const barrier = `barrier-${i}`;
      c.ws.send(JSON.stringify({ type: 1, invocationId: barrier, target: 'IsAuthenticated', arguments: [] }) + '\x1e');
      if (f.expect.kind === 'close') {
        await within(c.closed, where);
        const closeRecord = c.records.all.slice(before).find((x) => x.type === 7);
        if (f.expect.closeRecord && !(typeof closeRecord?.error === 'string' && closeRecord.error !== '')) failures.push(`${where}: closed without a Close record saying why`);
        c = await core();
      } else {
        const b = await within(c.records.next((x) => x.invocationId === barrier), where);
        if (b.result !== false) failures.push(`${where}: garbage authenticated the connection: ${JSON.stringify(b)}`);
        const replies = c.records.all.slice(before).filter((x) => x.invocationId !== barrier && x.type !== 1 && x.type !== 6);
        for (const p of judge(f, replies, 'core')) failures.push(`${where}: ${p}`);
      }
      churn();
    }
    expect(failures).toEqual([]);
  });

  it('Core handshakes with deep nesting, huge numbers or long strings are refused, closing only that connection', async () => {
    const hostile = [DEEP, ...HUGE_NUMBERS, JSON.stringify('x'.repeat(60_000)), `{"x":${DEEP}}`];
    const failures: string[] = [];
    for (const [i, v] of hostile.entries()) {
      for (const field of ['version', 'protocol']) {
        const body = field === 'version' ? `{"protocol":"json","version":${v}}` : `{"protocol":${v},"version":1}`;
        const c = new RawCoreClient(fx.sim.coreHubUrl);
        clients.push(c);
        const where = `handshake #${i} ${field}=${v.slice(0, 20)}`;
        const reply = await within(c.open(`${body}\x1e`), where);
        if (typeof reply.error !== 'string' || reply.error === '') failures.push(`${where}: no handshake error: ${JSON.stringify(reply).slice(0, 200)}`);
        await within(c.closed, where);
      }
    }
    expect(failures).toEqual([]);
    expect(fx.internalErrors).toEqual([]);
  });

  it('the well-behaved clients received every book and order message in sequence', async () => {
    await watchClassic.barrier();
    await watchCore.barrier();
    const snapshot = Number((await fx.raw('GET', '/markets/BTC-USD/orderbook?depth=25')).headers.sequence);
    expect(snapshot - bookSeq0, `seed ${SEED}: the book moved`).toBeGreaterThan(100);
    const expected = Array.from({ length: snapshot - bookSeq0 }, (_v, i) => bookSeq0 + 1 + i);
    // Heartbeats carry no payload; a run longer than the 5 s heartbeat period gets some (slow or shared machines).
    const classicMsgs = watchClassic.pushes().filter((p) => p.A.length > 0).map((p) => ({ name: p.M, body: decodePayload(p.A[0] as string) as Rec }));
    const coreMsgs = watchCore.pushes().filter((p) => p.arguments.length > 0).map((p) => ({ name: p.target, body: decodePayload(p.arguments[0] as string) as Rec }));
    for (const [flavour, msgs] of [['classic', classicMsgs], ['core', coreMsgs]] as const) {
      const book = msgs.filter((m) => m.name === 'orderBook').map((m) => m.body.sequence);
      expect(book, `seed ${SEED}: ${flavour} order book sequences`).toEqual(expected);
      const orders = msgs.filter((m) => m.name === 'order').map((m) => m.body);
      const seqs = orders.map((o) => o.sequence as number);
      expect(seqs.every((s, i) => i === 0 || s > seqs[i - 1]!), `seed ${SEED}: ${flavour} order sequences increase`).toBe(true);
      expect(new Set(orders.map((o) => (o.delta as Rec).id)), `seed ${SEED}: ${flavour} saw every order`).toEqual(new Set(placed));
    }
  });

  it('after the run a new client of each flavour connects, authenticates, subscribes and receives', async () => {
    const a = await classic();
    expect((await a.invoke('Authenticate', authArgs(key(), Date.now()))).R).toEqual(OK);
    expect(await a.subscribe(...CHANNELS)).toEqual([OK, OK, OK]);
    const b = await core();
    expect((await b.invoke('Authenticate', authArgs(key(), Date.now()))).result).toEqual(OK);
    expect((await b.invoke('Subscribe', [CHANNELS])).result).toEqual([OK, OK, OK]);
    // Above every resting bid, so the depth-25 book moves for sure.
    placed.push(fx.engine.placeOrder(maker.accountId, { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('20100') }).id);
    const next = Number((await fx.raw('GET', '/markets/BTC-USD/orderbook?depth=25')).headers.sequence);
    const isBook = (name: unknown, args: unknown): boolean => name === 'orderBook' && (decodePayload((args as string[])[0]!) as Rec).sequence === next;
    await within(a.frames.next((f) => Array.isArray(f.M) && (f.M as Rec[]).some((m) => isBook(m.M, m.A))), `seed ${SEED}: new classic client`);
    await within(b.records.next((r) => r.type === 1 && isBook(r.target, r.arguments)), `seed ${SEED}: new Core client`);
  });
});
