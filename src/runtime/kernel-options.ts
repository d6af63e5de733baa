/** What the `Kernel` is built from and stopped with (kernel.ts). */
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { ExchangeGateway } from '../gateway/exchange-gateway.js';
import type { CandleInterval } from '../model/enums.js';
import type { JournalFs } from '../orders/journal-appender.js';
import type { RiskConfig } from '../risk/risk-config.js';
import type { StrategyFailure } from '../strategy/strategy-errors.js';
import type { Metrics } from '../telemetry/metrics.js';

/** One strategy instance as the kernel runs it. */
export interface StrategyEntry {
  name: string;
  use: string;
  markets: readonly string[];
  params?: unknown;
}

/** Options of `Kernel.create`. */
export interface KernelOptions {
  gateway: ExchangeGateway;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  strategies: readonly StrategyEntry[];
  risk: RiskConfig;
  /** Journal file (append-only, fsynced). */
  journalPath: string;
  /**
   * Compact the journal at start and whenever it reaches this many bytes while running; 0 never compacts.
   * Default {@link DEFAULT_JOURNAL_COMPACT_BYTES}.
   */
  journalCompactBytes?: number;
  /** Append each journal a compaction replaces to this file (an audit trail; default: none). */
  journalHistoryPath?: string | undefined;
  /** fsync the journal's durable appends (default true; a backtest has nothing to recover and turns it off). */
  journalFsync?: boolean;
  /** The journal's file calls (default node:fs); tests inject a full disk here. */
  journalFs?: JournalFs;
  /** Order book depth kept per market. */
  depth: 1 | 25 | 500;
  /**
   * Candle intervals kept per market for strategies' `candles$` (a series nobody synchronizes never emits).
   * Default: every interval.
   */
  candleIntervals?: readonly CandleInterval[];
  /** Where relative plugin paths resolve. */
  baseDir: string;
  /**
   * Set strategies up from plugin modules no earlier kernel of this process used, so state a plugin keeps at its
   * top level starts anew (a backtest: see `LoadStrategyOptions.run`); this kernel's strategies naming one plugin
   * share one instance, as live. Default false: one instance per process.
   */
  freshPluginModules?: boolean;
  /** A failed strategy's open orders: cancelled or left alone. */
  onStrategyFailure: 'cancel' | 'keep';
  /**
   * Called once when no strategy is running any more and at least one of them failed: the bot has nothing
   * working left. The runtime decides (stop, or keep running); the kernel only reports it.
   */
  onAllStrategiesFailed?: ((failures: readonly StrategyFailure[]) => void) | undefined;
  /** How long start() waits for every stream to be live before giving up. Default 30 s. */
  liveTimeoutMs?: number;
  /**
   * clientOrderId generator (default random UUIDs). A backtest passes a seeded one so that two runs write the
   * same journal; live bots keep the default, since ids must never repeat across runs.
   */
  newId?: () => string;
}

/**
 * Journal size that triggers a compaction while running, unless configured: 16 MiB. Compaction is synchronous (the
 * journal must not change under it), and its pause grows with the journal (~100 ms for 200k records, ~30 MB, in
 * `npm run bench -- --only journal-compact`): a smaller threshold means shorter, more frequent pauses.
 */
export const DEFAULT_JOURNAL_COMPACT_BYTES = 16 * 1024 * 1024;

/** Options of `Kernel.stop`. */
export interface StopOptions {
  cancelOpenOrders: boolean;
}
