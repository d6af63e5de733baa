/**
 * A sweep job handler for the pool's recycling test: each job keeps 32 MiB alive on its thread (what a job that
 * leaves something behind does, a little at a time) and answers with the thread it ran on.
 */
import { threadId } from 'node:worker_threads';
import type { SweepJob } from '../../../backtest/sweep/sweep-job.js';


/** What this thread's jobs left behind. */
const retained: number[][] = [];

export default function handle(job: SweepJob): { index: number; threadId: number } {
  // Numbers in an array, not a Buffer: on the V8 heap, which is what tinypool measures (heapUsed).
  retained.push(new Array<number>(4 << 20).fill(job.index + 0.5));
  return { index: job.index, threadId };
}
