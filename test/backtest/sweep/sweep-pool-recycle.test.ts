/**
 * A sweep thread that holds too much after a job is replaced before its next one (createSweepPool's
 * recycleHeapBytes): a `rexbot worker` runs jobs on its threads for days, and each job leaves its plugin's module
 * instance behind (a backtest imports its plugin anew). Below the limit a thread keeps taking jobs.
 */
import { describe, expect, it } from 'vitest';
import { createSweepPool } from '../../../backtest/sweep/sweep-pool.js';
import type { SweepJob } from '../../../backtest/sweep/sweep-job.js';

const HANDLER = new URL('./retaining-handler.ts', import.meta.url);
const job = (index: number): SweepJob => ({ index, configPath: '/nowhere.yaml', outDir: '/nowhere', params: {} });

/** The threads three jobs ran on, one after another on a one-thread pool. */
async function threadsOf(recycleHeapBytes: number): Promise<number[]> {
  const pool = createSweepPool(HANDLER, 1, recycleHeapBytes);
  try {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(((await pool.run(job(i))) as unknown as { threadId: number }).threadId);
    return ids;
  } finally {
    await pool.destroy();
  }
}

describe('sweep pool threads', () => {
  it('replaces a thread whose heap is over the limit after a job', async () => {
    // Each job keeps 32 MiB: over a 16 MiB limit after every job.
    const ids = await threadsOf(16 << 20);
    expect(new Set(ids).size).toBe(3);
  });

  it('keeps a thread below the limit for the next job', async () => {
    const ids = await threadsOf(1 << 30);
    expect(new Set(ids).size).toBe(1);
  });
});
