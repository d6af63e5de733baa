/**
 * The job handler of backtest sweeps, loaded in each worker thread by sweep-worker-boot.mjs: one plain-data
 * {@link SweepJob} in, its report written and a plain-data {@link SweepResult} out.
 */
import { runBacktest } from '../run-backtest.js';
import { runSweepJob, type SweepJob, type SweepResult } from './sweep-job.js';

/** Run one sweep job with the real backtest. */
export default function handle(job: SweepJob): Promise<SweepResult> {
  return runSweepJob(job, runBacktest);
}
