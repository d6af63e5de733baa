/**
 * A {@link Throttler} whose per-minute budget belongs to the API key, shared in Redis by every bot process that
 * trades with that key (`rateLimit.shared: redis://...` in the bot config). Locally it behaves like the
 * one-process throttler (throttler.ts): a queue per priority (cancel > place > read, FIFO within one), calendar
 * minutes of the injected clock, a pause to the next minute (with capped backoff) after a 429. What changes:
 *
 * **One budget.** Each call asks Redis for a slot of the current calendar minute (shared-budget.ts, one atomic
 * script), so N processes together never start more than `callsPerMinute` calls in a minute.
 *
 * **Cancels keep their priority across processes.** `cancelReserve` calls of every minute are for cancels only:
 * placements and reads of all processes together stop at `callsPerMinute - cancelReserve`, cancels may use the
 * whole budget. So a flood of placements from process A cannot starve process B's cancels: B always finds at
 * least `cancelReserve` slots a minute that no placement or read can take. (Cancels of one process can still use
 * the reserve before another's: the reserve protects cancels from other traffic, not from each other.)
 *
 * **One 429 pauses everyone.** A 429 reported here writes the pause (next minute boundary, plus backoff when
 * they repeat) into Redis; every process sees it on its next request and waits too.
 *
 * **No call on a minute boundary.** Calls do not start within `boundaryGuardMs` either side of a minute boundary,
 * so a request cannot be counted by this process in one minute and by the server in the next (network latency,
 * clock skew smaller than the guard).
 *
 * **Redis unreachable: a local share that never overspends the key.** While Redis cannot be reached a process may
 * start at most `fallbackShare` calls a minute on its own, and `fallbackShare * maxProcesses <= callsPerMinute`
 * (checked by the config). The budget in Redis holds those shares back: in a minute that only `k` of the
 * `maxProcesses` declared processes have joined (asked Redis for a call), the shared cap is
 * `callsPerMinute - fallbackShare * (maxProcesses - k)`. A process spends in a minute EITHER from Redis OR from its
 * fallback share, never both: once it has sent Redis a request in a minute (joining it), it does not fall back
 * before the next minute boundary, and after a minute spent on the fallback it returns to Redis at a boundary. So
 * in any minute, with `k` processes on Redis and at most `maxProcesses - k` on their own:
 *   calls <= (callsPerMinute - fallbackShare * (maxProcesses - k)) + fallbackShare * (maxProcesses - k)
 *         = callsPerMinute.
 * This holds however the outage looks (Redis down for all, or reachable from some processes only) as long as no
 * more than `maxProcesses` processes use the key. The price: a declared process that has not asked for a call yet
 * in a minute lowers the others' cap by its share, so declare the number of processes you really run; the others
 * re-ask every `partialPollMs` and get the slots once it joins.
 */
import { randomUUID } from 'node:crypto';
import type { Clock, TimerHandle } from '../../core/clock.js';
import { systemClock } from '../../core/clock.js';
import { ValidationError } from '../../core/errors.js';
import { type BudgetClass, budgetRule, SharedBudgetStore } from './shared-budget.js';
import {
  DEFAULT_RATE_LIMITS,
  pauseAfterThrottle,
  REQUEST_PRIORITIES,
  type RequestPriority,
  type Throttler,
} from './throttler.js';
import type { SharedBudgetMode, SharedThrottler, SharedThrottlerOptions } from './shared-throttler-types.js';

const MINUTE_MS = 60_000;

export type { SharedBudgetMode, SharedThrottler, SharedThrottlerOptions, SharedThrottlerStats } from './shared-throttler-types.js';

interface Waiting {
  priority: RequestPriority;
  run: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
  enqueuedAt: number;
  delayed: boolean;
}

/**
 * Create a throttler that spends the API key's budget in Redis, shared with every other process of the key.
 *
 * @example
 * const throttler = createSharedThrottler({ url: 'redis://127.0.0.1:6379', apiKey, maxProcesses: 2, callsPerMinute: 60 });
 * const gateway = createBittrexGateway({ ..., throttler });
 * // on shutdown
 * await throttler.close();
 */
export function createSharedThrottler(opts: SharedThrottlerOptions): SharedThrottler {
  const clock: Clock = opts.clock ?? systemClock;
  const random = opts.random ?? Math.random;
  const rule = budgetRule({ ...opts, callsPerMinute: opts.callsPerMinute ?? DEFAULT_RATE_LIMITS.callsPerMinute });
  const maxBackoffMs = opts.maxBackoffMs ?? DEFAULT_RATE_LIMITS.maxBackoffMs;
  const backoffBaseMs = opts.backoffBaseMs ?? DEFAULT_RATE_LIMITS.backoffBaseMs;
  const guardMs = opts.boundaryGuardMs ?? 250;
  if (!(guardMs >= 0 && guardMs < MINUTE_MS / 4)) throw new ValidationError('boundaryGuardMs', `must be in [0, 15000), got ${guardMs}`);
  const probeMs = opts.probeMs ?? 1000;
  const partialPollMs = opts.partialPollMs ?? 2000;
  const logger = opts.logger;
  // The fallback keeps the same proportion of its share for cancels as the shared budget keeps of the whole.
  const localReserve = Math.min(rule.fallbackShare - 1, Math.floor((rule.cancelReserve * rule.fallbackShare) / rule.callsPerMinute));
  const store = new SharedBudgetStore({ url: opts.url, apiKey: opts.apiKey, memberId: opts.memberId ?? randomUUID(), keyPrefix: opts.keyPrefix });

  const queues: Record<RequestPriority, Waiting[]> = { cancel: [], place: [], read: [] };
  let inFlight = 0;
  let pausedUntil: number | undefined;
  let streak = 0;
  const totals = { started: 0, waited: 0, waitMs: 0, throttled: 0 };
  const startedByPriority: Record<RequestPriority, number> = { cancel: 0, place: 0, read: 0 };
  /** Calls this process started per minute (stats), and from its fallback share (the local cap). */
  let ownMinute = Number.NaN;
  let ownUsed = 0;
  let localMinute = Number.NaN;
  let localUsed = 0;
  /** The last minute this process sent Redis a request in: it may not fall back in that minute. */
  let joinedMinute = Number.NaN;
  /** The minute being spent from the fallback share: no Redis request in it. */
  let fallbackMinute = Number.NaN;
  let mode: SharedBudgetMode = 'shared';
  let healthy = true;
  let fallbacks = 0;
  let redisErrors = 0;
  /** Per class: until when (clock ms) Redis said this minute is spent; checked again after. */
  const spentUntil: Record<BudgetClass, number> = { cancel: Number.NEGATIVE_INFINITY, other: Number.NEGATIVE_INFINITY };
  let acquiring = false;
  let pumping = false;
  let closed = false;
  let wakeAt: number | undefined;
  let probe: TimerHandle | undefined;

  const queuedCount = () => queues.cancel.length + queues.place.length + queues.read.length;
  const head = (): Waiting | undefined => REQUEST_PRIORITIES.map((p) => queues[p][0]).find((w) => w !== undefined);
  const classOf = (p: RequestPriority): BudgetClass => (p === 'cancel' ? 'cancel' : 'other');
  /** First instant calls may start in the minute after `minute` (past the boundary guard). */
  const startOfNext = (minute: number) => (minute + 1) * MINUTE_MS + guardMs;

  /** End of the no-start zone around a boundary when `now` is inside it, else undefined. */
  function quietUntil(now: number): number | undefined {
    const into = now - Math.floor(now / MINUTE_MS) * MINUTE_MS;
    if (into < guardMs) return now - into + guardMs;
    if (into >= MINUTE_MS - guardMs) return now - into + MINUTE_MS + guardMs;
    return undefined;
  }

  /** Look at the queue again by `at` (clock.sleep keeps a waiting process alive; see throttler.ts `arm`). */
  function arm(at: number): void {
    if (wakeAt !== undefined && wakeAt <= at) return;
    wakeAt = at;
    void clock.sleep(Math.max(0, at - clock.now())).then(() => {
      if (wakeAt === at) wakeAt = undefined;
      pump();
    });
  }

  function start(item: Waiting, now: number): void {
    if (Math.floor(now / MINUTE_MS) !== ownMinute) {
      ownMinute = Math.floor(now / MINUTE_MS);
      ownUsed = 0;
    }
    ownUsed++;
    inFlight++;
    totals.started++;
    startedByPriority[item.priority]++;
    totals.waitMs += now - item.enqueuedAt;
    if (item.delayed) totals.waited++;
    let result: Promise<unknown>;
    try {
      result = item.run();
    } catch (err) {
      result = Promise.reject(err);
    }
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

  function enterFallback(why: string, err?: unknown): void {
    if (mode === 'fallback') return;
    mode = 'fallback';
    fallbacks++;
    logger?.warn(
      { reason: why, err: err instanceof Error ? err.message : err, fallbackShare: rule.fallbackShare, maxProcesses: rule.maxProcesses },
      'shared rate budget unreachable (Redis): this process spends at most its fallback share per minute from the next minute on',
    );
  }

  /** Redis failed a command (`err`) or is not connected: fall back, and watch for it to answer again. */
  function lostRedis(why: string, err?: unknown): void {
    if (err !== undefined) redisErrors++;
    healthy = false;
    enterFallback(why, err);
    probe ??= clock.setInterval(() => void probeOnce(), probeMs);
  }
  const markUnhealthy = (err: unknown) => lostRedis('redis error', err);

  async function probeOnce(): Promise<void> {
    if (healthy || closed || !store.ready) return;
    try {
      await store.ping();
    } catch {
      return;
    }
    if (healthy || closed) return;
    healthy = true;
    probe?.cancel();
    probe = undefined;
    logger?.info({}, 'shared rate budget reachable again (Redis): back on it from the next minute');
    pump();
  }
  store.onReady(() => void probeOnce());

  function pump(): void {
    if (pumping || acquiring || closed) return;
    pumping = true;
    try {
      for (;;) {
        const item = head();
        if (!item) return;
        const now = clock.now();
        if (pausedUntil !== undefined) {
          if (now < pausedUntil) return arm(pausedUntil);
          pausedUntil = undefined;
        }
        const quiet = quietUntil(now);
        if (quiet !== undefined) return arm(quiet);
        const minute = Math.floor(now / MINUTE_MS);
        const cls = classOf(item.priority);
        if (minute !== fallbackMinute && minute !== joinedMinute && !(healthy && store.ready)) {
          // Not joined this minute and Redis is down: this minute is spent from the fallback share.
          if (healthy) lostRedis('redis not connected');
          fallbackMinute = minute;
        }
        if (minute === fallbackMinute) {
          if (localMinute !== minute) {
            localMinute = minute;
            localUsed = 0;
          }
          const cap = cls === 'cancel' ? rule.fallbackShare : rule.fallbackShare - localReserve;
          if (localUsed >= cap) return arm(startOfNext(minute));
          localUsed++;
          queues[item.priority].shift();
          start(item, now);
          continue;
        }
        // Joined this minute but Redis failed since: wait for the next minute, then fall back.
        if (minute === joinedMinute && !healthy) return arm(startOfNext(minute));
        if (now < spentUntil[cls]) return arm(spentUntil[cls]);
        queues[item.priority].shift();
        joinedMinute = minute;
        acquiring = true;
        store.acquire(minute, cls, rule, now).then(
          (answer) => {
            acquiring = false;
            if (closed) return item.reject(new Error('throttler closed'));
            const late = clock.now() >= (minute + 1) * MINUTE_MS - guardMs;
            if (answer.kind === 'granted' && !late) {
              if (mode === 'fallback') {
                mode = 'shared';
                logger?.info({ fallbacks }, 'back on the shared rate budget (Redis)');
              }
              start(item, clock.now());
            } else if (answer.kind === 'granted') {
              // The slot came back too close to (or past) the minute's end: the server might count the call in
              // the next minute, where Redis did not. Leave the slot unused and ask again in the next minute.
              queues[item.priority].unshift(item);
              item.delayed = true;
            } else {
              queues[item.priority].unshift(item);
              item.delayed = true;
              if (answer.kind === 'paused') {
                pausedUntil = Math.max(pausedUntil ?? 0, answer.until);
              } else {
                const boundary = startOfNext(minute);
                const until = answer.partial ? Math.min(boundary, clock.now() + partialPollMs) : boundary;
                spentUntil[cls] = until;
                // Cancels may still find the reserve; the rest cannot find what cancels could not.
                if (cls === 'cancel') spentUntil.other = Math.max(spentUntil.other, until);
              }
            }
            pump();
          },
          (err: unknown) => {
            acquiring = false;
            if (closed) return item.reject(new Error('throttler closed'));
            queues[item.priority].unshift(item);
            item.delayed = true;
            markUnhealthy(err);
            pump();
          },
        );
        return;
      }
    } finally {
      pumping = false;
    }
  }

  return {
    schedule<T>(priority: RequestPriority, fn: () => Promise<T>): Promise<T> {
      const queue = queues[priority];
      if (!queue) return Promise.reject(new ValidationError('priority', `unknown request priority ${String(priority)}`));
      if (closed) return Promise.reject(new Error('throttler closed'));
      return new Promise<T>((resolve, reject) => {
        const now = clock.now();
        const idle = queuedCount() === 0 && !acquiring && (pausedUntil === undefined || now >= pausedUntil);
        queue.push({ priority, run: fn, resolve: resolve as (value: unknown) => void, reject, enqueuedAt: now, delayed: !idle });
        pump();
      });
    },

    throttled(retryAfterMs?: number): void {
      totals.throttled++;
      const now = clock.now();
      ({ pausedUntil, streak } = pauseAfterThrottle({ now, retryAfterMs, pausedUntil, streak, backoffBaseMs, maxBackoffMs, random }));
      // Tell every process of the key; when Redis is down the others are on their own shares anyway.
      if (healthy && store.ready) store.pause(pausedUntil, now).catch((err: unknown) => markUnhealthy(err));
      pump();
    },

    succeeded(): void {
      streak = 0;
    },

    stats() {
      const now = clock.now();
      return {
        queued: { cancel: queues.cancel.length, place: queues.place.length, read: queues.read.length },
        usedThisMinute: Math.floor(now / MINUTE_MS) === ownMinute ? ownUsed : 0,
        callsPerMinute: rule.callsPerMinute,
        inFlight,
        pausedUntil: pausedUntil !== undefined && now < pausedUntil ? pausedUntil : undefined,
        consecutiveThrottles: streak,
        totals: { ...totals },
        shared: { mode, rule, fallbacks, redisErrors, asking: acquiring, connected: store.ready, startedByPriority: { ...startedByPriority } },
      };
    },

    connected(timeoutMs = 5000): Promise<boolean> {
      return store.waitReady(timeoutMs);
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      probe?.cancel();
      const err = new Error('throttler closed');
      for (const p of REQUEST_PRIORITIES) for (const w of queues[p].splice(0)) w.reject(err);
      await store.close();
    },
  };
}
