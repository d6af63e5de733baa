/**
 * The network gateway (REST + hub) against the ExchangeGateway conformance suite, over loopback to rexbot's
 * simulator server: once with the classic SignalR hub the service spoke, once with the ASP.NET Core flavour.
 */
import { createBittrexGateway } from '../../src/bittrex/gateway.js';
import { createThrottler } from '../../src/bittrex/rest/throttler.js';
import { createFundedAccount } from '../../src/server/control/control-api.js';
import { startSimServer } from '../../src/server/sim-server.js';
import { createConformanceEngine, describeGatewayConformance } from './gateway-conformance.js';

for (const transport of ['classic', 'core'] as const) {
  describeGatewayConformance(`Bittrex gateway (${transport} hub) to the simulator server`, async () => {
    const engine = createConformanceEngine();
    const server = await startSimServer({ engine });
    const { accountId, apiKey, apiSecret } = createFundedAccount(engine, {});
    const gateway = createBittrexGateway({
      restUrl: server.restUrl,
      hubUrl: transport === 'classic' ? server.hubUrl : server.coreHubUrl,
      transport,
      credentials: { apiKey, apiSecret },
      // The suite makes a few dozen calls a test; the service's 60 a minute is the throttler's business elsewhere.
      throttler: createThrottler({ callsPerMinute: 100_000 }),
    });
    return {
      gateway,
      engine,
      accountId,
      async close() {
        await gateway.close();
        await server.close();
        engine.dispose();
      },
    };
  });
}
