/**
 * config/sim-replay-v1.yaml: the simulator replays the real 2021 v1.1 capture (hub c2 snapshots and uE) into its
 * engine, and a v1.1 hub client of the simulator then sees those recorded books, never crossed.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { V1HubClient } from '../../src/bittrex/v1/hub/v1-hub-client.js';
import { loadSimConfig } from '../../src/runtime/sim-config.js';
import { startSimulator, type RunningSimulator } from '../../src/runtime/simulator.js';
import { repoPath } from '../helpers/shared.js';

let sim: RunningSimulator | undefined;
const clients: V1HubClient[] = [];
afterAll(async () => {
  for (const c of clients) await c.close();
  await sim?.stop();
});

describe('config/sim-replay-v1.yaml', () => {
  it('replays the v1.1 capture into the engine, served back over hub c2', async () => {
    sim = await startSimulator(loadSimConfig(repoPath('config/sim-replay-v1.yaml')), { env: {} });
    const engine = sim.engine;
    await vi.waitFor(() => expect(engine.orderBook('UNI-EUR', 500).data.bid.length).toBeGreaterThan(10), { timeout: 20_000 });
    const client = new V1HubClient({ url: sim.server.hubUrl });
    clients.push(client);
    await client.connect();
    const state = await client.queryExchangeState('EUR-UNI');
    expect(state.Buys.length).toBeGreaterThan(10);
    expect(state.Buys[0]!.Rate.lt(state.Sells[0]!.Rate)).toBe(true);
    // The recorded best bid of the capture's EUR-UNI snapshot (29.548) is the replayed book's, or a later one.
    expect(state.Buys[0]!.Rate.toNumber()).toBeGreaterThan(25);
  }, 40_000);
});
