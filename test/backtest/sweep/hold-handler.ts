/**
 * A sweep job handler for the distributed-sweep tests: the pool fixture (fixture-handler.ts) plus a marker file
 * `start-<index>-<pid>` per start in `REXBOT_TEST_HOLD_DIR`, and the job `REXBOT_TEST_HOLD_INDEX` held until the
 * file `release` appears there — so a test can kill the worker process that holds it, mid-job, at a known moment.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SweepJob, SweepResult } from '../../../backtest/sweep/sweep-job.js';
import fixture from './fixture-handler.js';

export default async function handle(job: SweepJob): Promise<SweepResult> {
  const dir = process.env.REXBOT_TEST_HOLD_DIR;
  if (dir) {
    writeFileSync(join(dir, `start-${job.index}-${process.pid}`), '');
    if (String(job.index) === process.env.REXBOT_TEST_HOLD_INDEX) {
      // polls a file rather than a timer-based assertion: the test decides when the job may end
      while (!existsSync(join(dir, 'release'))) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return fixture(job);
}
