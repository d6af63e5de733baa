/**
 * trackJobTimers: what a sweep job leaves running on its worker thread is what its code started and neither fired
 * (a one-shot) nor cleared, however it was cleared; it is cleared when the tracker stops, and the global timer
 * functions are the real ones again. A one-shot that fired and was re-armed with `.refresh()` (a watchdog's pattern) is
 * pending again, so it is the job's too. Whether a timer was cleared is told by its not firing before a later one (Node
 * fires timers in the order they fall due), never by counting the process's timers, which include vitest's own and
 * failed the test under load. (The CLI test, test/cli/leaked-timers.test.ts, runs it on real threads.)
 */
import { describe, expect, it, vi } from 'vitest';
import { interval, take, lastValueFrom, throttleTime, timer } from 'rxjs';
import { trackJobTimers } from '../../../backtest/sweep/job-timers.js';

describe('trackJobTimers', () => {
  it('counts and clears only the timers still pending at the end; puts the globals back', async () => {
    const real = { setTimeout, setInterval, clearTimeout, clearInterval };
    const timers = trackJobTimers();
    let ticks = 0;
    clearInterval(setInterval(() => undefined, 1000));
    clearTimeout(setTimeout(() => undefined, 1000));
    // cleared by id, and with the other kind's function (Node's take either)
    clearTimeout(+setInterval(() => undefined, 1000));
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    // RxJS on its default scheduler, run to the end: its timers are its own business, and done
    await lastValueFrom(interval(1).pipe(throttleTime(2), take(3)));
    await lastValueFrom(timer(1));
    // Left running by the job (nothing between here and stop() lets them fire).
    setInterval(() => ticks++, 1);
    setTimeout(() => ticks++, 1);
    expect(timers.stop()).toBe(2);
    expect({ setTimeout, setInterval, clearTimeout, clearInterval }).toEqual(real);
    await afterTimersDueBefore();
    // cleared: they never fired (a count of the process's timers would also count vitest's own, which come and go)
    expect(ticks).toBe(0);
    expect(timers.stop()).toBe(2);
  });

  it('a fired timeout re-armed with refresh() is pending again: counted and cleared; a cleared one refreshed is not', async () => {
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
    await afterTimersDueBefore();
    // the re-armed watchdog was cleared: it did not fire again
    expect(fired).toBe(1);
    // refreshed after the job: nothing of the finished tracker comes back to life
    watchdog.refresh();
    clearTimeout(watchdog);
    expect(fired).toBe(1);
  });
});

/**
 * Resolves once every timer due within 1 ms of now would have fired: Node fires timers in the order they fall due,
 * so a timer still armed then would have run before this one. An order, not a wait for the machine.
 */
function afterTimersDueBefore(): Promise<void> {
  return new Promise<void>((resolve) => setTimeout(resolve, 10));
}
