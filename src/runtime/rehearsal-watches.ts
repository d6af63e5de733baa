/**
 * The watches of `rexbot validate`'s rehearsal on the wall clock, as one: the global timers (real-timer-watch.ts)
 * and the clock reads (clock-read-watch.ts), started together and stopped together. `rexbot validate` starts them
 * before it loads the strategy plugins, so a plugin's top-level code (`const started = Date.now()`, a
 * `setInterval` at import) is seen, and a reference it saves there (`const now = Date.now`) is the watched
 * function; the rehearsal (dry-run.ts) starts its own when nobody did. Nothing here runs in a backtest or a live
 * bot.
 */
import { resolveStrategyPath } from '../strategy/load-strategy.js';
import { watchClockReads, type ClockReadWatch } from './clock-read-watch.js';
import { watchRealTimers, type RealTimerWatch } from './real-timer-watch.js';

/** Both watches; see {@link startRehearsalWatches}. */
export interface RehearsalWatches {
  readonly timers: RealTimerWatch;
  readonly reads: ClockReadWatch;
  /** Put every global back (Date, its functions, the timers) and clear the strategies' pending timers. Idempotent. */
  stop(): void;
}

/**
 * Start both watches; `plugins` maps each plugin file to the strategy running it ({@link rehearsedPlugins}). All or
 * nothing: when the clock watch cannot start, the timer watch is stopped again before this throws.
 *
 * @example
 * const watches = startRehearsalWatches(rehearsedPlugins(cfg.strategies, baseDir));
 * try { await loadBotPlugins(cfg); await dryRun(cfg, { watches }); } finally { watches.stop(); }
 */
export function startRehearsalWatches(plugins: ReadonlyMap<string, string>): RehearsalWatches {
  const timers = watchRealTimers(plugins);
  let reads: ClockReadWatch;
  try {
    reads = watchClockReads(plugins);
  } catch (err) {
    timers.stop();
    throw err;
  }
  return {
    timers,
    reads,
    stop() {
      reads.stop();
      timers.stop();
    },
  };
}

/**
 * Each enabled strategy's plugin file and the (first) strategy running it, to name a plugin's timers and reads made
 * outside every strategy's scope (at import, or in a callback no scope reached).
 */
export function rehearsedPlugins(strategies: readonly { name: string; use: string; enabled: boolean }[], baseDir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const s of strategies) {
    if (!s.enabled) continue;
    try {
      const file = resolveStrategyPath(s.use, { baseDir });
      if (!files.has(file)) files.set(file, s.name);
    } catch {
      // Not resolvable here: loading the plugin says so, with the reason.
    }
  }
  return files;
}
