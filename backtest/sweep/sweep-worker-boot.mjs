// Entry of a sweep worker thread. Worker threads do not inherit the main thread's tsx loader on Node 20, so the
// worker registers it itself, then loads the TypeScript job handler named in the pool's workerData (a module
// whose default export takes a SweepJob and resolves with a SweepResult).
import Tinypool from 'tinypool';
import { register } from 'tsx/esm/api';

register();
const { handler } = Tinypool.workerData;
const mod = await import(handler);

// A task is { job, started? }: `started` (a MessagePort) is told when the job starts, so a time limit counts from here.
export default function runJob({ job, started }) {
  if (started) {
    started.postMessage('started');
    started.close();
  }
  return mod.default(job);
}
