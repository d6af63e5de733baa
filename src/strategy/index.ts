/**
 * The strategy API: what plugin authors import (defineStrategy, params helpers, indicators, rounding) and what
 * the runtime uses (context, loader, runner). `z` is re-exported so a plugin can declare its params schema with
 * the same zod instance rexbot validates with.
 *
 * @example
 * import { defineStrategy, decimalParam, z } from 'rexbot/strategy'; // in a plugin
 */
export { z } from 'zod';
export { clockScheduler } from './clock-scheduler.js';
export {
  defineStrategy,
  isStrategyDefinition,
  parseStrategyParams,
  STRATEGY_DEFINITION,
  STRATEGY_NAME_PATTERN,
  type StrategyDefinition,
  type StrategyParams,
  type StrategySpec,
  type VenueFeature,
} from './define-strategy.js';
export { guardClock, type GuardedClock } from './guarded-clock.js';
export { crossDirection, highest, lowest, sma, type Cross } from './indicators.js';
export { EMA, MACD, RSI, SMA, type MacdValue, type NumericInput } from './streaming-indicators.js';
export { ATR, BollingerBands, closedCandles, VWAP, type BollingerValue, type HighLowClose } from './band-indicators.js';
export {
  availableStrategies,
  isPathReference,
  loadConfiguredStrategy,
  loadStrategy,
  REPO_STRATEGIES_DIR,
  resolveStrategyPath,
  STRATEGY_EXTENSIONS,
  type ConfiguredStrategy,
  type LoadedStrategy,
  type LoadStrategyOptions,
} from './load-strategy.js';
export { decimalParam, formatIssue, parseParams, type DecimalParamOptions, type ParamsSource } from './params.js';
export { roundRate, type RoundingMode } from './price-rounding.js';
export { readonlyAccountView, readonlyMarketView, type ReadonlyAccountView } from './read-only-views.js';
export {
  contextLifecycle,
  CONTEXT_LIFECYCLE,
  createStrategyContext,
  type FillEvent,
  type StrategyContext,
  type StrategyContextDeps,
  type StrategyContextLifecycle,
  type StrategyPositions,
} from './strategy-context.js';
export {
  describeError,
  InvalidIntentError,
  PluginError,
  pluginLabel,
  StrategyFailure,
  type ParamsIssue,
  type PluginErrorCode,
  type StrategyPhase,
} from './strategy-errors.js';
export { runStrategy, type RunningStrategy, type StrategyIntent, type StrategyStatus } from './strategy-runner.js';
