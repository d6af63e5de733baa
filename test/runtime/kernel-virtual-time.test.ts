/**
 * The Kernel in virtual time, in-process: the shape backtests over recorded data will use.
 *
 * One {@link VirtualClock} drives everything — the simulator engine, its market driver (synthetic with a fixed
 * seed, or the 2021 capture replayed), the in-process sim gateway (no sockets: engine events become stream
 * messages on a microtask), and the Kernel with the example market maker (LiveData synchronizers, portfolio,
 * risk, order manager with its fsynced journal in a temp dir, the strategy's throttle on ctx.scheduler). The
 * test moves time in steps with `clock.advance`; between timers the clock flushes microtasks, so every
 * snapshot, gateway answer, journal group commit and stream delivery settles at the simulated instant it
 * belongs to. Ten simulated minutes therefore take as long as the CPU needs, not ten minutes.
 *
 * What is proved:
 * 1. it trades, and the bot's memory agrees with the exchange: positions = net executions, open orders in the
 *    account store = the engine's, the engine's ledger audit conserves every currency;
 * 2. it is deterministic: the same seed gives the same fills (direction, rate, quantity, commission, maker/taker,
 *    simulated time) and the same final balances, byte for byte; another seed differs. clientOrderIds are random
 *    UUIDs (the order manager's default), so the comparison leaves every id out;
 * 3. nothing on the path reads real time: while a run goes on, `setTimeout`, `setInterval`, `setImmediate`,
 *    `Date.now`, `new Date()` without arguments, `Date()`, `performance.now` and `process.hrtime` are watched
 *    (test/helpers/real-time-guard.ts), and a call whose stack passes through this repository's src/ or
 *    strategies/ fails the test; calls vitest or a library makes on its own behalf are ignored. A control test
 *    shows the guard does see `systemClock` calling them from src/core/clock.ts.
 * The replayed capture (90 s of BTC-EUR book deltas, no trades) is the market in the last test; the bot's quotes
 * rest in the recorded book and a taker of the test's own trades against them at fixed simulated times.
 *
 * Wiring a backtest is what `startRun` does: `createSimEngine({ clock })`, `createMarketDriver(engine, clock, …)`,
 * an account from `engine.createParticipant(funding)`, `createSimGateway(engine, account)`, and `Kernel.create`
 * with the same clock; `kernel.start()` resolves once the streams are live (start it, then advance the clock until
 * it has — here no simulated time passes), then `clock.advance` in steps drives the run. Strategies must use
 * `ctx.scheduler` / `ctx.every` for time (the market maker's throttle does). The in-process gateway serves the
 * recent-candles snapshot, so the Kernel's default of following every candle interval works over it.
 *
 * Durability is not switched off: the journal fsyncs its group commits as in live trading (at most one fsync per
 * microtask batch, not per order); ten simulated minutes with about a thousand orders take a second or two.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock, VirtualClock } from '../../src/core/clock.js';
import { type Decimal, dec, ZERO } from '../../src/core/decimal.js';
import { createSimGateway } from '../../src/gateway/sim-gateway.js';
import type { OrderEvent } from '../../src/orders/order-events.js';
import { defaultRiskConfig } from '../../src/risk/risk-config.js';
import { Kernel } from '../../src/runtime/kernel.js';
import { defaultSimConfig } from '../../src/sim/config.js';
import { createMarketDriver, type MarketDriver, type MarketDriverConfig } from '../../src/sim/driver/market-driver.js';
import type { ReplayStats } from '../../src/sim/driver/replay-market.js';
import { CAPTURE_2021_MARKETS, marketsFromRecordedList } from '../../src/sim/driver/recorded-markets.js';
import { createSimEngine, type SimEngine } from '../../src/sim/engine.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { createMetrics } from '../../src/telemetry/metrics.js';
import { guardRealTime, type RealTimeCall } from '../helpers/real-time-guard.js';
import { repoPath } from '../helpers/shared.js';
import { startOnVirtualClock } from '../helpers/start-on-virtual-clock.js';

const T0 = Date.parse('2024-03-01T00:00:00Z');
/**
 * Built once, outside the guarded runs, as the runtime builds its logger before the kernel: pino reads the wall
 * clock when a logger is created (and stamps each line it writes with wall time; silent here, so none).
 */
const logger = createLogger({ level: 'silent' });
const MINUTE = 60_000;

/** What one run leaves to compare: the bot's fills and the exchange's view of the account, ids left out. */
interface RunResult {
  /** Every order event, in order, without ids (clientOrderIds are random UUIDs; exchange ids are not compared). */
  sequence: string[];
  fills: string[];
  balances: string[];
  events: Record<string, number>;
}

interface Run {
  clock: VirtualClock;
  engine: SimEngine;
  driver: MarketDriver;
  kernel: Kernel;
  account: string;
  events: OrderEvent[];
  markets: string[];
  /** Clock time when kernel.start() resolved. */
  startedAt: number;
  /** Advance the clock by `ms` in steps of `stepMs`. */
  advance(ms: number, stepMs?: number): Promise<void>;
  /** The run's fills and final balances, times relative to `origin` (default T0). */
  result(origin?: number): RunResult;
  /** The journal file's text as it is now. */
  journal(): string;
  close(): Promise<void>;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** Engine + driver + in-process gateway + Kernel (market maker) on one VirtualClock. */
async function startRun(opts: {
  driver: MarketDriverConfig;
  markets: string[];
  funding: Record<string, string>;
  start?: number;
  engineConfig?: ReturnType<typeof defaultSimConfig>;
  params?: Record<string, unknown>;
}): Promise<Run> {
  const clock = new VirtualClock(opts.start ?? T0);
  // Counted ids (uuid-shaped, as the exchange requires clientOrderIds to be) make two runs' journals comparable.
  const counted = (prefix: string) => {
    let n = 0;
    return () => `${prefix}-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`;
  };
  const engine = createSimEngine({ clock, newId: counted('e0000000'), ...(opts.engineConfig ? { config: opts.engineConfig } : {}) });
  // Driver failures are counted in driver.stats.errors (asserted zero below).
  const driver = createMarketDriver(engine, clock, opts.driver);
  const account = engine.createParticipant(Object.fromEntries(Object.entries(opts.funding).map(([c, v]) => [c, dec(v)])));
  const gateway = createSimGateway(engine, account);
  const dir = mkdtempSync(join(tmpdir(), 'rexbot-kernel-vt-'));
  const events: OrderEvent[] = [];
  let kernel: Kernel | undefined;
  const close = async () => {
    await kernel?.stop({ cancelOpenOrders: false });
    driver.stop();
    await gateway.close();
    engine.dispose();
    rmSync(dir, { recursive: true, force: true });
  };
  cleanups.push(close);
  driver.start();
  kernel = await Kernel.create({
    gateway,
    clock,
    logger,
    metrics: createMetrics(),
    strategies: [{ name: 'mm', use: 'market-maker', markets: opts.markets, params: opts.params ?? {} }],
    risk: defaultRiskConfig(),
    journalPath: join(dir, 'journal.jsonl'),
    depth: 25,
    baseDir: repoPath(),
    onStrategyFailure: 'cancel',
    newId: counted('c0000000'),
  });
  const k = kernel;
  k.orders.events$.subscribe((e) => events.push(e));
  // start() waits for snapshots (gateway promises) and then for every stream to be live, on the clock: move it.
  await startOnVirtualClock(k, clock);
  const startedAt = clock.now();

  return {
    clock,
    engine,
    driver,
    kernel: k,
    account,
    events,
    markets: opts.markets,
    startedAt,
    async advance(ms, stepMs = 1_000) {
      for (let t = 0; t < ms; t += stepMs) await clock.advance(Math.min(stepMs, ms - t));
    },
    result(origin = T0) {
      const fills = events
        .filter((e): e is Extract<OrderEvent, { type: 'fill' }> => e.type === 'fill')
        .map((f) => `${f.at - origin} ${f.marketSymbol} ${f.direction} ${f.quantity.toFixed()}@${f.rate.toFixed()} fee ${f.commission.toFixed()} ${f.isTaker ? 'taker' : 'maker'}`);
      const balances = engine.funds
        .balances(account)
        .data.map((b) => `${b.currencySymbol} ${b.total.toFixed()}/${b.available.toFixed()}`)
        .sort();
      const counts: Record<string, number> = {};
      for (const e of events) counts[e.type] = (counts[e.type] ?? 0) + 1;
      return { sequence: events.map((e) => describeEvent(e, origin)), fills, balances, events: counts };
    },
    journal: () => readFileSync(join(dir, 'journal.jsonl'), 'utf8'),
    close,
  };
}

/** One order event as text, ids left out. */
function describeEvent(e: OrderEvent, origin: number): string {
  const head = `${e.at - origin} ${e.type} ${e.strategy} ${e.intentKey}`;
  const order = (o: { direction: string; type: string; quantity?: Decimal | undefined; limit?: Decimal | undefined; fillQuantity?: Decimal | undefined; status: string }) =>
    `${o.direction} ${o.type} ${o.quantity?.toFixed() ?? '-'}@${o.limit?.toFixed() ?? '-'} filled ${o.fillQuantity?.toFixed() ?? '-'} ${o.status}`;
  switch (e.type) {
    case 'accepted':
    case 'closed':
      return `${head} ${order(e.order)}`;
    case 'fill':
      return `${head} ${e.direction} ${e.quantity.toFixed()}@${e.rate.toFixed()} fee ${e.commission.toFixed()} ${e.isTaker ? 'taker' : 'maker'}`;
    case 'denied':
      return `${head} ${e.reasons.map((r) => r.code).join(',')}`;
    case 'rejected':
      return `${head} ${e.code}`;
    default:
      return head;
  }
}

/** Net base quantity of the account's executions in `market` on the exchange (buys +, sells -). */
function netExecuted(run: Run, market: string): Decimal {
  let net = ZERO;
  const direction = new Map<string, string>();
  for (const x of run.engine.executions(run.account, { marketSymbol: market, pageSize: 200 })) {
    // (pages of 200 are plenty for these runs; checked below)
    let d = direction.get(x.orderId);
    if (d === undefined) direction.set(x.orderId, (d = run.engine.getOrder(run.account, x.orderId).direction));
    net = d === 'BUY' ? net.plus(x.quantity) : net.minus(x.quantity);
  }
  return net;
}

const remaining = (orders: ReadonlyArray<{ id: string; quantity?: Decimal | undefined; fillQuantity?: Decimal | undefined }>) =>
  Object.fromEntries(orders.map((o) => [o.id, (o.quantity ?? ZERO).minus(o.fillQuantity ?? ZERO).toFixed()]));

/** The bot's memory against the exchange's truth. */
function expectAgreement(run: Run): void {
  const account = run.kernel.live.account!;
  expect(remaining(account.openOrders())).toEqual(remaining(run.engine.openOrders(run.account).data));
  const levels = (l: ReadonlyArray<{ rate: Decimal; quantity: Decimal }>) => l.map((x) => `${x.quantity.toFixed()}@${x.rate.toFixed()}`);
  for (const m of run.markets) {
    const book = run.kernel.live.market.book(m, 25)!.ladder();
    const truth = run.engine.orderBook(m, 25).data;
    expect({ bid: levels(book.bid), ask: levels(book.ask) }).toEqual({ bid: levels(truth.bid), ask: levels(truth.ask) });
    expect(run.engine.executions(run.account, { marketSymbol: m, pageSize: 200 }).length).toBeLessThan(200);
    expect(`${m} ${run.kernel.portfolio.position(m).toFixed()}`).toBe(`${m} ${netExecuted(run, m).toFixed()}`);
  }
  for (const a of run.engine.ledger.audit()) expect(`${a.currency} ${a.discrepancy.toFixed()}`).toBe(`${a.currency} 0`);
}

/** Ten simulated minutes of the market maker on BTC-USD against the synthetic driver. */
async function syntheticRun(seed: number): Promise<Run> {
  const run = await startRun({
    driver: { kind: 'synthetic', seed, markets: ['BTC-USD'] },
    markets: ['BTC-USD'],
    funding: { USD: '1000000', BTC: '10' },
  });
  await run.advance(10 * MINUTE);
  return run;
}

/** Run `fn` with the real-time guard installed; returns what fn returned and the repository's real-time calls. */
async function guarded<T>(fn: () => Promise<T>): Promise<{ value: T; calls: RealTimeCall[] }> {
  const guard = guardRealTime();
  try {
    return { value: await fn(), calls: guard.calls };
  } finally {
    guard.restore();
  }
}

const fixtures = repoPath('test', 'fixtures');
const CAPTURE_START = Date.parse('2021-06-14T01:53:38Z');

/**
 * The market maker on BTC-EUR while the 2021 capture (snapshot + 90 s of deltas) is replayed into the engine:
 * the recorded book is the market. The capture holds no BTC-EUR trades, so fills come from the recorded book
 * moving through the bot's quotes (a tight spread makes that happen within the capture).
 */
async function replayRun(): Promise<Run> {
  const base = defaultSimConfig();
  const rec = marketsFromRecordedList(join(fixtures, 'v3-replay/BITTREX.0'), { symbols: CAPTURE_2021_MARKETS });
  const known = new Set(base.currencies.map((c) => c.symbol));
  // The 2021 books hold levels worth ~10 000 satoshi (the service's dust limit then): see the replay driver tests.
  const engineConfig = defaultSimConfig({
    markets: [...base.markets, ...rec.markets],
    currencies: [...base.currencies, ...rec.currencies.filter((c) => !known.has(c.symbol))],
    dustMinValueSatoshi: 10_000,
  });
  const run = await startRun({
    start: CAPTURE_START,
    engineConfig,
    driver: {
      kind: 'replay',
      ws: [join(fixtures, 'v3-capture/BITTREX.ws.1.0')],
      http: [join(fixtures, 'v3-replay/BITTREX.http.0.0')],
      markets: ['BTC-EUR'],
    },
    markets: ['BTC-EUR'],
    funding: { EUR: '1000000', BTC: '10' },
    params: { spread: '0.0002', levels: 2, levelSpacing: '0.0001', size: '0.002' },
  });
  // The capture holds no BTC-EUR trades, and its book does not move through the bot's quotes (tight as they are)
  // within its 90 s. A taker of the test's own, an ordinary engine account, hits the bot's bid and lifts its ask
  // at fixed simulated times: timers on the same clock, so they are part of the deterministic run.
  const taker = run.engine.createParticipant({ EUR: dec('100000'), BTC: dec('1') });
  const take = (direction: 'BUY' | 'SELL') => () =>
    run.engine.placeOrder(taker, { marketSymbol: 'BTC-EUR', direction, type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.003') });
  run.clock.setTimeout(take('SELL'), 30_000);
  run.clock.setTimeout(take('BUY'), 60_000);
  await run.advance(2 * MINUTE, 500);
  return run;
}

describe('Kernel in virtual time with the in-process simulator (synthetic market, seed 42)', () => {
  it('trades: fills happen, and portfolio, account store and ledger agree with the engine', async () => {
    const run = await syntheticRun(42);
    const r = run.result();
    expect(r.fills.length).toBeGreaterThan(0);
    expect(r.events.accepted).toBeGreaterThan(0);
    expect(run.kernel.health()).toMatchObject({ healthy: true, streamsLive: true, trading: 'ACTIVE' });
    // Streams were live without time moving, and the run took exactly the simulated time it was given.
    expect(run.startedAt).toBe(T0);
    expect(run.clock.now()).toBe(T0 + 10 * MINUTE);
    expect(run.driver.stats.errors).toBe(0);
    expectAgreement(run);
    // Stopped without cancelling, the bot's memory still matches the exchange.
    await run.kernel.stop({ cancelOpenOrders: false });
    expectAgreement(run);
  });

  it('is deterministic: the same seed gives the same fills, balances and journal byte for byte; another seed differs', async () => {
    const runA = await syntheticRun(42);
    const runB = await syntheticRun(42);
    const a = runA.result();
    const b = runB.result();
    const c = (await syntheticRun(7)).result();
    expect(a.sequence.length).toBeGreaterThan(1000);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    // With counted ids (Kernel and engine `newId`), the journals are the same file byte for byte.
    expect(runA.journal().length).toBeGreaterThan(0);
    expect(runB.journal()).toBe(runA.journal());
    expect(c.fills.length).toBeGreaterThan(0);
    expect(JSON.stringify(c)).not.toBe(JSON.stringify(a));
  });

  it('uses no real time: no timer and no wall-clock read from src/ or strategies/ during a whole run', async () => {
    const { value: run, calls } = await guarded(async () => {
      const r = await syntheticRun(42);
      await r.kernel.stop({ cancelOpenOrders: true });
      return r;
    });
    expect(calls).toEqual([]);
    expect(run.result().fills.length).toBeGreaterThan(0);
    // cancelOpenOrders on stop reached the exchange.
    expect(run.engine.openOrders(run.account).data).toEqual([]);
  });

  it('the real-time guard is not vacuous: it sees the system clock and real timers called from src/', async () => {
    const { calls } = await guarded(async () => {
      systemClock.now();
      systemClock.setTimeout(() => undefined, 1).cancel();
      systemClock.setInterval(() => undefined, 1).cancel();
      Date.now(); // from the test itself: not the repository's src/, so not reported
    });
    expect(calls.map((c) => c.api)).toEqual(['Date.now', 'setTimeout', 'setInterval']);
    expect(calls.every((c) => c.at.includes('src/core/clock.ts'))).toBe(true);
  });
});

describe('Kernel in virtual time over the replayed 2021 capture (BTC-EUR)', () => {
  it('quotes and trades against the recorded book; agrees with the engine; same capture, same run; no real time', async () => {
    const { value: run, calls } = await guarded(replayRun);
    expect(calls).toEqual([]);
    expect(run.driver.stats.errors).toBe(0);
    expect(run.kernel.health()).toMatchObject({ healthy: true, streamsLive: true });
    const r = run.result(CAPTURE_START);
    expect(r.events.accepted).toBeGreaterThan(0);
    // The taker's sell at 30 s hit the bot's two bids, its buy at 60 s lifted the two asks (ladder of 2 levels).
    expect(r.fills.map((f) => f.split(' ').slice(0, 3).join(' '))).toEqual(['30000 BTC-EUR BUY', '30000 BTC-EUR BUY', '60000 BTC-EUR SELL', '60000 BTC-EUR SELL']);
    // The recording really was played, all of it: BTC-EUR's snapshot, 140 deltas and 40 tickers.
    expect((run.driver.stats as ReplayStats).events).toBe(181);
    expectAgreement(run);
    const again = (await replayRun()).result(CAPTURE_START);
    expect(JSON.stringify(again)).toBe(JSON.stringify(r));
  });
});
