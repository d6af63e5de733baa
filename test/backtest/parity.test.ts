/**
 * Parity of the backtest with the live path. The same recorded capture (the 2021 BTC-EUR hub session and its REST
 * snapshot) is (1) replayed by the simulator server's replay driver to a bot connected over real HTTP and the
 * hub, on the wall clock, and (2) fed to the same strategy by the backtest. The strategy (fixtures/parity-probe.ts)
 * reacts to book changes only and rests one order far below the market.
 *
 * Expected: every market state the backtest showed the strategy, the live bot saw too, in the same order, and the
 * two end in the same state; so do the strategy's intents (and intents that ignore transient states are the same
 * list). The live bot may see MORE states: the
 * replay driver re-enacts one recorded level change as a cancel and a new order, two engine operations, and the
 * bot sees the book between them; the backtest applies the recorded change at once. States are the top 10 levels
 * the engine can show (the probe leaves out levels below minTradeSize or finer than the market's precision, which
 * the replay driver cannot place).
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
  // The bot has seen everything the engine published.
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

/** True when `sub` appears in `seq` in order (not necessarily contiguously). */
function isSubsequence(sub: readonly string[], seq: readonly string[]): { ok: boolean; at: number } {
  let j = 0;
  for (let i = 0; i < seq.length && j < sub.length; i++) if (seq[i] === sub[j]) j++;
  return { ok: j === sub.length, at: j };
}

describe('backtest parity with the live path (simulator replay over HTTP and the hub)', () => {
  it('the strategy sees the same market states in the same order and emits the same intents', async () => {
    const live = await livePath();
    const bt = await backtestPath();
    expect(bt.states.length).toBeGreaterThan(50);
    const sub = isSubsequence(bt.states, live.states);
    expect({ ok: sub.ok, matched: sub.at, of: bt.states.length, next: bt.states[sub.at]?.slice(0, 200) }).toMatchObject({ ok: true });
    expect(live.states[live.states.length - 1]).toBe(bt.states[bt.states.length - 1]);
    // Intents follow the states: the backtest's, in order, are among the live bot's, which ends on the same one.
    // A transient live state (between the replay's cancel and new order of one level) can add an intent there;
    // intents insensitive to such states (the coarse rounding) are the same list.
    expect(bt.intents.length).toBeGreaterThan(5);
    expect(isSubsequence(bt.intents, live.intents).ok).toBe(true);
    expect(live.intents[live.intents.length - 1]).toBe(bt.intents[bt.intents.length - 1]);
    expect(live.coarse).toEqual(bt.coarse);
  }, 120_000);
});
