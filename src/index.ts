/**
 * rexbot's public API: what strategy plugins, bot embedders and API-client users import.
 *
 * @example
 * import { defineStrategy, z, dec } from 'rexbot';
 * export default defineStrategy({
 *   name: 'my-strategy',
 *   params: z.strictObject({ size: z.number().positive().default(0.01) }),
 *   setup: (ctx) => ctx.every(1000).pipe(map(() => ({ kind: 'cancelAll', key: 'tidy' }))),
 * });
 */
export * from './strategy/index.js';
export * from './model/index.js';
export { Decimal, dec, ZERO, ONE, parseDecimal } from './core/decimal.js';
export { systemClock, VirtualClock, type Clock, type TimerHandle } from './core/clock.js';
export { ApiError, NetworkError, TimeoutError, WireFormatError, ValidationError, RexbotError } from './core/errors.js';
export { createRestClient, type RestClient, type RestClientOptions } from './bittrex/rest/client.js';
export { createThrottler, type Throttler } from './bittrex/rest/throttler.js';
export { createSharedThrottler, type SharedThrottler, type SharedThrottlerOptions } from './bittrex/rest/shared-throttler.js';
export { signRequest, signHubAuth, type Credentials } from './bittrex/rest/auth.js';
export { createBittrexGateway, type BittrexGateway, type BittrexGatewayOptions } from './bittrex/gateway.js';
export { createHubClient } from './bittrex/hub/hub-client.js';
export type { ExchangeGateway, GatewayStreams, Snapshot } from './gateway/exchange-gateway.js';
export { createLiveData, type LiveData } from './sync/live-data.js';
export { MarketStore } from './store/market-store.js';
export { AccountStore } from './store/account-store.js';
export { Kernel, type KernelOptions } from './runtime/kernel.js';
export { runBot, type RunningBot } from './runtime/bot-runner.js';
export { loadBotConfig, botConfigSchema, type BotConfig } from './runtime/bot-config.js';
export { startSimulator, type RunningSimulator } from './runtime/simulator.js';
export { createSimEngine, SimEngine } from './sim/engine.js';
export { startSimServer, type SimServer } from './server/sim-server.js';
export type { OrderEvent } from './orders/order-events.js';
export { RiskEngine } from './risk/risk-engine.js';
export { Portfolio } from './portfolio/portfolio.js';
