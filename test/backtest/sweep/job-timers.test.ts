/**
 * trackJobTimers: what a sweep job leaves running on its worker thread is what its code started and neither fired
 * (a one-shot) nor cleared, however it was cleared; it is cleared when the tracker stops, and the global timer
 * functions are the real ones again. A one-shot that fired and was re-armed with `.refresh()` (a watchdog's pattern) is
 * pending again, so it is the job's too. (The CLI test, test/cli/leaked-timers.test.ts, runs it on real threads.)
 */
import { describe, expect, it, vi } from 'vitest';
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

  it('a fired timeout re-armed with refresh() is pending again: counted and cleared; a cleared one refreshed is not', async () => {
    const holding = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = holding();
    const timers = trackJobTimers();
    let fired = 0;
    const watchdog = setTimeout(() => fired++, 1);
    await vi.waitFor(() => expect(fired).toBe(1));
    // Node re-arms a timeout that already fired: a plugin's watchdog left so would tick into the thread's next job.
    watchdog.refresh();
    const cleared = setTimeout(() => fired++, 60_000);
    clearTimeout(cleared);
    cleared.refresh(); // Node leaves a cleared timeout cleared
    clearTimeout(null as unknown as undefined);
    expect(timers.stop()).toBe(1);
    expect(holding()).toBe(before);
    // refreshed after the job: nothing of the finished tracker comes back to life
    watchdog.refresh();
    clearTimeout(watchdog);
    expect(fired).toBe(1);
  });
});
