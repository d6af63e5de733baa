/**
 * Detects a dead hub connection. The hub sends `heartbeat` every 5 s and "absence means the connection is dead"
 * (seed section 6); a TCP connection can stay half-open for minutes without the socket noticing, so silence is
 * the only reliable signal.
 */
import type { Clock, TimerHandle } from '../../core/clock.js';

/** The hub's heartbeat interval (seed sections 6 and 8). */
export const HEARTBEAT_INTERVAL_MS = 5_000;

/**
 * Calls `onSilence` once when nothing was {@link touch}ed for `timeoutMs` of clock time.
 *
 * A busy stream touches thousands of times a second, so touching only records the time; a single timer checks
 * at the earliest moment the deadline could have passed and re-arms itself if activity moved it. No timer is
 * cancelled or created per message.
 *
 * @example
 * const dog = new HeartbeatWatchdog(clock, 3 * HEARTBEAT_INTERVAL_MS, () => reconnect('watchdog'));
 * dog.start();
 * transport.events$.subscribe(() => dog.touch());
 * // ... on close:
 * dog.stop();
 */
export class HeartbeatWatchdog {
  readonly timeoutMs: number;
  readonly #clock: Clock;
  readonly #onSilence: (silentMs: number) => void;
  #lastActivity = 0;
  #timer: TimerHandle | undefined;

  constructor(clock: Clock, timeoutMs: number, onSilence: (silentMs: number) => void) {
    if (!(timeoutMs > 0 && Number.isFinite(timeoutMs))) throw new RangeError('watchdog timeout must be finite and > 0');
    this.#clock = clock;
    this.timeoutMs = timeoutMs;
    this.#onSilence = onSilence;
  }

  /** True between {@link start} and {@link stop} (or the silence callback). */
  get running(): boolean {
    return this.#timer !== undefined;
  }

  /** Start watching; the connection counts as active now. Restarts if already running. */
  start(): void {
    this.stop();
    this.#lastActivity = this.#clock.now();
    this.#arm(this.timeoutMs);
  }

  /** Something arrived: push the deadline back. Cheap enough to call for every frame. */
  touch(): void {
    this.#lastActivity = this.#clock.now();
  }

  /** Stop watching; `onSilence` will not be called. Idempotent. */
  stop(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
  }

  #arm(ms: number): void {
    this.#timer = this.#clock.setTimeout(() => this.#check(), ms);
  }

  #check(): void {
    const silent = this.#clock.now() - this.#lastActivity;
    if (silent < this.timeoutMs) {
      this.#arm(this.timeoutMs - silent);
      return;
    }
    this.#timer = undefined;
    this.#onSilence(silent);
  }
}
