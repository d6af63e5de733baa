/**
 * The hubs' reconnect loop (the v3 hub client's and the v1.1 gateway streams'): back off on the clock, try a fresh
 * connection, repeat until one is up or the run it belongs to is over. Kept apart from the clients so the loop's
 * order of steps, and what it logs, read in one place and are the same for both hubs.
 */
import type { Clock, TimerHandle } from '../../core/clock.js';
import type { HubLogger } from './hub-client-types.js';

/** A wait on the clock that stop() can cut short. */
export class BackoffSleep {
  readonly #clock: Clock;
  #pending: { timer: TimerHandle; wake: (go: boolean) => void } | undefined;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Resolves true after `ms`, or false when {@link BackoffSleep.interrupt} cut the wait short. */
  sleep(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = this.#clock.setTimeout(() => {
        this.#pending = undefined;
        resolve(true);
      }, ms);
      this.#pending = { timer, wake: resolve };
    });
  }

  /** End the current wait (if any) with false. */
  interrupt(): void {
    this.#pending?.timer.cancel();
    this.#pending?.wake(false);
    this.#pending = undefined;
  }
}

/** What one reconnect loop needs from its client. */
export interface ReconnectLoopSteps {
  /** Whether the loop's run is still the client's current one (stop() or a new start() ends it). */
  current(): boolean;
  /** The next backoff delay. */
  delayMs(): number;
  sleep(ms: number): Promise<boolean>;
  /** Report attempt number `attempt`, and why the connection is being made again. */
  status(attempt: number, reason: string): void;
  /** Make and set up a connection; throws when it fails. */
  connect(attempts: number): Promise<void>;
  /** Report a failed attempt (besides the log line the loop writes); returns the reason the next attempt reports. */
  failed(error: Error, attempt: number): string;
  /** Where the loop says each retry's delay and each failed attempt. */
  log: HubLogger;
}

/**
 * Back off, connect, repeat until a connection is up or the run is over.
 *
 * Logs `hub reconnecting` {attempt, delay, reason} before each wait, so an operator reading the log learns when the
 * next attempt comes and why as soon as the wait starts (not only after it failed, and also for the attempt that
 * then succeeds), and `hub reconnect attempt failed` {attempt, reason, error} after a failed one; the next wait's
 * line follows it with the grown delay.
 *
 * @example
 * void reconnectLoop('closed', { current, delayMs: () => policy.nextDelayMs(), sleep: (ms) => backoff.sleep(ms),
 *   status: () => undefined, connect: () => open(), failed: (e) => e.message, log: logger });
 */
export async function reconnectLoop(reason: string, steps: ReconnectLoopSteps): Promise<void> {
  let why = reason;
  for (let attempts = 1; steps.current(); attempts++) {
    steps.status(attempts, why);
    const delay = steps.delayMs();
    steps.log.info({ attempt: attempts, delay, reason: why }, 'hub reconnecting');
    if (!(await steps.sleep(delay)) || !steps.current()) return;
    try {
      await steps.connect(attempts);
      return;
    } catch (e) {
      if (!steps.current()) return;
      const error = e instanceof Error ? e : new Error(String(e));
      why = steps.failed(error, attempts);
      steps.log.warn({ attempt: attempts, reason: why, error: error.message }, 'hub reconnect attempt failed');
    }
  }
}
