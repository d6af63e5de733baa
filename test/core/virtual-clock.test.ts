/**
 * VirtualClock keeps the timer due next instead of scanning its timers on every question (a backtest asks before
 * every recorded event), and advanceTo steps through fireNext. Against a reference clock that scans, as the clock
 * did before: random timeouts and intervals (many due at the same time), cancellations (of pending, fired and
 * already cancelled timers, and from inside timers), timers that arm others, advanceTo and fireNext; the same
 * timers must fire in the same order at the same times, and nextTimerAt and pendingTimers must agree throughout.
 */
import { describe, expect, it } from 'vitest';
import { type TimerHandle, VirtualClock } from '../../src/core/clock.js';
import { mulberry32 } from '../../src/core/prng.js';

interface ScanTimer {
  at: number;
  seq: number;
  fn: () => void;
  every: number | undefined;
}

/** The clock's timer rules by a scan of every pending timer (the reference). */
class ScanClock {
  #now: number;
  #seq = 0;
  #timers: ScanTimer[] = [];
  constructor(now: number) {
    this.#now = now;
  }
  now(): number {
    return this.#now;
  }
  setTimeout(fn: () => void, ms: number): TimerHandle {
    return this.#add(fn, Math.max(0, ms), undefined);
  }
  setInterval(fn: () => void, ms: number): TimerHandle {
    return this.#add(fn, Math.max(1, ms), Math.max(1, ms));
  }
  get pendingTimers(): number {
    return this.#timers.length;
  }
  nextTimerAt(): number | undefined {
    return this.#due()?.at;
  }
  fireNext(target: number): boolean {
    const next = this.#due();
    if (!next || next.at > target) return false;
    this.#now = Math.max(this.#now, next.at);
    this.#timers.splice(this.#timers.indexOf(next), 1);
    if (next.every !== undefined) {
      next.at += next.every;
      next.seq = this.#seq++;
      this.#timers.push(next);
    }
    next.fn();
    return true;
  }
  advanceTo(target: number): void {
    while (this.fireNext(target));
    this.#now = Math.max(this.#now, target);
  }
  #add(fn: () => void, ms: number, every: number | undefined): TimerHandle {
    const t = { at: this.#now + ms, seq: this.#seq++, fn, every };
    this.#timers.push(t);
    return {
      cancel: () => {
        const i = this.#timers.indexOf(t);
        if (i >= 0) this.#timers.splice(i, 1);
      },
    };
  }
  #due(): ScanTimer | undefined {
    let best: ScanTimer | undefined;
    for (const t of this.#timers) if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    return best;
  }
}

type AnyClock = Pick<VirtualClock, 'now' | 'setTimeout' | 'setInterval' | 'nextTimerAt' | 'fireNext' | 'pendingTimers'>;

/**
 * One random run on `clock`, driven by its own generator of `seed` (both clocks make the same draws as long as they
 * fire the same timers in the same order); returns what happened, in order.
 */
async function scenario(clock: AnyClock, advanceTo: (target: number) => Promise<void> | void, seed: number): Promise<string[]> {
  const random = mulberry32(seed);
  const log: string[] = [];
  const handles: TimerHandle[] = [];
  let label = 0;
  const arm = (depth: number): void => {
    const id = label++;
    const interval = random() < 0.25;
    // Few distinct delays: many timers fall due at the same time (ties go to the older).
    const ms = interval ? 1 + Math.floor(random() * 6) * 5 : Math.floor(random() * 8) * 5;
    let fires = 0;
    const fn = () => {
      log.push(`fire ${id} at ${clock.now()} next ${clock.nextTimerAt()} pending ${clock.pendingTimers}`);
      fires++;
      // From inside a timer: arm another, cancel one (perhaps itself), or nothing.
      const roll = random();
      if (roll < 0.3 && depth < 3) arm(depth + 1);
      else if (roll < 0.45 && handles.length > 0) handles[Math.floor(random() * handles.length)]!.cancel();
      else if (interval && fires > 3) handle.cancel();
    };
    const handle = interval ? clock.setInterval(fn, ms) : clock.setTimeout(fn, ms);
    handles.push(handle);
  };
  for (let step = 0; step < 400; step++) {
    const roll = random();
    if (roll < 0.45) arm(0);
    else if (roll < 0.6 && handles.length > 0) handles[Math.floor(random() * handles.length)]!.cancel();
    else if (roll < 0.8) await advanceTo(clock.now() + Math.floor(random() * 12));
    else {
      const target = clock.now() + Math.floor(random() * 12);
      log.push(`step to ${target}: ${clock.fireNext(target)}`);
    }
    log.push(`now ${clock.now()} next ${clock.nextTimerAt()} pending ${clock.pendingTimers}`);
  }
  return log;
}

describe('VirtualClock: the timer due next, kept', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`fires as a clock that scans its timers, seed ${seed}`, async () => {
      const T = 1_700_000_000_000;
      const ref = new ScanClock(T);
      const want = await scenario(ref, (t) => ref.advanceTo(t), seed);
      const clock = new VirtualClock(T);
      const got = await scenario(clock, (t) => clock.advanceTo(t), seed);
      expect(got).toEqual(want);
      expect(want.filter((l) => l.startsWith('fire')).length).toBeGreaterThan(200);
    });
  }
});
