/**
 * A sweep job handler that does nothing (no backtest, no files): timing jobs through it measures what the queue
 * (or the local pool) itself costs per job.
 */
import type { SweepJob, SweepResult } from '../../../backtest/sweep/sweep-job.js';
import type { TotalMetrics } from '../../../backtest/report/metrics.js';

export default function handle(job: SweepJob): Promise<SweepResult> {
  return Promise.resolve({ index: job.index, params: job.params, ok: true, outDir: job.outDir, html: '', metrics: {} as TotalMetrics, events: 0, wallMs: 0 });
}
