/**
 * End-to-end harness: a simulator server started in this process (engine + market driver + REST + hub on
 * 127.0.0.1 port 0), a Bittrex gateway to it over real HTTP and hub connections with the demo credentials, and a
 * Kernel running the strategies under test — the same wiring `rexbot run` builds for paper trading, with the
 * pieces exposed so a test can act on the exchange (a participant account trading against the bot's quotes) and
 * compare the bot's memory (stores, journal, portfolio) with the exchange's truth (the engine).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, vi } from 'vitest';
import { createBittrexGateway, type BittrexGateway } from '../../src/bittrex/gateway.js';
import { createThrottler } from '../../src/bittrex/rest/throttler.js';
import { systemClock } from '../../src/core/clock.js';
import { type Decimal, dec, ZERO } from '../../src/core/decimal.js';
import type { Execution, NewOrder, Order } from '../../src/model/index.js';
import { parseJournal } from '../../src/orders/journal.js';
import type { JournalRecord } from '../../src/orders/journal-records.js';
import type { OrderEvent } from '../../src/orders/order-events.js';
import { defaultRiskConfig, type RiskConfig } from '../../src/risk/risk-config.js';
import { Kernel, type StrategyEntry } from '../../src/runtime/kernel.js';
import { parseSimConfig } from '../../src/runtime/sim-config.js';
import { startSimulator, type RunningSimulator } from '../../src/runtime/simulator.js';
import { createLogger } from '../../src/telemetry/logger.js';
import type { JournalFs } from '../../src/orders/journal-appender.js';
import { createMetrics, type Metrics } from '../../src/telemetry/metrics.js';
import { repoPath } from '../helpers/shared.js';

/** Log level of the bot under test: silent unless REXBOT_E2E_LOG says otherwise (e.g. `debug` when a test fails). */
const LOG_LEVEL = process.env.REXBOT_E2E_LOG ?? 'silent';

/** Options of {@link startE2E}. */
export interface E2EOptions {
  /** config/sim.yaml-style text for the simulator (port 0 and loopback are the defaults). */
  simYaml: string;
  strategies: StrategyEntry[];
  /** Risk limits on top of the defaults. */
  risk?: Partial<RiskConfig>;
  onStrategyFailure?: 'cancel' | 'keep';
  transport?: 'classic' | 'core';
  /**
   * Journal compaction threshold (default: the kernel's). Setting it also keeps the compaction history, so the
   * agreement checks still see every order ever journaled.
   */
  journalCompactBytes?: number;
  /** The journal's file calls (default node:fs): where a test injects a full disk. */
  journalFs?: JournalFs;
}

/** A running simulator + gateway + kernel. */
export interface E2E {
  readonly sim: RunningSimulator;
  readonly gateway: BittrexGateway;
  readonly kernel: Kernel;
  readonly metrics: Metrics;
  /** The demo account the bot trades (on the engine). */
  readonly account: string;
  /** Every order event of every strategy, in order. */
  readonly events: OrderEvent[];
  /** A funded account of the test's own, trading through the engine like any other participant. */
  participant(funding?: Record<string, string>): Participant;
  /** Stop the kernel (if still running), the gateway and the simulator; remove the journal directory. */
  close(): Promise<void>;
}

/** An exchange account the test trades with, in-process through the engine (synchronous, deterministic). */
export interface Participant {
  readonly accountId: string;
  place(order: NewOrder): Order;
  cancelAll(marketSymbol?: string): void;
}

/** Retry `fn` until it stops throwing, for up to `timeoutMs` (60 s by default: only the bound on a hung test; a loaded 2-core CI box is slow). */
export function waitFor(fn: () => void | Promise<void>, timeoutMs = 60_000): Promise<void> {
  return vi.waitFor(fn, { timeout: timeoutMs, interval: 50 });
}

/**
 * {@link startE2E} for the tests of one file, each world closed after its test (call at the file's top level or
 * in a describe).
 *
 * @example
 * const start = useE2E();
 * it('trades', async () => { const t = await start({ simYaml, strategies }); ... });
 */
export function useE2E(): (opts: E2EOptions) => Promise<E2E> {
  const running: E2E[] = [];
  afterEach(async () => {
    for (const e of running.splice(0)) await e.close();
  });
  return async (opts) => {
    const e = await startE2E(opts);
    running.push(e);
    return e;
  };
}

/**
 * Start the simulator, connect a gateway with the demo key and start a kernel with `strategies`.
 *
 * @example
 * const e2e = await startE2E({ simYaml, strategies: [{ name: 'mm', use: 'market-maker', markets: ['BTC-USD'] }] });
 * try { ... } finally { await e2e.close(); }
 */
export async function startE2E(opts: E2EOptions): Promise<E2E> {
  const sim = await startSimulator(parseSimConfig(opts.simYaml, '<e2e sim>', repoPath()), { env: {} });
  const dir = mkdtempSync(join(tmpdir(), 'rexbot-e2e-'));
  const logger = createLogger({ name: 'e2e', level: LOG_LEVEL });
  const clock = systemClock;
  const gateway = createBittrexGateway({
    restUrl: sim.server.restUrl,
    hubUrl: opts.transport === 'core' ? sim.server.coreHubUrl : sim.server.hubUrl,
    transport: opts.transport ?? 'classic',
    credentials: { apiKey: sim.demo.apiKey, apiSecret: sim.demo.apiSecret },
    clock,
    // The simulator is unlimited here; a generous budget keeps the bot from queueing behind the real 60/min.
    throttler: createThrottler({ clock, callsPerMinute: 6000 }),
  });
  const metrics = createMetrics();
  const events: OrderEvent[] = [];
  let kernel: Kernel | undefined;
  const cleanup = async () => {
    await kernel?.stop({ cancelOpenOrders: false }).catch(() => undefined);
    await gateway.close().catch(() => undefined);
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    kernel = await Kernel.create({
      gateway,
      clock,
      logger,
      metrics,
      strategies: opts.strategies,
      risk: { ...defaultRiskConfig(), ...opts.risk },
      journalPath: join(dir, 'journal.jsonl'),
      ...(opts.journalCompactBytes === undefined
        ? {}
        : { journalCompactBytes: opts.journalCompactBytes, journalHistoryPath: join(dir, 'journal.jsonl.history') }),
      ...(opts.journalFs ? { journalFs: opts.journalFs } : {}),
      depth: 25,
      baseDir: repoPath('test', 'e2e'),
      onStrategyFailure: opts.onStrategyFailure ?? 'cancel',
    });
    kernel.orders.events$.subscribe((e) => events.push(e));
    await kernel.start();
  } catch (err) {
    await cleanup();
    throw err;
  }
  const k = kernel;
  let closing: Promise<void> | undefined;
  return {
    sim,
    gateway,
    kernel: k,
    metrics,
    account: sim.demo.accountId,
    events,
    participant(funding = { USD: '10000000', BTC: '1000', ETH: '10000' }) {
      const accountId = sim.engine.createParticipant(Object.fromEntries(Object.entries(funding).map(([c, v]) => [c, dec(v)])));
      return {
        accountId,
        place: (order) => sim.engine.placeOrder(accountId, order),
        cancelAll: (m) => void sim.engine.cancelAll(accountId, m),
      };
    },
    close() {
      closing ??= cleanup();
      return closing;
    },
  };
}

/** Open orders of the demo account on the exchange. */
export function engineOpenOrders(e2e: E2E): Order[] {
  return e2e.sim.engine.openOrders(e2e.account).data;
}

/** Every page of a paginated engine list (newest first, as the endpoints answer). */
function allPages<T extends { id: string }>(page: (q: { pageSize: number; nextPageToken?: string }) => T[]): T[] {
  const out: T[] = [];
  let token: string | undefined;
  for (;;) {
    const items = page(token === undefined ? { pageSize: 200 } : { pageSize: 200, nextPageToken: token });
    out.push(...items);
    if (items.length < 200) return out;
    token = items[items.length - 1]!.id;
  }
}

/** Closed orders of the demo account on the exchange (all pages). */
export function engineClosedOrders(e2e: E2E): Order[] {
  return allPages((q) => e2e.sim.engine.closedOrders(e2e.account, q));
}

/** Executions of the demo account on the exchange (all pages). */
export function engineExecutions(e2e: E2E): Execution[] {
  return allPages((q) => e2e.sim.engine.executions(e2e.account, q));
}

/**
 * The journal file as written, parsed with the order manager's own reader — preceded by the compaction history
 * when there is one, so that every record ever written is there.
 */
export function readJournal(e2e: E2E): JournalRecord[] {
  const path = e2e.kernel.journal.path;
  const history = `${path}.history`;
  const before = existsSync(history) ? parseJournal(history, readFileSync(history, 'utf8')).records : [];
  return [...before, ...parseJournal(path, readFileSync(path, 'utf8')).records];
}

/** Every clientOrderId (orders, batch placements) and clientConditionalOrderId the journal holds. */
export function journaledIds(records: readonly JournalRecord[]): Set<string> {
  const ids = new Set<string>();
  for (const r of records) {
    if (r.t === 'order') ids.add(r.clientOrderId);
    else if (r.t === 'batch') for (const o of r.orders) ids.add(o.clientOrderId);
    else if (r.t === 'conditional') ids.add(r.clientConditionalOrderId);
  }
  return ids;
}

/** Net base-currency quantity the demo account's executions add up to in `marketSymbol` (buys +, sells -). */
export function netFilled(e2e: E2E, marketSymbol: string): Decimal {
  const direction = new Map<string, string>();
  let net = ZERO;
  for (const x of engineExecutions(e2e)) {
    if (x.marketSymbol !== marketSymbol) continue;
    let d = direction.get(x.orderId);
    if (d === undefined) {
      d = e2e.sim.engine.getOrder(e2e.account, x.orderId).direction;
      direction.set(x.orderId, d);
    }
    net = d === 'BUY' ? net.plus(x.quantity) : net.minus(x.quantity);
  }
  return net;
}

/** `id -> remaining quantity` of a list of orders, as plain strings for readable diffs. */
function remaining(orders: readonly Order[]): Record<string, string> {
  return Object.fromEntries(orders.map((o) => [o.id, (o.quantity ?? ZERO).minus(o.fillQuantity ?? ZERO).toFixed()]));
}

/** `currency -> total/available` of a list of balances, zero balances left out. */
function balanceMap(list: Iterable<{ currencySymbol: string; total: Decimal; available: Decimal }>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const b of list) if (!b.total.isZero() || !b.available.isZero()) out[b.currencySymbol] = `${b.total.toFixed()}/${b.available.toFixed()}`;
  return out;
}

/**
 * Assert the bot's memory agrees with the exchange: open orders (ids and remaining quantities) and balances in
 * the kernel's AccountStore, every exchange order (and conditional order) of the account journaled by its client
 * id, the portfolio's position per market equal to the net fills the engine shows, and the engine's ledger
 * conserving every currency.
 */
export function expectAgreement(e2e: E2E, markets: readonly string[]): void {
  const account = e2e.kernel.live.account!;
  expect(remaining(account.openOrders())).toEqual(remaining(engineOpenOrders(e2e)));
  expect(balanceMap(account.balances().values())).toEqual(balanceMap(e2e.sim.engine.funds.balances(e2e.account).data));

  const ids = journaledIds(readJournal(e2e));
  const exchangeOrders = [...engineOpenOrders(e2e), ...engineClosedOrders(e2e)];
  const unjournaled = exchangeOrders.filter((o) => o.clientOrderId === undefined || !ids.has(o.clientOrderId)).map((o) => o.id);
  expect(unjournaled).toEqual([]);
  const conditional = [
    ...e2e.sim.engine.openConditionalOrders(e2e.account).data,
    ...e2e.sim.engine.closedConditionalOrders(e2e.account, { pageSize: 200 }),
  ];
  const unjournaledConditional = conditional.filter((c) => c.clientConditionalOrderId === undefined || !ids.has(c.clientConditionalOrderId)).map((c) => c.id);
  expect(unjournaledConditional).toEqual([]);

  for (const m of markets) expect(`${m} ${e2e.kernel.portfolio.position(m).toFixed()}`).toBe(`${m} ${netFilled(e2e, m).toFixed()}`);
  for (const a of e2e.sim.engine.ledger.audit()) expect(`${a.currency} ${a.discrepancy.toFixed()}`).toBe(`${a.currency} 0`);
}

/**
 * Quiesce and stop: the strategies stop emitting, in-flight requests settle, the market driver stops (nobody else
 * trades), the stores catch up with the last stream messages, then the kernel stops WITHOUT cancelling its open
 * orders. Afterwards the stores, journal and portfolio must still agree with the engine.
 */
export async function stopWithoutCancelling(e2e: E2E, markets: readonly string[], waitFor: (fn: () => void) => Promise<void>): Promise<void> {
  for (const s of e2e.kernel.strategies) s.stop();
  await e2e.kernel.orders.drain();
  e2e.sim.driver.stop();
  await waitFor(() => expectAgreement(e2e, markets));
  await e2e.kernel.stop({ cancelOpenOrders: false });
  expectAgreement(e2e, markets);
}
