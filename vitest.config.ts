import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Servers under test bind port 0 on loopback; a slow 2-core CI box needs headroom, not retries.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
