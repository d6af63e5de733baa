/**
 * The one per-API-key request throttler (ARCHITECTURE principle 5: rate limits are data).
 *
 * Seed section 8: REST call limits are tracked per minute and reset at the start of the next minute; about 60
 * calls per minute is safe; exceeding gives 429 / THROTTLED and the client must back off for the rest of the
 * minute. Section 7 adds: on 429, use exponential backoff. So this throttler
 *
 * - counts calls per calendar minute of the injected clock and holds further calls until the next boundary,
 * - starts waiting calls by priority (cancel > place > read), FIFO within a priority — a cancel is how a bot
 *   gets out of risk, so it must never wait behind a pile of polling reads,
 * - pauses everyone on a reported 429 until the next minute boundary (or `Retry-After`, if later), adding a
 *   capped, jittered exponential backoff while 429s keep coming,
 * - never retries by itself: callers know which requests are idempotent.
 *
 * It only ever uses the injected {@link Clock}'s time and sleeps, so tests and backtests run in virtual time.
 */
import type { Clock } from '../../core/clock.js';
import { systemClock } from '../../core/clock.js';
import { ValidationError } from '../../core/errors.js';
import type { SharedThrottlerStats } from './shared-throttler-types.js';

/** Which queue a request waits in. Cancels go before placements, placements before reads. */
export type RequestPriority = 'cancel' | 'place' | 'read';

/** The priorities in the order they are served. */
export const REQUEST_PRIORITIES: readonly RequestPriority[] = ['cancel', 'place', 'read'];

/** Rate-limit settings of one API key. Plain data so it can come from YAML config. */
export interface RateLimitConfig {
  /** Calls allowed per calendar minute (seed section 8: about 60 is safe). */
  callsPerMinute: number;
  /** Upper bound of the extra backoff added after repeated 429s, in ms. */
  maxBackoffMs: number;
  /** First extra backoff after a repeated 429, doubled on each further one, in ms. */
  backoffBaseMs: number;
}

/** The defaults: 60 calls per minute, backoff from 1 s doubling up to 60 s. */
export const DEFAULT_RATE_LIMITS: Readonly<RateLimitConfig> = Object.freeze({
  callsPerMinute: 60,
  maxBackoffMs: 60_000,
  backoffBaseMs: 1000,
});

/** Options of {@link createThrottler}. Every field is optional; missing ones come from {@link DEFAULT_RATE_LIMITS}. */
export interface ThrottlerOptions extends Partial<RateLimitConfig> {
  /** Time source and timers. Default {@link systemClock}. */
  clock?: Clock;
  /** Jitter source returning values in [0, 1]. Default `Math.random`. */
  random?: () => number;
}

/** A snapshot of the throttler's state, for metrics and diagnostics. */
export interface ThrottlerStats {
  /** Calls waiting to start, per priority. */
  queued: Record<RequestPriority, number>;
  /** Calls started (and still counted) in the current calendar minute. */
  usedThisMinute: number;
  /** The configured budget per minute. */
  callsPerMinute: number;
  /** Calls started whose promise has not settled yet. */
  inFlight: number;
  /** Epoch ms until which every caller is paused after a 429, or undefined when not paused. */
  pausedUntil: number | undefined;
  /** 429s reported since the last success (only those that escalate the backoff). */
  consecutiveThrottles: number;
  /** Cumulative counters since creation. */
  totals: {
    /** Calls started. */
    started: number;
    /** Calls that could not start at once and had to wait in the queue. */
    waited: number;
    /** Sum of queue waiting time over all started calls, in ms. */
    waitMs: number;
    /** 429 / THROTTLED answers reported through {@link Throttler.throttled}. */
    throttled: number;
  };
  /** Only for a throttler sharing its budget through Redis (shared-throttler.ts). */
  shared?: SharedThrottlerStats | undefined;
}

/** Throttles the REST calls of one API key. Create one per key and share it between every client of that key. */
export interface Throttler {
  /** Runs fn when the per-minute budget allows; cancels before placements before reads (FIFO within a priority). */
  schedule<T>(priority: RequestPriority, fn: () => Promise<T>): Promise<T>;
  /**
   * Report a 429/THROTTLED answer: pauses ALL callers until the next minute boundary (or retryAfterMs from now,
   * if later), with capped exponential backoff + jitter when 429s repeat.
   *
   * The first 429 since the last success pauses to the boundary only; the n-th adds
   * `min(maxBackoffMs, backoffBaseMs * 2^(n-2))`, jittered into its upper half. A 429 arriving while already
   * paused comes from a request sent before the pause, so it may extend the pause (Retry-After) but does not
   * count as a repeat.
   */
  throttled(retryAfterMs?: number): void;
  /**
   * Report a successful (non-429) response; resets the backoff. Report every answer that is not a 429 (a 4xx
   * like INSUFFICIENT_FUNDS also proves the rate is acceptable again).
   */
  succeeded(): void;
  /** Observable state for metrics: queue depth per priority, calls used this minute, paused-until (epoch ms or undefined). */
  stats(): ThrottlerStats;
}

const MINUTE_MS = 60_000;

/** Epoch ms of the start of the calendar minute after `nowMs` (where the service resets its call counter). */
export function nextMinuteBoundary(nowMs: number): number {
  return Math.floor(nowMs / MINUTE_MS + 1) * MINUTE_MS;
}

interface Waiting {
  run: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
  enqueuedAt: number;
  /** True when it could not start the moment it was scheduled (paused, budget spent, or others waiting). */
  delayed: boolean;
}

function checkPositive(field: string, value: number, integer: boolean): number {
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new ValidationError(field, `must be a positive ${integer ? 'integer' : 'number'}, got ${String(value)}`);
  }
  return value;
}

/**
 * Create the throttler of one API key.
 *
 * @example
 * const throttler = createThrottler({ callsPerMinute: 60 });
 * const order = await throttler.schedule('cancel', () => rest.delete(`/orders/${id}`));
 * // in the REST client, after each response:
 * if (res.status === 429) throttler.throttled(retryAfterMs); else throttler.succeeded();
 */
export function createThrottler(opts: ThrottlerOptions = {}): Throttler {
  const clock = opts.clock ?? systemClock;
  const random = opts.random ?? Math.random;
  const callsPerMinute = checkPositive('callsPerMinute', opts.callsPerMinute ?? DEFAULT_RATE_LIMITS.callsPerMinute, true);
  const maxBackoffMs = checkPositive('maxBackoffMs', opts.maxBackoffMs ?? DEFAULT_RATE_LIMITS.maxBackoffMs, false);
  const backoffBaseMs = checkPositive('backoffBaseMs', opts.backoffBaseMs ?? DEFAULT_RATE_LIMITS.backoffBaseMs, false);

  const queues: Record<RequestPriority, Waiting[]> = { cancel: [], place: [], read: [] };
  let windowStart = Number.NEGATIVE_INFINITY;
  let used = 0;
  let inFlight = 0;
  let pausedUntil: number | undefined;
  let streak = 0;
  const totals = { started: 0, waited: 0, waitMs: 0, throttled: 0 };

  /** Due time of the earliest pending wake-up, if any. */
  let wakeAt: number | undefined;
  let pumping = false;

  function queuedCount(): number {
    return queues.cancel.length + queues.place.length + queues.read.length;
  }

  function nextWaiting(): Waiting | undefined {
    for (const p of REQUEST_PRIORITIES) {
      const item = queues[p].shift();
      if (item) return item;
    }
    return undefined;
  }

  /** Roll the per-minute counter over when the clock has entered a new calendar minute. */
  function rollWindow(now: number): void {
    const start = Math.floor(now / MINUTE_MS) * MINUTE_MS;
    if (start !== windowStart) {
      windowStart = start;
      used = 0;
    }
  }

  /**
   * Make sure the queue is looked at again by `at`. Uses `clock.sleep`, not `setTimeout`: a queued caller is
   * waiting on purpose, and the system clock's sleep keeps the process alive while `setTimeout` is unref'd (a CLI
   * paging past the budget would otherwise exit mid-way with its promise pending). Sleeps cannot be cancelled, so
   * an earlier pending wake-up is kept — it re-checks and re-arms — and a later one is simply superseded. The
   * queue only empties by time passing, so at most one stale wake-up exists and it is harmless.
   */
  function arm(at: number): void {
    if (wakeAt !== undefined && wakeAt <= at) return;
    wakeAt = at;
    void clock.sleep(at - clock.now()).then(() => {
      if (wakeAt === at) wakeAt = undefined;
      pump();
    });
  }

  function start(item: Waiting, now: number): void {
    used++;
    inFlight++;
    totals.started++;
    totals.waitMs += now - item.enqueuedAt;
    if (item.delayed) totals.waited++;
    let result: Promise<unknown>;
    try {
      result = item.run();
    } catch (err) {
      // A synchronous throw happened before any request could leave, so the server never counted it.
      result = Promise.reject(err);
      used--;
    }
    // Release before settling, so the caller's continuation never sees its own call still in flight; a rejection
    // releases exactly like a success, so a failing fn can neither keep its slot nor stop the queue.
    Promise.resolve(result).then(
      (value) => {
        inFlight--;
        item.resolve(value);
      },
      (err: unknown) => {
        inFlight--;
        item.reject(err);
      },
    );
  }

  function pump(): void {
    // fn runs synchronously inside the loop; a schedule() it makes re-enters here and is picked up by this loop.
    if (pumping) return;
    pumping = true;
    try {
      for (;;) {
        if (queuedCount() === 0) return;
        const now = clock.now();
        if (pausedUntil !== undefined) {
          if (now < pausedUntil) {
            arm(pausedUntil);
            return;
          }
          pausedUntil = undefined;
        }
        rollWindow(now);
        if (used >= callsPerMinute) {
          arm(nextMinuteBoundary(now));
          return;
        }
        const item = nextWaiting();
        if (item) start(item, now);
      }
    } finally {
      pumping = false;
    }
  }

  /** Whether a call scheduled now would start at once; decides if it counts as having waited. */
  function canStartNow(now: number): boolean {
    if (queuedCount() > 0) return false;
    if (pausedUntil !== undefined && now < pausedUntil) return false;
    const sameWindow = Math.floor(now / MINUTE_MS) * MINUTE_MS === windowStart;
    return !sameWindow || used < callsPerMinute;
  }

  return {
    schedule<T>(priority: RequestPriority, fn: () => Promise<T>): Promise<T> {
      const queue = queues[priority];
      if (!queue) return Promise.reject(new ValidationError('priority', `unknown request priority ${String(priority)}`));
      return new Promise<T>((resolve, reject) => {
        const now = clock.now();
        queue.push({
          run: fn,
          resolve: resolve as (value: unknown) => void,
          reject,
          enqueuedAt: now,
          delayed: !canStartNow(now),
        });
        pump();
      });
    },

    throttled(retryAfterMs?: number): void {
      totals.throttled++;
      ({ pausedUntil, streak } = pauseAfterThrottle({ now: clock.now(), retryAfterMs, pausedUntil, streak, backoffBaseMs, maxBackoffMs, random }));
      pump();
    },

    succeeded(): void {
      streak = 0;
    },

    stats(): ThrottlerStats {
      const now = clock.now();
      const sameWindow = Math.floor(now / MINUTE_MS) * MINUTE_MS === windowStart;
      return {
        queued: { cancel: queues.cancel.length, place: queues.place.length, read: queues.read.length },
        usedThisMinute: sameWindow ? used : 0,
        callsPerMinute,
        inFlight,
        pausedUntil: pausedUntil !== undefined && now < pausedUntil ? pausedUntil : undefined,
        consecutiveThrottles: streak,
        totals: { ...totals },
      };
    },
  };
}

/** The longest Retry-After obeyed as such: the call budget's window (a minute), twice. */
export const MAX_RETRY_AFTER_MS = 2 * MINUTE_MS;

/** What a throttler knows when a 429 arrives, and its backoff settings. */
export interface ThrottlePauseInput {
  now: number;
  /** The server's Retry-After, in ms, when it gave one. */
  retryAfterMs: number | undefined;
  /** End of the pause in force, if any. */
  pausedUntil: number | undefined;
  /** 429s in a row so far (reset by a success). */
  streak: number;
  backoffBaseMs: number;
  maxBackoffMs: number;
  random: () => number;
}

/**
 * The pause after a 429: until the next minute boundary (or the Retry-After, if later), plus a capped exponential
 * backoff with equal jitter when 429s repeat. One rule for the local and the Redis-shared throttler.
 */
export function pauseAfterThrottle(i: ThrottlePauseInput): { pausedUntil: number; streak: number } {
  // A Retry-After longer than the service's budget window plus the longest backoff is not a rate limit to wait out
  // (one 429 with 'Retry-After: 86400' held every call, cancels included, for a day): it counts as that much.
  const retryAfter = i.retryAfterMs !== undefined && Number.isFinite(i.retryAfterMs) && i.retryAfterMs > 0 ? Math.min(i.retryAfterMs, MAX_RETRY_AFTER_MS + i.maxBackoffMs) : 0;
  const retryAt = i.now + retryAfter;
  if (i.pausedUntil !== undefined && i.now < i.pausedUntil) {
    // A straggler: a request sent before the pause began. It says nothing new about our rate, so it must not
    // escalate the backoff — only a later Retry-After may extend the pause.
    return { pausedUntil: Math.max(i.pausedUntil, retryAt), streak: i.streak };
  }
  const streak = i.streak + 1;
  let extra = 0;
  if (streak > 1) {
    // Equal jitter: half fixed, half random, so clients sharing an IP spread out but still back off.
    const backoff = Math.min(i.maxBackoffMs, i.backoffBaseMs * 2 ** (streak - 2));
    extra = backoff / 2 + (backoff / 2) * Math.min(1, Math.max(0, i.random()));
  }
  return { pausedUntil: Math.max(nextMinuteBoundary(i.now), retryAt) + extra, streak };
}
