/** The risk engine's public surface: the engine, its config and schema, the check type and every check. */
export { DEFAULT_CHECKS, RiskEngine, type RiskStats, type TradingStateChange } from './risk-engine.js';
export type { CheckContext, CheckResult, RiskCheck, RiskContext, TradingState } from './risk-context.js';
export {
  defaultRiskConfig,
  limitFor,
  parseRiskConfig,
  RISK_CHECK_NAMES,
  riskConfigSchema,
  type MarketLimits,
  type RiskCheckName,
  type RiskConfig,
  type RiskConfigInput,
  type RoundingPolicy,
} from './risk-config.js';
export { estimateFill, midOf, reason, type FillEstimate } from './order-value.js';
export { availableBalanceCheck } from './checks/available-balance.js';
export { dustCheck } from './checks/dust.js';
export { marketOnlineCheck } from './checks/market-online.js';
export { maxNotionalCheck } from './checks/max-notional.js';
export { maxOpenOrdersCheck } from './checks/max-open-orders.js';
export { maxPositionCheck } from './checks/max-position.js';
export { minTradeSizeCheck } from './checks/min-trade-size.js';
export { precisionCheck } from './checks/precision.js';
export { priceBandCheck } from './checks/price-band.js';
export { streamLiveCheck } from './checks/stream-live.js';
export { submitRateCheck } from './checks/submit-rate.js';
export { confirmedReducing, tradingStateCheck } from './checks/trading-state.js';
export { maxBase, pendingExposure, pendingReserve, reserveOf, type PendingOrder, type PricedOrder } from './order-reserve.js';
export { LimitsKeeper, restoreLimitState, type LimitsSnapshot } from './limits-keeper.js';
