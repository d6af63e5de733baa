/**
 * `node --expose-gc --import tsx test/bench/read-all-child.ts <format> <path> [params json]`: read a file with a
 * reader in a fresh process and print `{"events":N,"maxRssMb":M,"maxLiveHeapMb":H}` — how the `backtest-read`
 * bench measures memory without the rest of the bench (generators, other readers) in the same heap. The live heap
 * is sampled after a full GC every 50,000 events: what the reader really holds, whatever V8 keeps reserved.
 */
import { openReader } from '../../backtest/readers/index.js';

const SAMPLE_EVERY = 50_000;
const [format, path, params] = process.argv.slice(2);
if (!format || !path) throw new Error('usage: read-all-child <format> <path> [params json]');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const reader = openReader(format, path, params ? { params: JSON.parse(params) as Record<string, unknown> } : {});
let events = 0;
let next = SAMPLE_EVERY;
let maxLiveHeap = 0;
for await (const batch of reader.batches()) {
  events += batch.length;
  if (events >= next) {
    next += SAMPLE_EVERY;
    gc();
    maxLiveHeap = Math.max(maxLiveHeap, process.memoryUsage().heapUsed);
  }
}
gc();
maxLiveHeap = Math.max(maxLiveHeap, process.memoryUsage().heapUsed);
process.stdout.write(`${JSON.stringify({ events, maxRssMb: process.resourceUsage().maxRSS / 1024, maxLiveHeapMb: maxLiveHeap / 1e6 })}\n`);
