/** The bot says when synchronous work held it: a tick that comes late by the threshold or more is a warning. */
import { describe, expect, it } from 'vitest';
import { watchStalls } from '../../src/runtime/stall-watch.js';

describe('watchStalls', () => {
  it('warns once per late tick with how long the process was held; on-time ticks say nothing; stop cancels', () => {
    let t = 0;
    let tick: () => void = () => undefined;
    let cancelled = false;
    const warnings: Array<{ blockedMs: number }> = [];
    const watch = watchStalls({
      logger: { warn: ((fields: { blockedMs: number }) => void warnings.push(fields)) as never },
      intervalMs: 500,
      thresholdMs: 2000,
      now: () => t,
      every: (fn) => ((tick = fn), { cancel: () => void (cancelled = true) }),
    });
    for (let i = 0; i < 4; i++) ((t += 500), tick());
    t += 510;
    tick();
    expect(warnings).toEqual([]);
    // A handler held the process 8 s: the next tick is 8 s late.
    t += 8_500;
    tick();
    expect(warnings).toEqual([{ blockedMs: 8000 }]);
    t += 500;
    tick();
    expect(warnings).toHaveLength(1);
    watch.stop();
    expect(cancelled).toBe(true);
  });
});
