/**
 * `rexbot validate`'s rehearsal puts its watches on the global timers and clock before the strategies start; when
 * one of them cannot go on, the rehearsal fails and every global it changed is the original again (the process
 * goes on: `rexbot validate` prints the error, a test runner runs its next file).
 */
import { describe, expect, it, vi } from 'vitest';
import { loadBotConfig } from '../../src/runtime/bot-config.js';
import { dryRun } from '../../src/runtime/dry-run.js';
import { repoPath } from '../helpers/shared.js';

vi.mock('../../src/runtime/clock-read-watch.js', () => ({
  watchClockReads: () => {
    throw new Error('clock watch refused');
  },
}));

describe('the validate rehearsal when a watch cannot start', () => {
  it('fails, and leaves setTimeout, setInterval and Date as they were', async () => {
    const globals = { setTimeout: globalThis.setTimeout, setInterval: globalThis.setInterval, Date: globalThis.Date };
    await expect(dryRun(loadBotConfig(repoPath('config', 'paper.yaml')))).rejects.toThrow('clock watch refused');
    expect({ setTimeout: globalThis.setTimeout, setInterval: globalThis.setInterval, Date: globalThis.Date }).toEqual(globals);
  });
});
