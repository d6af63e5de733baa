/**
 * {@link fireTimers}: the backtest loop's `clock.advanceTo(target, drainMicrotasks)`, with a drain only where one
 * has something to run.
 *
 * advanceTo drains (a promise, a `process.nextTick` and their async hooks) before the first due timer and after each
 * one, so that the bot's reactions run to their end at the time they belong to. A drain when nothing was queued
 * runs nothing; the loop's {@link ReactionWatch} tells which ones those are, as it already does for deliveries (the
 * 1 s risk timers alone brought two drains per second of recorded time to every run). The timers are the same, run
 * in the same order at the same times: each step is {@link VirtualClock.fireNext}, advanceTo's own step
 * (test/backtest/fire-timers.test.ts runs both on random timers and reactions and compares what happened when).
 */
import { drainMicrotasks, type VirtualClock } from '../../src/core/clock.js';
import type { ReactionWatch } from './reaction-watch.js';

/**
 * Fire the timers due up to `target` in order and move the clock to `target`; drain before the first one if
 * `settleFirst` (something may be queued already), and after a timer only if running it queued work. `watch` must
 * be enabled; it is reset here, and not watching on return.
 *
 * Returns undefined when it is done without a drain (nothing was queued before or by any timer it fired): the
 * loop then goes on at once, as after an event that queued nothing, instead of awaiting a promise that had
 * nothing to wait for (an async call and an await for most of a market maker's throttle and risk timers).
 * Otherwise the promise of the rest, which drains first.
 */
export function fireTimers(clock: VirtualClock, watch: ReactionWatch, target: number, settleFirst: boolean): Promise<void> | undefined {
  if (settleFirst) return settleAndFire(clock, watch, target);
  for (;;) {
    if (!fireOne(clock, watch, target)) {
      clock.set(target);
      return undefined;
    }
    if (watch.saw) return settleAndFire(clock, watch, target);
  }
}

/** The rest of {@link fireTimers} from a drain on: drain, fire the next due timer, drain again if it queued work. */
async function settleAndFire(clock: VirtualClock, watch: ReactionWatch, target: number): Promise<void> {
  let settle = true;
  for (;;) {
    if (settle) await drainMicrotasks();
    if (!fireOne(clock, watch, target)) break;
    settle = watch.saw;
  }
  clock.set(target);
}

/** Fire the next timer due by `target`, watched from a reset watch; whether one was due. */
function fireOne(clock: VirtualClock, watch: ReactionWatch, target: number): boolean {
  watch.reset();
  watch.watching = true;
  try {
    return clock.fireNext(target);
  } finally {
    watch.watching = false;
  }
}
