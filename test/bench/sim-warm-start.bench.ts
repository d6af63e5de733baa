/**
 * 'sim-warm-start': how long `rexbot sim` (startSimulator with the defaults of config/sim.yaml: four synthetic
 * markets) takes from call to ready line with a day of generated history (historyHours 24: ~7,000 trades a
 * market loaded into trades, summary and candles), against the same start with no history in the same run.
 */
import { parseSimConfig } from '../../src/runtime/sim-config.js';
import { startSimulator } from '../../src/runtime/simulator.js';
import { type Bench, percentile } from './harness.js';

async function startMs(historyHours: number): Promise<number> {
  const cfg = parseSimConfig(`driver: { kind: synthetic, seed: 42, markets: [BTC-USD, ETH-USD, ETH-BTC, BTC-USDT], historyHours: ${historyHours} }\n`, '<bench>');
  const t0 = performance.now();
  const sim = await startSimulator(cfg, { port: 0, env: {} });
  const ms = performance.now() - t0;
  await sim.stop();
  return ms;
}

export const benches: Bench[] = [
  {
    name: 'sim-warm-start',
    async run() {
      await startMs(24); // warm the module cache and JIT
      const warm: number[] = [];
      const cold: number[] = [];
      for (let i = 0; i < 5; i++) {
        warm.push(await startMs(24));
        cold.push(await startMs(0));
      }
      const value = percentile(warm, 50);
      const baseline = percentile(cold, 50);
      return [{ bench: 'sim-warm-start', value, unit: 'ms', baseline, note: 'median start to ready with 24 h of history; baseline: no history' }];
    },
  },
];
