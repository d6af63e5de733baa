/**
 * Parity of the backtest with the live path. The same recorded capture (the 2021 BTC-EUR hub session and its REST
 * snapshot) is (1) replayed by the simulator server's replay driver to a bot connected over real HTTP and the
 * hub, on the wall clock, and (2) fed to the same strategy by the backtest. The strategy (fixtures/parity-probe.ts)
 * reacts to book changes only and rests one order far below the market.
 *
 * Expected: the strategy is shown the same number of books, the same market states in the same order (the full
 * top 10 levels per side, from the empty book before the recorded snapshot to the last delta), and so emits the
 * same intents. This holds because the replay driver re-enacts each recorded message (the snapshot, each delta
 * message with all the levels it names) as ONE engine transaction, published as one orderBook message — as the
 * real service sent one message per change — and places recorded levels as recorded liquidity, so none is left
 * out. Nothing here depends on timing: the live bot is waited for until it has applied the engine's last message.
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
const PROBE = repoPath('test', 'backtest', 'fixtures', 'parity-probe.ts');

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const records = () => (globalThis as { __parity?: Record<string, ParityRecord> }).__parity ?? {};

/** The live path: replay driver -> engine -> HTTP + hub -> bot (Kernel with the network gateway), wall clock. */
async function livePath(): Promise<ParityRecord> {
  const sim = parseSimConfig(
    `exchange:
  recordedMarkets: { file: ${JSON.stringify(MARKETS)}, symbols: [BTC-EUR] }
  dustMinValueSatoshi: 0
driver:
  kind: replay
  ws: [${JSON.stringify(WS)}]
  http: [${JSON.stringify(HTTP)}]
  markets: [BTC-EUR]
  speed: 20
`,
    '<parity sim>',
    repoPath(),
  );
  const engine = createSimEngine({ clock: systemClock, config: engineConfigOf(sim) });
  let finished = false;
  const driver = createMarketDriver(engine, systemClock, driverConfigOf(sim), { onFinished: () => (finished = true) });
  const demo = createFundedAccount(engine, { balances: { EUR: '100000', BTC: '1' } });
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
    strategies: [{ name: 'probe', use: PROBE, markets: ['BTC-EUR'], params: { tag: 'live' } }],
    risk: defaultRiskConfig(),
    journalPath: join(dir, 'journal.jsonl'),
    depth: 25,
    baseDir: repoPath(),
    onStrategyFailure: 'keep',
  });
  cleanups.push(() => kernel.stop({ cancelOpenOrders: false }));
  await kernel.start();
  driver.start();
  await vi.waitFor(() => expect(finished).toBe(true), { timeout: 60_000, interval: 50 });
  // The bot has applied the last orderBook message the engine published (its depth's Sequence caught up).
  await vi.waitFor(() => expect(kernel.live.sequence('orderbook_BTC-EUR_25')).toBe(engine.orderBook('BTC-EUR', 25).sequence), { timeout: 15_000, interval: 20 });
  return records().live!;
}

async function backtestPath(): Promise<ParityRecord> {
  const dir = mkdtempSync(join(tmpdir(), 'rexbot-parity-bt-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'parity.yaml');
  writeFileSync(
    file,
    `venue:
  kind: backtest
  data:
    - { format: bittrex-v3-ws, path: ${JSON.stringify(HTTP)}, markets: [BTC-EUR] }
    - { format: bittrex-v3-ws, path: ${JSON.stringify(WS)}, markets: [BTC-EUR] }
  recordedMarkets: { file: ${JSON.stringify(MARKETS)} }
  balances: { EUR: 100000, BTC: 1 }
strategies:
  - { name: probe, use: ${JSON.stringify(PROBE)}, markets: [BTC-EUR], params: { tag: backtest } }
`,
  );
  await runBacktest({ configPath: file });
  return records().backtest!;
}

describe('backtest parity with the live path (simulator replay over HTTP and the hub)', () => {
  it('the strategy sees the same market states in the same order and emits the same intents', async () => {
    const live = await livePath();
    const bt = await backtestPath();
    expect(bt.states.length).toBeGreaterThan(100);
    expect(bt.intents.length).toBeGreaterThan(5);
    expect(live.books).toBe(bt.books);
    expect(live.states).toEqual(bt.states);
    expect(live.intents).toEqual(bt.intents);
  }, 120_000);
});
