/**
 * `backtest-read`: how fast each backtest data reader reads and parses a large generated file (events/s, the
 * file read to the end through `readAll`), and whether its memory stays flat as the file grows.
 *
 * - `backtest-read-<format>`: events/s on a generated file of {@link EVENTS} events (test/bench/reader-data.ts:
 *   one market, book deltas and trades 4:1, a snapshot every 1,000 events; candle files: {@link EVENTS} candles).
 *   This is also the read-and-parse baseline the `backtest` bench compares its whole pipeline against. The note
 *   adds events per CPU-second of the process (zlib's threads included), steadier than wall time when the machine
 *   is shared.
 * - `backtest-read-rss-<format>`: peak RSS (MB) of a fresh process reading 4× {@link EVENTS} events, against the
 *   same for {@link EVENTS} (baseline): a ratio near 1 means memory does not grow with the file. RSS also holds
 *   what V8 and zlib keep reserved, so it creeps a little with run length;
 * - `backtest-read-heap-<format>`: the largest live heap (after a full GC, sampled every 50k events) in the same two
 *   runs: what the reader really holds, flat when it streams.
 *
 * Files are generated into a temp directory first (not timed) and removed after.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAll } from '../../backtest/readers/index.js';
import type { Bench, Figure } from './harness.js';
import { BENCH_FORMATS, type BenchFormat, writeBenchFile } from './reader-data.js';

const EVENTS = 100_000;
const RUNS = 3;
const RSS_FORMATS: readonly BenchFormat[] = ['tardis-book', 'rexbot', 'candles-csv-desc'];

/** One read: events per wall-clock second, and per CPU second of this process (steadier on a shared machine). */
async function timeRead(format: string, path: string, params: Record<string, unknown> | undefined): Promise<{ events: number; perSecond: number; perCpuSecond: number }> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const events = await readAll(format, path, params ? { params } : {});
  const used = process.cpuUsage(cpu);
  return { events, perSecond: (events * 1000) / (performance.now() - start), perCpuSecond: (events * 1e6) / (used.user + used.system) };
}

function childMemory(format: string, path: string, params: Record<string, unknown> | undefined): { events: number; maxRssMb: number; maxLiveHeapMb: number } {
  const args = ['--expose-gc', '--import', 'tsx', join(import.meta.dirname, 'read-all-child.ts'), format, path];
  if (params) args.push(JSON.stringify(params));
  return JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' })) as { events: number; maxRssMb: number; maxLiveHeapMb: number };
}

export const benches: Bench[] = [
  {
    name: 'backtest-read',
    async run(): Promise<Figure[]> {
      const dir = mkdtempSync(join(tmpdir(), 'rexbot-bench-read-'));
      const figures: Figure[] = [];
      try {
        for (const f of BENCH_FORMATS) {
          const path = join(dir, f);
          const { format, params } = writeBenchFile(f, path, EVENTS);
          await timeRead(format, path, params); // warm-up: JIT, page cache
          const runs = [];
          for (let i = 0; i < RUNS; i++) runs.push(await timeRead(format, path, params));
          const best = Math.max(...runs.map((r) => r.perSecond));
          const bestCpu = Math.max(...runs.map((r) => r.perCpuSecond));
          const mb = statSync(path).size / 1e6;
          figures.push({
            bench: `backtest-read-${f}`, value: best, unit: 'events/s',
            note: `${runs[0]!.events} events, ${mb.toFixed(1)} MB file, best of ${RUNS}; ${Math.round(bestCpu)} events per CPU-second`,
          });
        }
        for (const f of RSS_FORMATS) {
          const small = join(dir, `${f}-1x`);
          const large = join(dir, `${f}-4x`);
          const { format, params } = writeBenchFile(f, small, EVENTS);
          writeBenchFile(f, large, EVENTS * 4);
          const a = childMemory(format, small, params);
          const b = childMemory(format, large, params);
          figures.push({
            bench: `backtest-read-rss-${f}`, value: b.maxRssMb, unit: 'MB', baseline: a.maxRssMb,
            note: `peak RSS reading ${b.events} events vs ${a.events} (baseline); target ratio ≈ 1`,
          }, {
            bench: `backtest-read-heap-${f}`, value: b.maxLiveHeapMb, unit: 'MB', baseline: a.maxLiveHeapMb,
            note: `largest live heap (after full GC, every 50k events) reading ${b.events} events vs ${a.events}`,
          });
          rmSync(large, { force: true });
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      return figures;
    },
  },
];
