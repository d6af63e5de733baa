/**
 * systemClock waits any delay, also beyond the ~24.8 days (2^31-1 ms) a Node timer takes: a longer Node timer fires
 * after 1 ms, so `rexbot record --duration 3000000` (3e9 ms) stopped at once (found by an attack pass). Checked in
 * vitest's fake time, whose timers overflow as Node's do, so 35 days pass without waiting for them.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, systemClock } from '../../src/core/clock.js';

const DAY = 24 * 3600 * 1000;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('systemClock: delays longer than a Node timer takes', () => {
  it('sleep, setTimeout and setInterval wait the whole delay', async () => {
    const fired: string[] = [];
    const at = (what: string) => () => fired.push(`${what}@${Math.round((Date.now() - start) / DAY)}`);
    const start = Date.now();
    void systemClock.sleep(35 * DAY).then(at('sleep'));
    systemClock.setTimeout(at('timeout'), 30 * DAY);
    const every = systemClock.setInterval(at('interval'), 26 * DAY);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fired).toEqual([]);
    await vi.advanceTimersByTimeAsync(60 * DAY);
    every.cancel();
    expect(fired).toEqual(['interval@26', 'timeout@30', 'sleep@35', 'interval@52']);
  });

  it('fires at the exact millisecond, just past the limit and many times past it', async () => {
    for (const ms of [MAX_TIMER_MS, MAX_TIMER_MS + 1, 3_000_000_000, 5 * MAX_TIMER_MS + 7]) {
      let fired = false;
      systemClock.setTimeout(() => (fired = true), ms);
      await vi.advanceTimersByTimeAsync(ms - 1);
      expect(fired, `${ms}`).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(fired, `${ms}`).toBe(true);
    }
  });

  it('a cancelled long timer never fires, whichever step it is in', async () => {
    let fired = 0;
    const early = systemClock.setTimeout(() => fired++, 3 * MAX_TIMER_MS);
    const late = systemClock.setTimeout(() => fired++, 3 * MAX_TIMER_MS);
    early.cancel();
    await vi.advanceTimersByTimeAsync(2 * MAX_TIMER_MS + 5);
    late.cancel();
    const every = systemClock.setInterval(() => {
      fired++;
      every.cancel(); // from inside its own callback: not armed again
    }, MAX_TIMER_MS + 1);
    await vi.advanceTimersByTimeAsync(10 * MAX_TIMER_MS);
    expect(fired).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
