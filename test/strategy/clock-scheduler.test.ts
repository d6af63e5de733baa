import { bufferTime, debounceTime, delay, interval, of, Subject, take, throttleTime, timer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { VirtualClock, type Clock, type TimerHandle } from '../../src/core/clock.js';
import { clockScheduler } from '../../src/strategy/clock-scheduler.js';
import { guardClock } from '../../src/strategy/guarded-clock.js';

describe('clockScheduler (virtual time)', () => {
  it('reads now() from the clock', () => {
    const clock = new VirtualClock(5_000);
    expect(clockScheduler(clock).now()).toBe(5_000);
  });

  it('interval ticks exactly when the clock advances, never on its own', async () => {
    const clock = new VirtualClock(0);
    const s = clockScheduler(clock);
    const ticks: [number, number][] = [];
    const sub = interval(1_000, s).subscribe((n) => ticks.push([n, clock.now()]));
    expect(ticks).toEqual([]);
    await clock.advance(999);
    expect(ticks).toEqual([]);
    await clock.advance(2_001);
    expect(ticks).toEqual([
      [0, 1_000],
      [1, 2_000],
      [2, 3_000],
    ]);
    sub.unsubscribe();
    expect(clock.pendingTimers).toBe(0);
    await clock.advance(10_000);
    expect(ticks).toHaveLength(3);
  });

  it('timer with a period and take() leave no timer behind', async () => {
    const clock = new VirtualClock(0);
    const seen: number[] = [];
    timer(500, 100, clockScheduler(clock))
      .pipe(take(3))
      .subscribe(() => seen.push(clock.now()));
    await clock.advance(1_000);
    expect(seen).toEqual([500, 600, 700]);
    expect(clock.pendingTimers).toBe(0);
  });

  it('throttleTime keeps the leading and the trailing value of each window', async () => {
    const clock = new VirtualClock(0);
    const s = clockScheduler(clock);
    const input = new Subject<string>();
    const out: [string, number][] = [];
    input.pipe(throttleTime(1_000, s, { leading: true, trailing: true })).subscribe((v) => out.push([v, clock.now()]));
    input.next('a'); // t=0: leading
    await clock.advance(200);
    input.next('b');
    await clock.advance(200);
    input.next('c'); // latest of the window: trailing at t=1000
    await clock.advance(1_000);
    expect(out).toEqual([
      ['a', 0],
      ['c', 1_000],
    ]);
  });

  it('debounceTime, delay and bufferTime follow the clock', async () => {
    const clock = new VirtualClock(0);
    const s = clockScheduler(clock);
    const input = new Subject<number>();
    const debounced: [number, number][] = [];
    const buffered: number[][] = [];
    input.pipe(debounceTime(300, s)).subscribe((v) => debounced.push([v, clock.now()]));
    input.pipe(bufferTime(1_000, s)).subscribe((b) => buffered.push(b));
    const delayed: number[] = [];
    of(1).pipe(delay(250, s)).subscribe(() => delayed.push(clock.now()));
    input.next(1);
    await clock.advance(100);
    input.next(2);
    await clock.advance(500);
    input.next(3);
    await clock.advance(400);
    expect(debounced).toEqual([
      [2, 400],
      [3, 900],
    ]);
    expect(delayed).toEqual([250]);
    expect(buffered).toEqual([[1, 2, 3]]);
  });

  it('keeps a periodic cadence from the due time when the clock fires late', async () => {
    // A clock whose timers fire 30 ms late (a busy event loop): periodic work must not drift by 30 ms per tick.
    const inner = new VirtualClock(0);
    const late: Clock = {
      now: () => inner.now(),
      setTimeout: (fn, ms): TimerHandle => inner.setTimeout(fn, ms + 30),
      setInterval: (fn, ms) => inner.setInterval(fn, ms),
      sleep: (ms) => inner.sleep(ms),
    };
    const seen: number[] = [];
    interval(1_000, clockScheduler(late)).pipe(take(4)).subscribe(() => seen.push(inner.now()));
    await inner.advance(5_000);
    // Each tick fires 30 ms after its due time; due times stay on the 1-second grid.
    expect(seen).toEqual([1_030, 2_030, 3_030, 4_030]);
  });

  it('a throwing action is torn down and the error reaches the clock guard', async () => {
    const clock = new VirtualClock(0);
    const errors: unknown[] = [];
    const guarded = guardClock(clock, (e) => errors.push(e));
    const s = clockScheduler(guarded);
    s.schedule(() => {
      throw new Error('boom');
    }, 100);
    await clock.advance(200);
    expect(errors).toEqual([new Error('boom')]);
    expect(guarded.pendingTimers).toBe(0);
  });
});

describe('guardClock', () => {
  it('reports throws from timer and interval callbacks instead of raising them', async () => {
    const clock = new VirtualClock(0);
    const errors: string[] = [];
    const g = guardClock(clock, (e) => errors.push((e as Error).message));
    g.setTimeout(() => {
      throw new Error('once');
    }, 10);
    let n = 0;
    g.setInterval(() => {
      n++;
      if (n === 2) throw new Error('second tick');
    }, 100);
    await clock.advance(350);
    expect(errors).toEqual(['once', 'second tick']);
    expect(n).toBe(3);
  });

  it('dispose cancels pending timers and sleeps and refuses new ones', async () => {
    const clock = new VirtualClock(0);
    const g = guardClock(clock, () => {});
    const fired: string[] = [];
    g.setTimeout(() => fired.push('timeout'), 100);
    g.setInterval(() => fired.push('interval'), 100);
    void g.sleep(100).then(() => fired.push('sleep'));
    expect(g.pendingTimers).toBe(3);
    g.dispose();
    expect(g.disposed).toBe(true);
    expect(g.pendingTimers).toBe(0);
    expect(clock.pendingTimers).toBe(0);
    g.setTimeout(() => fired.push('late'), 1);
    await clock.advance(1_000);
    expect(fired).toEqual([]);
  });
});
