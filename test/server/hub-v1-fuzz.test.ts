/**
 * Seeded fuzzer of the simulator's v1.1 hub `c2`. A properly connected raw client sends malformed frames and
 * garbage calls of the seven methods (deep nesting, huge numbers, long strings, unknown markets and methods, wrong
 * argument counts), each followed by a barrier call; every frame must get the protocol's answer (an error reply,
 * a boolean, a challenge, a compressed state) or close only its connection when oversized. Meanwhile rexbot's
 * V1BookSync follows USD-BTC on its own connection while the book moves: it must never have to resynchronize and
 * must end equal to the engine. Nothing a garbage call did may authenticate a connection.
 *
 * `REXBOT_FUZZ_SEED=<seed> npx vitest run test/server/hub-v1-fuzz.test.ts` replays a failure.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { V1BookSync } from '../../src/bittrex/v1/hub/v1-book-sync.js';
import { V1HubClient } from '../../src/bittrex/v1/hub/v1-hub-client.js';
import { dec } from '../../src/core/decimal.js';
import { decodeV1Payload } from '../../src/wire/v1/hub/protocol.js';
import { fuzzSeed, seeded } from './fuzz/fuzz-rand.js';
import { type V1Frame, v1Frame } from './fuzz/hub-v1-fuzz-gen.js';
import { RawClassicClient } from './hub/hub-test-kit.js';
import { type SimFixture, startFixture, type TestAccount } from './sim-fixture.js';

const SEED = fuzzSeed(0x0c2f_0022);
const FRAMES = 300;

type Rec = Record<string, unknown>;

function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_r, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within 10 s`)), 10_000);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

function judge(f: V1Frame, replies: Rec[]): string[] {
  const e = f.expect;
  if (replies.length !== 1) return [`expected one answer, got ${replies.length}: ${JSON.stringify(replies).slice(0, 200)}`];
  const r = replies[0]!;
  if (e.kind === 'error-no-id') {
    return Object.keys(r).join() === 'E' && typeof r.E === 'string' && r.E !== '' ? [] : [`expected {"E": reason}, got ${JSON.stringify(r).slice(0, 200)}`];
  }
  if (e.kind !== 'reply') return [`unexpected answer ${JSON.stringify(r).slice(0, 200)}`];
  if (r.I !== e.id) return [`answer not addressed to ${e.id}: ${JSON.stringify(r).slice(0, 200)}`];
  const hasError = typeof r.E === 'string' && r.E !== '';
  if (hasError) return e.result === undefined ? [] : [`expected a ${e.result} result, got an error ${String(r.E).slice(0, 120)}`];
  if (!('R' in r)) return [`neither result nor error: ${JSON.stringify(r).slice(0, 200)}`];
  switch (e.result) {
    case undefined:
      return [];
    case 'boolean':
      return typeof r.R === 'boolean' ? [] : [`expected a boolean, got ${JSON.stringify(r.R).slice(0, 80)}`];
    case 'false':
      return r.R === false ? [] : [`garbage Authenticate answered ${JSON.stringify(r.R)}`];
    case 'string':
      return typeof r.R === 'string' && r.R !== '' ? [] : [`expected a challenge, got ${JSON.stringify(r.R).slice(0, 80)}`];
    case 'payload':
      try {
        return decodeV1Payload('QueryExchangeState', r.R).MarketName === 'USD-BTC' ? [] : ['state of the wrong market'];
      } catch (err) {
        return [`undecodable state: ${(err as Error).message}`];
      }
  }
}

describe(`v1.1 hub fuzz (seed ${SEED})`, () => {
  let fx: SimFixture;
  let maker: TestAccount;
  let sync: V1BookSync;
  const raws: RawClassicClient[] = [];
  const open: string[] = [];
  let churns = 0;

  async function raw(): Promise<RawClassicClient> {
    const c = new RawClassicClient(fx.sim.hubUrl, 'c2');
    raws.push(c);
    await c.open();
    return c;
  }

  function churn(): void {
    const k = churns++;
    if (open.length >= 20 && k % 3 === 0) {
      fx.engine.cancelOrder(maker.accountId, open.shift()!);
      return;
    }
    const o = fx.engine.placeOrder(maker.accountId, { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec(String(20_000 + (k % 40))) });
    open.push(o.id);
  }

  beforeAll(async () => {
    fx = await startFixture();
    maker = await fx.account({ USD: '10000000' });
    sync = new V1BookSync({ markets: ['USD-BTC'], newClient: () => new V1HubClient({ url: fx.sim.hubUrl }) });
    sync.start();
    await vi.waitFor(() => expect(sync.book('USD-BTC')).toBeDefined());
  });
  afterAll(async () => {
    await sync?.stop();
    for (const c of raws) c.ws.terminate();
    await fx?.close();
  });

  it(`${FRAMES} malformed frames and garbage calls get answers, or close only their connection`, async () => {
    const rand = seeded(SEED);
    let c = await raw();
    const failures: string[] = [];
    for (let i = 0; i < FRAMES && failures.length < 10; i++) {
      const f = v1Frame(rand, i, maker.apiKey);
      const where = `seed ${SEED} #${i} ${f.what}`;
      const before = c.frames.all.length;
      c.ws.send(f.message);
      if (f.expect.kind === 'close') {
        const code = await within(c.closed, where);
        if (code !== 1009) failures.push(`${where}: closed with ${code}, expected 1009 (message too big)`);
        c = await raw();
      } else {
        const barrier = `barrier-${i}`;
        c.ws.send(JSON.stringify({ H: 'c2', M: 'GetAuthContext', A: ['barrier-key'], I: barrier }));
        const b = await within(c.frames.next((x) => x.I === barrier), where);
        if (typeof b.R !== 'string') failures.push(`${where}: barrier answered ${JSON.stringify(b).slice(0, 120)}`);
        const replies = c.frames.all.slice(before).filter((x) => x.I !== barrier && !Array.isArray(x.M) && Object.keys(x).length > 0);
        for (const p of judge(f, replies as Rec[])) failures.push(`${where}: ${p}`);
      }
      churn();
    }
    expect(failures).toEqual([]);
    expect(fx.sim.v1Hub.connections().every((x) => x.accountId === undefined), 'garbage authenticated a connection').toBe(true);
  });

  it('the well-behaved client stayed in step without a resync, and a new client is served', async () => {
    const truth = () => fx.engine.orderBook('BTC-USD', 500).data.bid.map((l) => `${l.quantity.toString()}@${l.rate.toString()}`);
    await vi.waitFor(() => expect(sync.book('USD-BTC')?.bids().map((l) => `${l.quantity.toString()}@${l.rate.toString()}`)).toEqual(truth()));
    expect(sync.resyncs, `seed ${SEED}`).toBe(0);
    const client = new V1HubClient({ url: fx.sim.hubUrl });
    await client.connect();
    const state = await client.queryExchangeState('USD-BTC');
    expect(state.Buys.map((l) => `${l.Quantity.toString()}@${l.Rate.toString()}`)).toEqual(truth());
    await client.close();
  });
});
