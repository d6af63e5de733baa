/**
 * The risk engine's public state types: its trading-state changes, its counts, and what its limits carry over a
 * restart (see risk-engine.ts).
 */
import type { Decimal } from '../core/decimal.js';
import type { TradingState } from './risk-context.js';

/** A trading state change (and the current state on subscription). */
export interface TradingStateChange {
  state: TradingState;
  reason: string;
  /** Clock time of the change. */
  at: number;
}

/** Counts since the engine started. */
export interface RiskStats {
  evaluated: number;
  approved: number;
  denied: number;
  /** Denials per reason code (an order denied for two reasons counts under both). */
  denialsByReason: Record<string, number>;
}

/** Why the current restriction is in place (decides how it may be lifted). */
export type RestrictionCause = 'manual' | 'dailyLoss' | 'drawdown';

/**
 * What the limits need to survive a restart exactly (`RiskEngine.limitState()`, journaled by the kernel and
 * given back to `RiskEngine.restoreLimits()`): the drawdown peak, the UTC day the engine last saw, the
 * daily-loss baseline a resume set, and the restriction in force with its cause.
 */
export interface RiskLimitState {
  /** Equity the drawdown counts from (the highest seen, or the equity at the last resume). */
  peak: Decimal;
  /** UTC day of the last evaluation (a daily-loss REDUCING ends when it changes). */
  day: number;
  /** The daily-loss baseline `RiskEngine.resume()` set, for its UTC day. */
  resumeBase?: { day: number; equity: Decimal } | undefined;
  state: TradingState;
  /** Why `state` is not ACTIVE. */
  cause?: RestrictionCause | undefined;
  reason: string;
}
