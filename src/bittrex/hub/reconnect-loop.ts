/**
 * The hub client's reconnect loop: back off on the clock, try a fresh connection, repeat until one is up or the
 * run it belongs to is over. Kept apart from the client so the loop's order of steps reads in one place.
 */
import type { Clock, TimerHandle } from '../../core/clock.js';

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
  /** Report a failed attempt; returns the reason the next attempt reports. */
  failed(error: Error, attempt: number, delayMs: number): string;
}

/** Back off, connect, repeat until a connection is up or the run is over. */
export async function reconnectLoop(reason: string, steps: ReconnectLoopSteps): Promise<void> {
  let why = reason;
  for (let attempts = 1; steps.current(); attempts++) {
    steps.status(attempts, why);
    const delay = steps.delayMs();
    if (!(await steps.sleep(delay)) || !steps.current()) return;
    try {
      await steps.connect(attempts);
      return;
    } catch (e) {
      if (!steps.current()) return;
      why = steps.failed(e instanceof Error ? e : new Error(String(e)), attempts, delay);
    }
  }
}
