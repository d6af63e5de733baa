/**
 * Says when the process could not run for a while. A strategy's handler that computes for seconds (or any other
 * synchronous work) holds every timer, stream, order and summary of the bot, and nothing else would say so: the
 * summaries only came late (found by a robustness pass: a handler blocking 8 s every 5 s, no line about it).
 */
import type { Logger } from 'pino';

/** Options of {@link watchStalls}. */
export interface StallWatchOptions {
  logger: Pick<Logger, 'warn'>;
  /** Lateness of a tick that is reported; default 2000 ms. */
  thresholdMs?: number;
  /** Tick interval; default 500 ms. */
  intervalMs?: number;
  /** Monotonic milliseconds (tests give their own). */
  now?: () => number;
  /** Run `tick` every `ms` of real time (tests give their own); default an unref'd setInterval. */
  every?: (tick: () => void, ms: number) => { cancel(): void };
}

/**
 * Tick every `intervalMs` and warn when a tick comes `thresholdMs` or more late: how long the process was held.
 *
 * @example
 * const stalls = watchStalls({ logger });
 * // ... later
 * stalls.stop();
 */
export function watchStalls(opts: StallWatchOptions): { stop(): void } {
  const interval = opts.intervalMs ?? 500;
  const threshold = opts.thresholdMs ?? 2000;
  const now = opts.now ?? (() => performance.now());
  const every =
    opts.every ??
    ((tick: () => void, ms: number) => {
      const t = setInterval(tick, ms);
      t.unref();
      return { cancel: () => clearInterval(t) };
    });
  let last = now();
  const handle = every(() => {
    const t = now();
    const late = t - last - interval;
    last = t;
    if (late >= threshold) {
      opts.logger.warn(
        { blockedMs: Math.round(late) },
        `event loop blocked for ${(late / 1000).toFixed(1)} s: synchronous work (a strategy's handler?) held the bot; timers, streams and orders waited`,
      );
    }
  }, interval);
  return { stop: () => handle.cancel() };
}
