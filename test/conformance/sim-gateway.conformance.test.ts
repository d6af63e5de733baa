/**
 * The in-process gateway (backtests, fast kernel tests) against the ExchangeGateway conformance suite: it must
 * answer exactly what the network gateway answers over the simulator server.
 */
import { createSimGateway } from '../../src/gateway/sim-gateway.js';
import { createConformanceEngine, describeGatewayConformance } from './gateway-conformance.js';

describeGatewayConformance('in-process sim gateway', async () => {
  const engine = createConformanceEngine();
  const accountId = engine.createParticipant();
  const gateway = createSimGateway(engine, accountId);
  return {
    gateway,
    engine,
    accountId,
    async close() {
      await gateway.close();
      engine.dispose();
    },
  };
});
