/**
 * A sweep job handler for the pool tests: the real runSweepJob (report written to disk) over a runner that
 * derives a ReportInput from the worked example, scaling its fills by the `spread` parameter, and refuses a
 * negative spread the way a config validation would. Stands in for runBacktest so the pool, ranking and index
 * are tested on their own; the CLI test runs the real backtest.
 */
import { runSweepJob, type SweepJob, type SweepResult } from '../../../backtest/sweep/sweep-job.js';
import type { RunBacktestFn } from '../../../backtest/run-report.js';
import { workedExample } from '../report/fixture.js';

const run: RunBacktestFn = async (opts) => {
  const spread = Number(opts.params?.spread ?? 1);
  if (!(spread >= 0)) throw new Error(`params.spread: must be ≥ 0, got ${spread}`);
  const input = workedExample();
  // a wider spread earns more per trade in this made-up market
  input.equity = input.equity.map((p, i) => (i >= 4 ? { ...p, equity: String(1000 + 4.43 * spread * 1000) } : p));
  return { report: input, stats: { events: 100, wallMs: 1 } };
};

export default function handle(job: SweepJob): Promise<SweepResult> {
  return runSweepJob(job, run);
}
