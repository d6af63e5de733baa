import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Servers under test bind port 0 on loopback; a slow 2-core CI box needs headroom, not retries.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on the 2-core CI machine that is one, and the suite ran
    // serially, much of it waiting on sockets, child processes and minute boundaries. Two files at a time keep
    // both cores busy; every test waits for conditions, so none depends on having a core to itself.
    maxWorkers: 2,
  },
});
