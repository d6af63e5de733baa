/**
 * The job handler of backtest sweeps, loaded in each worker thread by sweep-worker-boot.mjs: one plain-data
 * {@link SweepJob} in, its report written and a plain-data {@link SweepResult} out. The thread goes on to the next
 * job with nothing of this one left running on it: wall-clock timers its strategies left behind are cleared, and
 * counted in the result (job-timers.ts).
 */
import { runBacktest } from '../run-backtest.js';
import { trackJobTimers } from './job-timers.js';
import { runSweepJob, type SweepJob, type SweepResult } from './sweep-job.js';

/** Run one sweep job with the real backtest. */
export default async function handle(job: SweepJob): Promise<SweepResult> {
  const timers = trackJobTimers();
  let left = 0;
  let result: SweepResult;
  try {
    result = await runSweepJob(job, runBacktest);
  } finally {
    left = timers.stop();
  }
  return left > 0 ? { ...result, leftTimers: left } : result;
}
