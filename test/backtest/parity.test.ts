/**
 * Parity of the backtest with the live path. The same recorded data — the 2021 BTC-EUR hub session and its REST
 * snapshot (real service, no trades), and the shipped synthetic BTC-USD recording (with trades) — is (1) replayed
 * by the simulator server's replay driver to a bot connected over real HTTP and the hub, on the wall clock, and
 * (2) fed to the same strategy by the backtest. The strategy (fixtures/parity-probe.ts)
 * reacts to book changes only and rests one order far below the market.
 *
 * Expected: the strategy is shown the same number of books, the same market states in the same order (the full
 * top 10 levels per side, from the empty book before the recorded snapshot to the last delta), and so emits the
 * same intents. This holds because the replay driver re-enacts each recorded message (the snapshot, each delta
 * message with all the levels it names) as ONE engine transaction, published as one orderBook message — as the
 * real service sent one message per change — re-enacts a recorded trade and restores the replayed levels it took
 * in one transaction too (the recorded book already accounts for the trade, as the backtest's does), and places
 * recorded levels as recorded liquidity, so none is left out. Nothing here depends on timing: the live bot is
 * waited for until it has applied the engine's last message.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runBacktest } from '../../backtest/run-backtest.js';
import { createBittrexGateway } from '../../src/bittrex/gateway.js';
import { createThrottler } from '../../src/bittrex/rest/throttler.js';
import { systemClock } from '../../src/core/clock.js';
import { defaultRiskConfig } from '../../src/risk/risk-config.js';
import { Kernel } from '../../src/runtime/kernel.js';
import { driverConfigOf, engineConfigOf, parseSimConfig } from '../../src/runtime/sim-config.js';
import { createFundedAccount } from '../../src/server/control/control-api.js';
import { startSimServer } from '../../src/server/sim-server.js';
import { createMarketDriver } from '../../src/sim/driver/market-driver.js';
import { createSimEngine } from '../../src/sim/engine.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { createMetrics } from '../../src/telemetry/metrics.js';
import { repoPath } from '../helpers/shared.js';
import type { ParityRecord } from './fixtures/parity-probe.js';

const WS = repoPath('test', 'fixtures', 'v3-capture', 'BITTREX.ws.1.0');
const HTTP = repoPath('test', 'fixtures', 'v3-replay', 'BITTREX.http.0.0');
const MARKETS = repoPath('test', 'fixtures', 'v3-replay', 'BITTREX.0');
const SYNTHETIC = repoPath('backtest', 'data', 'synthetic-btc-usd.jsonl.gz');
const PROBE = repoPath('test', 'backtest', 'fixtures', 'parity-probe.ts');

/** One recorded data set, as the simulator's replay driver and the backtest each read it. */
interface ParityCase {
  name: string;
  market: string;
  /** The demo account's and the backtest's balances. */
  balances: Record<string, string>;
  /** sim.yaml `exchange:` lines (indented) and the replay driver's data lines. */
  exchange: string;
  driverData: string;
  /** Replay speed on the wall clock. */
  speed: number;
  /** Whether the recording has trades (the replay re-enacts them). */
  trades: boolean;
  /** Backtest `venue:` lines (indented): data and catalog. */
  venueData: string;
}

const CASES: ParityCase[] = [
  {
    // The real 2021 service: a 500-level snapshot and 140 delta messages, many naming several levels; no trades.
    name: 'the 2021 BTC-EUR capture (raw hub session and REST snapshot)',
    market: 'BTC-EUR',
    balances: { EUR: '100000', BTC: '1' },
    exchange: `  recordedMarkets: { file: ${JSON.stringify(MARKETS)}, symbols: [BTC-EUR] }\n  dustMinValueSatoshi: 0`,
    driverData: `  ws: [${JSON.stringify(WS)}]\n  http: [${JSON.stringify(HTTP)}]`,
    speed: 20,
    trades: false,
    venueData: `  data:\n    - { format: bittrex-v3-ws, path: ${JSON.stringify(HTTP)}, markets: [BTC-EUR] }\n    - { format: bittrex-v3-ws, path: ${JSON.stringify(WS)}, markets: [BTC-EUR] }\n  recordedMarkets: { file: ${JSON.stringify(MARKETS)} }`,
  },
  {
    // A rexbot recording with trades: 557 trade messages the replay re-enacts against its own liquidity.
    name: 'the shipped synthetic BTC-USD recording (25-level book and trades)',
    market: 'BTC-USD',
    balances: { USD: '100000', BTC: '1' },
    exchange: '  dustMinValueSatoshi: 0',
    driverData: `  recordings: [${JSON.stringify(SYNTHETIC)}]`,
    speed: 100,
    trades: true,
    venueData: `  data:\n    - { format: rexbot, path: ${JSON.stringify(SYNTHETIC)}, markets: [BTC-USD] }`,
  },
];

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const records = () => (globalThis as { __parity?: Record<string, ParityRecord> }).__parity ?? {};

/** The live path: replay driver -> engine -> HTTP + hub -> bot (Kernel with the network gateway), wall clock. */
async function livePath(c: ParityCase): Promise<ParityRecord> {
  const sim = parseSimConfig(
    `exchange:\n${c.exchange}\ndriver:\n  kind: replay\n${c.driverData}\n  markets: [${c.market}]\n  speed: ${c.speed}\n`,
    '<parity sim>',
    repoPath(),
  );
  const engine = createSimEngine({ clock: systemClock, config: engineConfigOf(sim) });
  let finished = false;
  const driver = createMarketDriver(engine, systemClock, driverConfigOf(sim), { onFinished: () => (finished = true) });
  const demo = createFundedAccount(engine, { balances: c.balances });
  const server = await startSimServer({ engine });
  cleanups.push(() => server.close());
  cleanups.push(() => driver.stop());
  const gateway = createBittrexGateway({
    restUrl: server.restUrl,
    hubUrl: server.hubUrl,
    transport: 'classic',
    credentials: { apiKey: demo.apiKey, apiSecret: demo.apiSecret },
    clock: systemClock,
    throttler: createThrottler({ clock: systemClock, callsPerMinute: 60_000 }),
  });
  cleanups.push(() => gateway.close());
  const dir = mkdtempSync(join(tmpdir(), 'rexbot-parity-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const kernel = await Kernel.create({
    gateway,
    clock: systemClock,
    logger: createLogger({ level: 'silent' }),
    metrics: createMetrics(),
    strategies: [{ name: 'probe', use: PROBE, markets: [c.market], params: { tag: 'live' } }],
    risk: defaultRiskConfig(),
    journalPath: join(dir, 'journal.jsonl'),
    depth: 25,
    baseDir: repoPath(),
    onStrategyFailure: 'keep',
  });
  cleanups.push(() => kernel.stop({ cancelOpenOrders: false }));
  await kernel.start();
  driver.start();
  await vi.waitFor(() => expect(finished).toBe(true), { timeout: 90_000, interval: 50 });
  // The bot has applied the last orderBook message the engine published (its depth's Sequence caught up).
  const stream = `orderbook_${c.market}_25`;
  await vi.waitFor(() => expect(kernel.live.sequence(stream)).toBe(engine.orderBook(c.market, 25).sequence), { timeout: 15_000, interval: 20 });
  // The replay ran cleanly and, where the recording has trades, re-enacted them on the engine.
  expect(driver.stats.errors).toBe(0);
  expect(driver.stats.rejected).toEqual({});
  expect(engine.trades(c.market).data.length > 0).toBe(c.trades);
  return records().live!;
}

async function backtestPath(c: ParityCase): Promise<ParityRecord> {
  const dir = mkdtempSync(join(tmpdir(), 'rexbot-parity-bt-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'parity.yaml');
  const balances = Object.entries(c.balances).map(([k, v]) => `${k}: ${v}`).join(', ');
  writeFileSync(
    file,
    `venue:\n  kind: backtest\n${c.venueData}\n  balances: { ${balances} }\nstrategies:\n  - { name: probe, use: ${JSON.stringify(PROBE)}, markets: [${c.market}], params: { tag: backtest } }\n`,
  );
  await runBacktest({ configPath: file });
  return records().backtest!;
}

describe('backtest parity with the live path (simulator replay over HTTP and the hub)', () => {
  it.each(CASES)('$name: the strategy sees the same market states in the same order and emits the same intents', async (c) => {
    const live = await livePath(c);
    const bt = await backtestPath(c);
    expect(bt.states.length).toBeGreaterThan(100);
    expect(bt.intents.length).toBeGreaterThan(5);
    expect(live.books).toBe(bt.books);
    expect(live.states).toEqual(bt.states);
    expect(live.intents).toEqual(bt.intents);
  }, 150_000);
});
