import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Servers under test bind port 0 on loopback; a slow 2-core CI box needs headroom, not retries.
    // Timeouts bound a hung test; they are not assertions. Under load (both cores busy with other jobs) the slowest
    // honest tests took 25-30 s, so the bound sits well above that.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Condition waits (vi.waitFor) get a bound of 30 s instead of vitest's 1 s: see test/setup/wait-defaults.ts.
    setupFiles: ['test/setup/wait-defaults.ts'],
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on the 2-core CI machine that is one, and the suite ran
    // serially, much of it waiting on sockets, child processes and minute boundaries. Three files at a time keep
    // both cores busy even while one file waits on the wall clock (the shared rate-limit e2e spends ~3 minutes
    // waiting for minute boundaries): on the 2-core machine the suite took 492 s with two and 400 s with three,
    // back to back. Every test waits for conditions, so none depends on having a core to itself (the suite also
    // passes with both cores taken by other processes).
    maxWorkers: 3,
  },
});
