/**
 * One simulator server with a liquid BTC-USD book, a funded user whose key works on v1.1 and v3, and both of
 * rexbot's clients for that key. The engine runs on the system clock (clients sign with wall-clock nonces) with
 * short wallet delays so addresses and withdrawals progress within a poll.
 */
import { systemClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { createRestClient, type RestClient } from '../../../src/bittrex/rest/index.js';
import { createV1RestClient, type V1RestClient } from '../../../src/bittrex/v1/rest/index.js';
import { createFundedAccount } from '../../../src/server/control/control-api.js';
import { startSimServer, type SimServer } from '../../../src/server/sim-server.js';
import { defaultSimConfig } from '../../../src/sim/config.js';
import { createSimEngine, type SimEngine } from '../../../src/sim/engine.js';

/** What a v1.1 test works with. */
export interface V1World {
  engine: SimEngine;
  sim: SimServer;
  user: { accountId: string; apiKey: string; apiSecret: string };
  v1: V1RestClient;
  v3: RestClient;
  close(): Promise<void>;
}

/** Start the world. `callsPerMinute` turns the server's call limit on. */
export async function startV1World(opts: { callsPerMinute?: number; v1ResultShapes?: 'service' | 'document' } = {}): Promise<V1World> {
  const engine = createSimEngine({ clock: systemClock, config: defaultSimConfig({ addressProvisionDelayMs: 50, withdrawalStepMs: 50 }) });
  const sim = await startSimServer({ engine, ...(opts.callsPerMinute ? { callsPerMinute: opts.callsPerMinute } : {}), ...(opts.v1ResultShapes ? { v1ResultShapes: opts.v1ResultShapes } : {}) });
  const maker = engine.createParticipant({ BTC: dec('10'), USD: dec('1000000') });
  const taker = engine.createParticipant({ BTC: dec('10'), USD: dec('1000000') });
  for (const [rate, direction] of [['30000', 'SELL'], ['30010', 'SELL'], ['29990', 'BUY'], ['29980', 'BUY']] as const) {
    engine.placeOrder(maker, { marketSymbol: 'BTC-USD', direction, type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.5'), limit: dec(rate) });
  }
  engine.placeOrder(taker, { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.1'), limit: dec('30000') });
  engine.placeOrder(taker, { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.1'), limit: dec('29990') });
  const user = createFundedAccount(engine, { balances: { USD: '100000', BTC: '1' } });
  const credentials = { apiKey: user.apiKey, apiSecret: user.apiSecret };
  const v1 = createV1RestClient({ baseUrl: sim.restV1Url, credentials });
  const v3 = createRestClient({ baseUrl: sim.restUrl, credentials });
  return {
    engine,
    sim,
    user: { accountId: user.accountId, apiKey: user.apiKey, apiSecret: user.apiSecret },
    v1,
    v3,
    async close() {
      await v1.close();
      await v3.close();
      await sim.close();
      engine.dispose();
    },
  };
}
