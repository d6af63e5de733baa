import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { HeartbeatWatchdog } from '../../../src/bittrex/hub/heartbeat-watchdog.js';

describe('HeartbeatWatchdog', () => {
  it('stays quiet while touched, and reports once after a full timeout of silence', async () => {
    const clock = new VirtualClock(0);
    const silences: number[] = [];
    const dog = new HeartbeatWatchdog(clock, 15_000, (ms) => silences.push(ms));
    dog.start();
    for (let i = 0; i < 20; i++) {
      await clock.advance(5_000);
      dog.touch();
    }
    expect(silences).toEqual([]);
    await clock.advance(60_000);
    expect(silences).toHaveLength(1);
    expect(silences[0]).toBeGreaterThanOrEqual(15_000);
    expect(dog.running).toBe(false);
    expect(clock.pendingTimers).toBe(0);
  });

  it('keeps a single timer however many messages arrive', async () => {
    const clock = new VirtualClock(0);
    const dog = new HeartbeatWatchdog(clock, 15_000, () => undefined);
    dog.start();
    for (let i = 0; i < 10_000; i++) dog.touch();
    expect(clock.pendingTimers).toBe(1);
    dog.stop();
  });

  it('never reports after stop()', async () => {
    const clock = new VirtualClock(0);
    let fired = false;
    const dog = new HeartbeatWatchdog(clock, 1_000, () => (fired = true));
    dog.start();
    dog.stop();
    await clock.advance(10_000);
    expect(fired).toBe(false);
    expect(clock.pendingTimers).toBe(0);
  });
});
