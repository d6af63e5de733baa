/**
 * trackJobTimers: what a sweep job leaves running on its worker thread is what its code started and neither fired
 * (a one-shot) nor cleared, however it was cleared; it is cleared when the tracker stops, and the global timer
 * functions are the real ones again. (The CLI test, test/cli/leaked-timers.test.ts, runs it on real threads.)
 */
import { describe, expect, it } from 'vitest';
import { interval, take, lastValueFrom, throttleTime, timer } from 'rxjs';
import { trackJobTimers } from '../../../backtest/sweep/job-timers.js';

describe('trackJobTimers', () => {
  it('counts and clears only the timers still pending at the end; puts the globals back', async () => {
    const real = { setTimeout, setInterval, clearTimeout, clearInterval };
    const holding = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = holding();
    const timers = trackJobTimers();
    let ticks = 0;
    setInterval(() => ticks++, 60_000);
    setTimeout(() => ticks++, 60_000);
    clearInterval(setInterval(() => undefined, 1000));
    clearTimeout(setTimeout(() => undefined, 1000));
    // cleared by id, and with the other kind's function (Node's take either)
    clearTimeout(+setInterval(() => undefined, 1000));
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    // RxJS on its default scheduler, run to the end: its timers are its own business, and done
    await lastValueFrom(interval(1).pipe(throttleTime(2), take(3)));
    await lastValueFrom(timer(1));
    expect(timers.stop()).toBe(2);
    expect({ setTimeout, setInterval, clearTimeout, clearInterval }).toEqual(real);
    // cleared: they no longer hold the thread
    expect(holding()).toBe(before);
    expect(ticks).toBe(0);
    expect(timers.stop()).toBe(2);
  });
});
