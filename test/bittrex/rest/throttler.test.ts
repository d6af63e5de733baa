import { describe, expect, it } from 'vitest';
import { flushMicrotasks, VirtualClock } from '../../../src/core/clock.js';
import { NetworkError, ValidationError } from '../../../src/core/errors.js';
import {
  createThrottler,
  DEFAULT_RATE_LIMITS,
  nextMinuteBoundary,
  type RequestPriority,
  type Throttler,
} from '../../../src/bittrex/rest/throttler.js';

// 2021-06-14T00:00:10Z: ten seconds into a calendar minute, so the boundary is 50 s away.
const T0 = Date.parse('2021-06-14T00:00:10Z');
const BOUNDARY = Date.parse('2021-06-14T00:01:00Z');

/** A fake request that records when (in clock time) and in which order it started. */
function recorder(clock: VirtualClock) {
  const starts: { label: string; at: number }[] = [];
  const call = (label: string, result: 'ok' | 'fail' = 'ok') => () => {
    starts.push({ label, at: clock.now() });
    return result === 'ok' ? Promise.resolve(label) : Promise.reject(new Error(`${label} failed`));
  };
  const started = (label: string) => starts.find((s) => s.label === label);
  const order = () => starts.map((s) => s.label);
  return { starts, call, started, order };
}

function setup(opts: { callsPerMinute?: number; maxBackoffMs?: number; random?: () => number } = {}) {
  const clock = new VirtualClock(T0);
  const throttler = createThrottler({ clock, ...opts });
  return { clock, throttler, ...recorder(clock) };
}

/** Use up the whole budget of the current minute with successful reads. */
async function spendBudget(throttler: Throttler, n: number): Promise<void> {
  await Promise.all(Array.from({ length: n }, () => throttler.schedule('read', async () => 'filler')));
}

describe('createThrottler', () => {
  it('has rate limits as data with the seed defaults', () => {
    expect(DEFAULT_RATE_LIMITS).toEqual({ callsPerMinute: 60, maxBackoffMs: 60_000, backoffBaseMs: 1000 });
    expect(nextMinuteBoundary(T0)).toBe(BOUNDARY);
    expect(nextMinuteBoundary(BOUNDARY)).toBe(BOUNDARY + 60_000);
  });

  it('rejects a nonsensical configuration', () => {
    expect(() => createThrottler({ callsPerMinute: 0 })).toThrow(ValidationError);
    expect(() => createThrottler({ callsPerMinute: 1.5 })).toThrow(/callsPerMinute/);
    expect(() => createThrottler({ maxBackoffMs: -1 })).toThrow(/maxBackoffMs/);
  });

  it('runs 60 calls in a minute at once and holds the 61st until the next minute boundary', async () => {
    const { clock, throttler, call, started, starts } = setup();
    const results = Array.from({ length: 60 }, (_, i) => throttler.schedule('read', call(`r${i}`)));
    const late = throttler.schedule('read', call('r60'));
    await flushMicrotasks();
    expect(starts).toHaveLength(60);
    expect(starts.every((s) => s.at === T0)).toBe(true);
    expect(await Promise.all(results)).toHaveLength(60);

    await clock.advanceTo(BOUNDARY - 1);
    expect(started('r60')).toBeUndefined();
    expect(throttler.stats().queued.read).toBe(1);

    await clock.advanceTo(BOUNDARY);
    expect(started('r60')?.at).toBe(BOUNDARY);
    await expect(late).resolves.toBe('r60');
    expect(throttler.stats().usedThisMinute).toBe(1);
    expect(clock.pendingTimers).toBe(0);
  });

  it('honours a configured budget', async () => {
    const { clock, throttler, call, started } = setup({ callsPerMinute: 2 });
    void throttler.schedule('read', call('a'));
    void throttler.schedule('read', call('b'));
    void throttler.schedule('read', call('c'));
    await flushMicrotasks();
    expect(started('b')?.at).toBe(T0);
    expect(started('c')).toBeUndefined();
    await clock.advanceTo(BOUNDARY);
    expect(started('c')?.at).toBe(BOUNDARY);
  });

  it('a 429 pauses every caller, queued and new, until the minute boundary', async () => {
    const { clock, throttler, call, started } = setup({ callsPerMinute: 3 });
    await spendBudget(throttler, 3);
    const queued = throttler.schedule('read', call('queued'));
    throttler.throttled();
    const late = throttler.schedule('cancel', call('late'));
    expect(throttler.stats().pausedUntil).toBe(BOUNDARY);
    await clock.advanceTo(BOUNDARY - 1);
    expect(started('queued')).toBeUndefined();
    expect(started('late')).toBeUndefined();
    await clock.advanceTo(BOUNDARY);
    expect(started('late')?.at).toBe(BOUNDARY);
    expect(started('queued')?.at).toBe(BOUNDARY);
    await Promise.all([queued, late]);

    // A fresh 429 in a minute with budget left still stops new callers.
    throttler.succeeded();
    await clock.advanceTo(BOUNDARY + 5_000);
    throttler.throttled();
    const fresh = throttler.schedule('cancel', call('fresh'));
    expect(throttler.stats().pausedUntil).toBe(BOUNDARY + 60_000);
    await clock.advanceTo(BOUNDARY + 59_999);
    expect(started('fresh')).toBeUndefined();
    await clock.advanceTo(BOUNDARY + 60_000);
    expect(started('fresh')?.at).toBe(BOUNDARY + 60_000);
    await fresh;
    expect(throttler.stats().pausedUntil).toBeUndefined();
  });

  it('repeated 429s back off exponentially with jitter, capped at maxBackoffMs, and success resets the streak', async () => {
    const { clock, throttler } = setup({ maxBackoffMs: 5_000, random: () => 1 });
    const pauses: number[] = [];
    for (let i = 0; i < 6; i++) {
      throttler.throttled();
      const until = throttler.stats().pausedUntil!;
      pauses.push(until - nextMinuteBoundary(clock.now()));
      await clock.advanceTo(until);
    }
    // first 429: just the rest of the minute; then 1 s, 2 s, 4 s, capped at 5 s
    expect(pauses).toEqual([0, 1000, 2000, 4000, 5000, 5000]);
    expect(throttler.stats().consecutiveThrottles).toBe(6);

    throttler.succeeded();
    expect(throttler.stats().consecutiveThrottles).toBe(0);
    throttler.throttled();
    expect(throttler.stats().pausedUntil).toBe(nextMinuteBoundary(clock.now()));
  });

  it('jitter spreads the backoff between half and all of it', async () => {
    const { clock, throttler } = setup({ random: () => 0 });
    throttler.throttled();
    await clock.advanceTo(throttler.stats().pausedUntil!);
    throttler.throttled();
    throttler.throttled(); // a straggler during the pause does not escalate
    await clock.advanceTo(throttler.stats().pausedUntil!);
    throttler.throttled();
    const boundary = nextMinuteBoundary(clock.now());
    expect(throttler.stats().pausedUntil! - boundary).toBe(1000); // 2 s backoff, half of it with r = 0
    expect(throttler.stats().totals.throttled).toBe(4);
    expect(throttler.stats().consecutiveThrottles).toBe(3);
  });

  it('honours a Retry-After later than the minute boundary', async () => {
    const { clock, throttler, call, started } = setup();
    throttler.throttled(90_000);
    const r = throttler.schedule('read', call('after'));
    await clock.advanceTo(BOUNDARY);
    expect(started('after')).toBeUndefined();
    await clock.advanceTo(T0 + 89_999);
    expect(started('after')).toBeUndefined();
    await clock.advanceTo(T0 + 90_000);
    expect(started('after')?.at).toBe(T0 + 90_000);
    await r;
  });

  it('a Retry-After of a day is not obeyed as such: the pause is capped at two minutes plus the longest backoff', async () => {
    const { clock, throttler, call, started } = setup();
    throttler.throttled(86_400_000);
    const until = throttler.stats().pausedUntil!;
    expect(until - T0).toBeLessThanOrEqual(120_000 + 60_000);
    expect(until - T0).toBeGreaterThanOrEqual(120_000);
    const r = throttler.schedule('cancel', call('cancel'));
    await clock.advanceTo(until);
    expect(started('cancel')?.at).toBe(until);
    await r;
  });

  it('a later 429 with a longer Retry-After extends the pause of callers already waiting', async () => {
    const { clock, throttler, call, started } = setup();
    throttler.throttled();
    void throttler.schedule('place', call('p'));
    await clock.advance(10_000);
    throttler.throttled(120_000); // a straggler: extends the pause, does not escalate the backoff
    expect(throttler.stats().consecutiveThrottles).toBe(1);
    await clock.advanceTo(BOUNDARY);
    expect(started('p')).toBeUndefined();
    await clock.advanceTo(T0 + 130_000);
    expect(started('p')?.at).toBe(T0 + 130_000);
  });

  it('a Retry-After shorter than the rest of the minute still waits for the boundary', async () => {
    const { clock, throttler, call, started } = setup();
    throttler.throttled(1_000);
    void throttler.schedule('read', call('x'));
    await clock.advanceTo(T0 + 1_000);
    expect(started('x')).toBeUndefined();
    await clock.advanceTo(BOUNDARY);
    expect(started('x')?.at).toBe(BOUNDARY);
  });

  it('cancels overtake queued reads and placements; FIFO within a priority', async () => {
    const { clock, throttler, call, order } = setup({ callsPerMinute: 2 });
    await spendBudget(throttler, 2);
    const plan: [RequestPriority, string][] = [
      ['read', 'read1'],
      ['place', 'place1'],
      ['read', 'read2'],
      ['cancel', 'cancel1'],
      ['place', 'place2'],
      ['cancel', 'cancel2'],
    ];
    const all = plan.map(([p, label]) => throttler.schedule(p, call(label)));
    expect(throttler.stats().queued).toEqual({ cancel: 2, place: 2, read: 2 });
    await clock.advanceTo(BOUNDARY);
    expect(order()).toEqual(['cancel1', 'cancel2']);
    await clock.advanceTo(BOUNDARY + 60_000);
    expect(order()).toEqual(['cancel1', 'cancel2', 'place1', 'place2']);
    await clock.advanceTo(BOUNDARY + 120_000);
    expect(order()).toEqual(['cancel1', 'cancel2', 'place1', 'place2', 'read1', 'read2']);
    expect(await Promise.all(all)).toEqual(plan.map(([, label]) => label));
  });

  it('a cancel scheduled during a 429 pause goes first when the pause ends', async () => {
    const { clock, throttler, call, order } = setup();
    throttler.throttled();
    void throttler.schedule('read', call('read'));
    void throttler.schedule('place', call('place'));
    void throttler.schedule('cancel', call('cancel'));
    await clock.advanceTo(BOUNDARY);
    expect(order()).toEqual(['cancel', 'place', 'read']);
  });

  it('a rejected fn rejects its caller, frees its in-flight slot and does not wedge the queue', async () => {
    const { clock, throttler, call, started } = setup({ callsPerMinute: 2 });
    const bad = throttler.schedule('read', call('bad', 'fail'));
    const good = throttler.schedule('read', call('good'));
    const next = throttler.schedule('read', call('next'));
    await expect(bad).rejects.toThrow('bad failed');
    await expect(good).resolves.toBe('good');
    expect(throttler.stats().inFlight).toBe(0);
    await clock.advanceTo(BOUNDARY);
    expect(started('next')?.at).toBe(BOUNDARY);
    await expect(next).resolves.toBe('next');
  });

  it('a fn that throws synchronously never reached the server, so it does not use up the budget', async () => {
    const { throttler, call, started } = setup({ callsPerMinute: 1 });
    const thrower = throttler.schedule('place', () => {
      throw new NetworkError('refused', { mayHaveReachedServer: false });
    });
    await expect(thrower).rejects.toBeInstanceOf(NetworkError);
    const r = throttler.schedule('read', call('after'));
    await flushMicrotasks();
    expect(started('after')?.at).toBe(T0);
    await r;
    expect(throttler.stats().inFlight).toBe(0);
  });

  it('stats reflect queue depth, usage, in-flight calls and waits', async () => {
    const { clock, throttler } = setup({ callsPerMinute: 1 });
    let release!: () => void;
    const slow = throttler.schedule('read', () => new Promise<void>((res) => (release = res)));
    void throttler.schedule('cancel', async () => undefined);
    void throttler.schedule('place', async () => undefined);
    void throttler.schedule('place', async () => undefined);
    await flushMicrotasks();
    let s = throttler.stats();
    expect(s.queued).toEqual({ cancel: 1, place: 2, read: 0 });
    expect(s.usedThisMinute).toBe(1);
    expect(s.callsPerMinute).toBe(1);
    expect(s.inFlight).toBe(1);
    expect(s.pausedUntil).toBeUndefined();
    release();
    await slow;
    expect(throttler.stats().inFlight).toBe(0);

    await clock.advanceTo(BOUNDARY);
    s = throttler.stats();
    expect(s.queued).toEqual({ cancel: 0, place: 2, read: 0 });
    expect(s.totals).toEqual({ started: 2, waited: 1, waitMs: BOUNDARY - T0, throttled: 0 });
  });

  it('lets a running fn schedule another call without losing it', async () => {
    const { clock, throttler, call, started } = setup({ callsPerMinute: 1 });
    let inner: Promise<string> | undefined;
    await throttler.schedule('read', () => {
      inner = throttler.schedule('cancel', call('inner'));
      return Promise.resolve('outer');
    });
    expect(started('inner')).toBeUndefined();
    await clock.advanceTo(BOUNDARY);
    await expect(inner).resolves.toBe('inner');
  });
});
