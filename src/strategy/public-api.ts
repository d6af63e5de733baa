/**
 * `rexbot/strategy`: everything a strategy plugin needs, and nothing of the runtime (servers, gateways, CLI), so
 * a plugin loads fast and its author reads one list. The package root (`rexbot`) exports all of this too.
 *
 * @example
 * import { defineStrategy, decimalParam, dec, RSI, z, type Intent } from 'rexbot/strategy';
 * import { filter, map } from 'rxjs';
 */
export { z } from 'zod';
export { Decimal, dec, ZERO, ONE, parseDecimal, type DecimalInput } from '../core/decimal.js';
export type { Clock, TimerHandle } from '../core/clock.js';
export * from '../model/index.js';
export type { OrderEvent } from '../orders/order-events.js';
export type { ReadonlyOrderBook } from '../store/order-book.js';
export type { MarketEvent, ReadonlyMarketStore } from '../store/market-store.js';
export type { Logger } from '../telemetry/logger.js';
export {
  defineStrategy,
  isStrategyDefinition,
  type StrategyDefinition,
  type StrategyParams,
  type StrategySpec,
  type VenueFeature,
} from './define-strategy.js';
export { decimalParam, type DecimalParamOptions } from './params.js';
export { roundRate, type RoundingMode } from './price-rounding.js';
export { crossDirection, highest, lowest, sma, type Cross } from './indicators.js';
export { EMA, MACD, RSI, SMA, type MacdValue, type NumericInput } from './streaming-indicators.js';
export { ATR, BollingerBands, closedCandles, VWAP, type BollingerValue, type HighLowClose } from './band-indicators.js';
export type { ReadonlyAccountView } from './read-only-views.js';
export type { FillEvent, StrategyContext, StrategyPositions } from './strategy-context.js';
export type { StrategyIntent, StrategyStatus } from './strategy-runner.js';
export { StrategyFailure, type StrategyPhase } from './strategy-errors.js';
