/**
 * fireTimers (backtest/run/fire-timers.ts) against the general `clock.advanceTo(target, drainMicrotasks)` it stands
 * for in the backtest loop: random timers whose callbacks react synchronously, after awaits, through
 * queueMicrotask, process.nextTick, a promise made before and settled by the timer, or by arming more timers from
 * a continuation. Whatever ran, and the virtual time it saw, must be the same; and a watch that sees nothing (so
 * that no drain is made) must give a different story, or the comparison would prove nothing.
 */
import { describe, expect, it } from 'vitest';
import { drainMicrotasks, VirtualClock } from '../../src/core/clock.js';
import { mulberry32 } from '../../src/core/prng.js';
import { fireTimers } from '../../backtest/run/fire-timers.js';
import { ReactionWatch } from '../../backtest/run/reaction-watch.js';

const T = 1_700_000_000_000;

/** One random run: `advance` moves the clock to each target; returns what ran, with the time each saw. */
async function scenario(seed: number, advance: (clock: VirtualClock, target: number, first: boolean) => Promise<void>): Promise<string[]> {
  const random = mulberry32(seed);
  const clock = new VirtualClock(T);
  const log: string[] = [];
  let label = 0;
  const note = (what: string) => log.push(`${what} @${clock.now() - T}`);
  const arm = (depth: number): void => {
    const id = label++;
    const kind = Math.floor(random() * 7);
    const ms = Math.floor(random() * 6) * 3;
    let settle: (() => void) | undefined;
    if (kind === 5) {
      // A promise made now, settled by the timer later (its waiting `then` becomes a job then).
      const p = new Promise<void>((r) => (settle = r));
      void p.then(() => note(`${id} deferred`));
    }
    const steps = 1 + Math.floor(random() * 4);
    const again = depth < 2 && random() < 0.3;
    clock.setTimeout(() => {
      note(`${id} fired`);
      switch (kind) {
        case 0:
          break;
        case 1:
          void (async () => {
            for (let i = 0; i < steps; i++) await null;
            note(`${id} after ${steps} awaits`);
            // Armed from a continuation, during the drain: due at once or later, taken in order.
            if (again) arm(depth + 1);
          })();
          break;
        case 2:
          queueMicrotask(() => note(`${id} microtask`));
          break;
        case 3:
          process.nextTick(() => note(`${id} tick`));
          break;
        case 4:
          void Promise.resolve().then(() => note(`${id} then`));
          break;
        case 5:
          settle!();
          break;
        case 6:
          if (again) arm(depth + 1);
          break;
      }
    }, ms);
  };
  let first = true;
  for (let step = 0; step < 300; step++) {
    const n = Math.floor(random() * 3);
    for (let i = 0; i < n; i++) arm(0);
    // Work the caller left queued (the bot's reactions to the last event): the first drain must run it.
    const queued = random() < 0.3;
    if (queued) void Promise.resolve().then(() => note(`step ${step} leftover`));
    const target = clock.now() + Math.floor(random() * 10);
    await advance(clock, target, first || queued || random() < 0.3);
    first = false;
    note(`step ${step} to ${target - T}`);
  }
  return log;
}

describe('fireTimers: advanceTo with drainMicrotasks, draining only where work was queued', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`the same reactions at the same times, seed ${seed}`, async () => {
      const want = await scenario(seed, (clock, target) => clock.advanceTo(target, drainMicrotasks));
      const watch = new ReactionWatch().enable();
      let got: string[];
      try {
        got = await scenario(seed, async (clock, target, first) => await fireTimers(clock, watch, target, first));
      } finally {
        watch.disable();
      }
      expect(got).toEqual(want);
      expect(want.filter((l) => l.includes('fired')).length).toBeGreaterThan(200);
      // A watch that is not enabled sees nothing: no drain after any timer, and reactions run late.
      const blind = new ReactionWatch();
      const late = await scenario(seed, async (clock, target, first) => await fireTimers(clock, blind, target, first));
      expect(late).not.toEqual(want);
    });
  }
});
