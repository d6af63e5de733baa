/**
 * Where a backtest run keeps its scratch files (the kernel's order journal, which a backtest never reads again):
 * a folder of its own under the system's temp folder, or under `REXBOT_BACKTEST_TMP` when the command running it
 * set one. `rexbot backtest` does, and removes that folder however it ends, so a run interrupted by Ctrl-C leaves
 * nothing behind, the runs of a sweep's worker threads included (they inherit the environment).
 */
import { tmpdir } from 'node:os';

/** The environment variable naming the folder runs put their scratch folders in. */
export const SCRATCH_ENV = 'REXBOT_BACKTEST_TMP';

/** The folder a run's scratch folder goes in. */
export function scratchParent(): string {
  return process.env[SCRATCH_ENV] || tmpdir();
}
