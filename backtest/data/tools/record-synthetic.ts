/**
 * Make `backtest/data/synthetic-btc-usd.jsonl.gz`: a rexbot recording of rexbot's own synthetic market, written by
 * the real recorder (`rexbot record`'s code) over real hub and REST connections to a simulator server, with the
 * simulator, its market and the recorder all on one VirtualClock, so ten simulated minutes take seconds and the
 * file is the same every time it is made.
 *
 *     node --import tsx backtest/data/tools/record-synthetic.ts [out.jsonl.gz] [minutes]
 *
 * Why it exists: the real 2021 capture that also ships has no trades in its 90 seconds, so resting orders in an
 * example backtest could never fill from it. Synthetic data is rexbot's own (MIT, like the code).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VirtualClock } from '../../../src/core/clock.js';
import { createThrottler } from '../../../src/bittrex/rest/throttler.js';
import { createRecorder } from '../../../src/recorder/recorder.js';
import { driverConfigOf, engineConfigOf, parseSimConfig } from '../../../src/runtime/sim-config.js';
import { startSimServer } from '../../../src/server/sim-server.js';
import { createMarketDriver } from '../../../src/sim/driver/market-driver.js';
import { createSimEngine } from '../../../src/sim/engine.js';

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? join(here, '..', 'synthetic-btc-usd.jsonl.gz');
const minutes = Number(process.argv[3] ?? 10);
const MARKET = 'BTC-USD';
const CHANNELS = [`orderbook_${MARKET}_25`, `trade_${MARKET}`, `ticker_${MARKET}`];
const STEP_MS = 100;

// A lively BTC-USD: the default makers around a random walk, takers about once a second.
const simCfg = parseSimConfig(
  [
    'exchange: { markets: [BTC-USD], fees: { maker: "0.0035", taker: "0.0035" } }',
    'driver:',
    '  kind: synthetic',
    '  seed: 2024',
    '  markets: [BTC-USD]',
    '  tickMs: 200',
    '  volatilityPerSqrtSecond: 0.0004',
    '  takers: { ratePerMinute: 60 }',
  ].join('\n'),
  '<record-synthetic>',
);
const clock = new VirtualClock(Date.UTC(2024, 0, 15, 12, 0, 0));
const engine = createSimEngine({ clock, config: engineConfigOf(simCfg) });
const driver = createMarketDriver(engine, clock, driverConfigOf(simCfg));
const server = await startSimServer({ engine, hubClock: clock, callsPerMinute: 0 });
driver.start();
await clock.advance(5_000); // the makers build their books before the recording starts

const recorder = createRecorder({
  hubUrl: server.hubUrl,
  restUrl: server.restUrl,
  transport: 'classic',
  channels: CHANNELS,
  out,
  clock,
  throttler: createThrottler({ clock, callsPerMinute: 1_000_000 }),
});
await recorder.start();

/** Let real socket traffic flow until the recording has caught up with the engine (a condition, not a delay). */
async function caughtUp(): Promise<void> {
  const truth = () => ({ [CHANNELS[0]!]: engine.orderBook(MARKET, 25).sequence, [CHANNELS[1]!]: engine.trades(MARKET).sequence });
  for (let i = 0; ; i++) {
    if (Object.entries(truth()).every(([c, s]) => recorder.synced(c) === s)) return;
    if (i > 100_000) throw new Error(`the recorder did not catch up: ${JSON.stringify(truth())}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

for (let t = 0; t < minutes * 60_000; t += STEP_MS) {
  await clock.advance(STEP_MS);
  await caughtUp();
}
const stats = await recorder.stop();
driver.stop();
await server.close();
engine.dispose();
process.stdout.write(`${out}: ${stats.messages} messages, ${stats.snapshots} snapshots, ${minutes} simulated minutes\n`);
