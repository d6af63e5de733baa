/**
 * Start a kernel whose clock is a VirtualClock: its start waits on timers (snapshot retries, the first risk
 * evaluation), so virtual time is moved along until it resolves — first a few turns at the same instant, then
 * 100 ms at a time — rather than waiting for real time that never moves a virtual clock.
 */
import type { VirtualClock } from '../../src/core/clock.js';

/** Resolve when `kernel.start()` has; rejects as it does. */
export async function startOnVirtualClock(kernel: { start(): Promise<unknown> }, clock: VirtualClock): Promise<void> {
  let started = false;
  const starting = kernel.start().finally(() => (started = true));
  for (let i = 0; i < 100 && !started; i++) await clock.advance(i < 10 ? 0 : 100);
  await starting;
}
