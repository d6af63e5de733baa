/**
 * `intent-latency` (issue 5): how long from a store update to the HTTP request it causes leaving the bot, in one
 * process, with the example market maker (strategies/market-maker.ts, throttleMs 0) run by the real Kernel over
 * the Bittrex gateway (REST + classic hub) to rexbot's simulator server on loopback (no market driver).
 *
 * Each round moves the simulated book in-process (a participant's bid inside the spread, then its cancel), so the
 * mid changes and the maker wants a new ladder. The hub pushes the delta; the clock starts when the bot's
 * MarketStore has applied it (the first `changes$` subscriber, which runs before the strategy's), and stops when:
 *  - `dispatch`: the POST /batch is handed to undici (an interceptor on the dispatcher passed to the gateway),
 *    i.e. after strategy → order manager (plan, risk, fsynced journal) → gateway → throttler → signing;
 *  - `wire`: undici has written the request headers to the socket (`undici:client:sendHeaders`);
 *  - `to-submit` (a breakdown): the strategy's intent handed to the order manager, i.e. the strategy's share.
 * Rounds run one at a time: the next starts only once the previous batch was answered and the bot's book and
 * order streams caught up with the engine, so every figure is one uncontended path, not a queue.
 *
 * Two journals: on the default temporary directory (a disk: the fsync before each request is real) and, where
 * the machine has it, on /dev/shm (tmpfs: fsync is nearly free), which isolates the cost of the durable journal.
 * The client-side throttler gets a budget large enough never to wait: the bench measures the path, not the
 * 60 calls/minute of the real service.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type Dispatcher } from 'undici';
import { createBittrexGateway } from '../../src/bittrex/gateway.js';
import { createThrottler } from '../../src/bittrex/rest/throttler.js';
import { systemClock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import type { ExchangeGateway } from '../../src/gateway/exchange-gateway.js';
import type { NewOrder } from '../../src/model/order.js';
import { defaultRiskConfig } from '../../src/risk/risk-config.js';
import { Kernel } from '../../src/runtime/kernel.js';
import { createFundedAccount } from '../../src/server/control/control-api.js';
import { startSimServer } from '../../src/server/sim-server.js';
import { createSimEngine } from '../../src/sim/engine.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { createMetrics } from '../../src/telemetry/metrics.js';
import { repoPath } from '../helpers/shared.js';
import { percentile, type Bench, type Figure } from './harness.js';

const M = 'BTC-USD';
const WARMUP = 200;
const MEASURED = 1_500;

const limit = (direction: 'BUY' | 'SELL', rate: string, quantity: string): NewOrder => ({
  marketSymbol: M, direction, type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec(quantity), limit: dec(rate),
});

/** Samples in µs of one configuration, plus what the rounds sent (to check they did what the bench claims). */
interface Run {
  dispatch: number[];
  wire: number[];
  /** Store update → the strategy's intent handed to the order manager (the strategy's share). */
  submit: number[];
  paths: Set<string>;
}

/** Undici request `opts` as an interceptor sees them (only what the bench reads). */
type DispatchOpts = Dispatcher.DispatchOptions;

async function measure(journalDir: string): Promise<Run> {
  const engine = createSimEngine({ clock: systemClock });
  const server = await startSimServer({ engine });
  const me = createFundedAccount(engine, { balances: { USD: '1000000', BTC: '100' } });
  const lp = engine.createParticipant({ USD: dec('100000000'), BTC: dec('10000') });
  // 25 levels each side, 1 USD apart: the maker's quotes (±0.1 % and deeper) sit below the depth-25 window, so
  // its own placements and cancels do not move the book the bot watches.
  for (let i = 0; i < 25; i++) {
    engine.placeOrder(lp, limit('BUY', String(29_999 - i), '1'));
    engine.placeOrder(lp, limit('SELL', String(30_001 + i), '1'));
  }

  // The stamps of the current round; undefined = not reached yet.
  let armed = false;
  let target = '';
  let t0: number | undefined;
  let t1: number | undefined;
  let tw: number | undefined;
  let ts: number | undefined;
  const paths = new Set<string>();
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const dispatcher = agent.compose((dispatch) => (opts: DispatchOpts, handler) => {
    if (t0 !== undefined && t1 === undefined && opts.method !== 'GET') {
      t1 = performance.now();
      paths.add(`${opts.method} ${String(opts.path).split('?')[0]}`);
    }
    return dispatch(opts, handler);
  });
  const onHeaders = (message: unknown) => {
    const { request } = message as { request: { method: string } };
    if (t1 !== undefined && tw === undefined && request.method !== 'GET') tw = performance.now();
  };
  subscribe('undici:client:sendHeaders', onHeaders);

  const network = createBittrexGateway({
    restUrl: server.restUrl,
    hubUrl: server.hubUrl,
    transport: 'classic',
    credentials: { apiKey: me.apiKey, apiSecret: me.apiSecret },
    throttler: createThrottler({ callsPerMinute: 1_000_000 }),
    dispatcher,
  });
  // Count calls in flight, so a round ends only once the bot heard back from every request it made.
  let outstanding = 0;
  const gateway = { ...network } as Record<string, unknown>;
  for (const [k, v] of Object.entries(network)) {
    if (typeof v !== 'function' || k === 'close') continue;
    gateway[k] = async (...args: unknown[]) => {
      outstanding++;
      try {
        return await (v as (...a: unknown[]) => Promise<unknown>)(...args);
      } finally {
        outstanding--;
      }
    };
  }

  const kernel = await Kernel.create({
    gateway: gateway as unknown as ExchangeGateway,
    clock: systemClock,
    logger: createLogger({ level: 'silent' }),
    metrics: createMetrics(),
    strategies: [{ name: 'mm', use: 'market-maker', markets: [M], params: { throttleMs: 0, levels: 3, spread: '0.002', size: '0.01' } }],
    risk: { ...defaultRiskConfig(), submitRate: { maxOrders: 1_000_000_000, windowMs: 60_000 } },
    journalPath: join(journalDir, 'bench.journal'),
    depth: 25,
    baseDir: repoPath(),
    onStrategyFailure: 'keep',
  });
  const store = kernel.live.market;
  // Where the strategy's share ends: the kernel hands each intent to `orders.submit` (looked up at call time).
  const submitIntent = kernel.orders.submit.bind(kernel.orders);
  kernel.orders.submit = (strategy, intent) => {
    if (t0 !== undefined && ts === undefined) ts = performance.now();
    submitIntent(strategy, intent);
  };
  // Subscribed before the kernel starts the strategy: this subscriber runs first on every store update.
  const sub = store.changes$.subscribe((e) => {
    if (!armed || t0 !== undefined || e.kind !== 'book' || e.reset || e.marketSymbol !== M) return;
    if (store.bestBid(M)?.rate.toString() === target) t0 = performance.now();
  });

  const bookChannel = `orderbook_${M}_25`;
  const settled = () =>
    outstanding === 0 &&
    kernel.live.sequence(bookChannel) === engine.orderBook(M, 25).sequence &&
    kernel.live.sequence('order') === engine.openOrders(me.accountId).sequence;
  const settle = async () => {
    // Two consecutive quiet checks a macrotask apart: a response's follow-up work has run too.
    for (let quiet = 0; quiet < 2; ) {
      await new Promise((resolve) => setImmediate(resolve));
      quiet = settled() ? quiet + 1 : 0;
    }
  };

  const dispatch: number[] = [];
  const wire: number[] = [];
  const submit: number[] = [];
  try {
    await kernel.start();
    await settle();
    let inside: string | undefined;
    let missed = 0;
    for (let round = 0; round < WARMUP + MEASURED; round++) {
      t0 = t1 = tw = ts = undefined;
      armed = true;
      if (inside === undefined) {
        target = '29999.5';
        inside = engine.placeOrder(lp, limit('BUY', target, '0.1')).id;
      } else {
        target = '29999';
        engine.cancelOrder(lp, inside);
        inside = undefined;
      }
      await settle();
      armed = false;
      if (t0 === undefined || t1 === undefined || tw === undefined || ts === undefined) {
        if (++missed > 5) throw new Error(`round ${round}: no request followed the book change (store ${t0 !== undefined}, dispatched ${t1 !== undefined})`);
        continue;
      }
      if (round >= WARMUP) {
        dispatch.push((t1 - t0) * 1000);
        wire.push((tw - t0) * 1000);
        submit.push((ts - t0) * 1000);
      }
    }
    const failed = kernel.strategies.find((s) => s.status === 'failed');
    if (failed) throw new Error(`strategy ${failed.name} failed during the bench`);
  } finally {
    sub.unsubscribe();
    unsubscribe('undici:client:sendHeaders', onHeaders);
    await kernel.stop({ cancelOpenOrders: true });
    await network.close();
    await dispatcher.close();
    await server.close();
    engine.dispose();
  }
  return { dispatch, wire, submit, paths };
}

async function inTempDir<T>(parent: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(parent, 'rexbot-intent-latency-'));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function figures(prefix: string, run: Run, note: string): Figure[] {
  if (run.paths.size !== 1 || !run.paths.has('POST /v3/batch')) throw new Error(`expected only POST /v3/batch, saw ${[...run.paths].join(', ')}`);
  return [
    { bench: `${prefix}/p50`, value: percentile(run.dispatch, 50), unit: 'µs', note: `${run.dispatch.length} ladders; ${note}` },
    { bench: `${prefix}/p99`, value: percentile(run.dispatch, 99), unit: 'µs' },
    { bench: `${prefix}/wire-p50`, value: percentile(run.wire, 50), unit: 'µs', note: 'until the request headers are on the socket' },
    { bench: `${prefix}/wire-p99`, value: percentile(run.wire, 99), unit: 'µs' },
    { bench: `${prefix}/to-submit-p50`, value: percentile(run.submit, 50), unit: 'µs', note: 'the strategy\'s share: until its intent reaches the order manager' },
    { bench: `${prefix}/to-submit-p99`, value: percentile(run.submit, 99), unit: 'µs' },
  ];
}

export const benches: Bench[] = [
  {
    name: 'intent-latency',
    async run(): Promise<Figure[]> {
      const disk = await inTempDir(tmpdir(), measure);
      const out = figures('intent-latency', disk, `store update → POST /batch dispatched; journal fsynced in ${tmpdir()}`);
      if (existsSync('/dev/shm')) {
        const shm = await inTempDir('/dev/shm', measure);
        out.push(...figures('intent-latency-tmpfs', shm, 'the same with the journal on /dev/shm (fsync nearly free)'));
      }
      return out;
    },
  },
];
