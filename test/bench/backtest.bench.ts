/**
 * `backtest`: events per second through the whole backtest pipeline — rexbot reader, merge, backtest venue (book,
 * queues, fill model, engine settlement), gateway, sync, stores, strategy, risk, orders — on a recorded file of
 * synthetic L2 events (1,000,000 by default; `BENCH_BACKTEST_EVENTS` changes it), with a no-op strategy and with
 * the example market maker, and the same file only read and parsed as the baseline. Each run is its own process,
 * so the peak RSS figures are comparable: 4× the events with the no-op strategy shows whether memory stays flat.
 * Parse, no-op and market maker run twice each, alternating, and each figure is its faster run; no-op and market
 * maker run once more on the 4× file (`backtest-noop-4x`, `backtest-mm-4x`: how much of the 1× figure is warm-up),
 * and the same runs past their first 1× events (`backtest-noop-steady`, `backtest-mm-steady`: the rate once compiled).
 * Every child runs with the node flags of `rexbot backtest` (a 32 MB semi-space: src/cli/relaunch.mjs says why).
 * Targets (issue 10): ≥ 1,000,000 events/s no-op, ≥ 500,000 with the market maker, pipeline within 3× of
 * read-and-parse, peak RSS at 4M within 10 % of 1M.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKTEST_NODE_FLAGS } from '../../src/cli/relaunch.mjs';
import { repoPath } from '../helpers/shared.js';
import type { Bench, Figure } from './harness.js';
import { writeSyntheticRecording } from './backtest/write-recording.js';

interface ChildResult {
  events: number;
  ms: number;
  cpuMs: number;
  maxRssMb: number;
  /** The first progress report at or past the events the run was asked to mark (ms since it started). */
  mark?: { events: number; ms: number };
  /** What the strategy made the kernel do in a pipeline run: orders sent, fills, risk denials. */
  work?: { orders: number; fills: number; denials: number };
}

/**
 * One run in its own process, with the node flags `rexbot backtest` runs with (src/cli/relaunch.mjs), so the
 * figures are the command's own; the read-and-parse baseline runs with the same flags, as the reader does in a run.
 */
function child(mode: 'parse' | 'noop' | 'mm', file: string, markAt?: number): ChildResult {
  const args = [...BACKTEST_NODE_FLAGS, '--import', 'tsx', repoPath('test', 'bench', 'backtest', 'child.ts'), mode, file];
  if (markAt !== undefined) args.push(String(markAt));
  const out = execFileSync(process.execPath, args, {
    cwd: repoPath(),
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.trim().split('\n').pop()!) as ChildResult;
}

/**
 * Events per second after the run's mark: once V8 has compiled the pipeline (the market maker's order path costs
 * it ~540 TurboFan compiles, most of them inside its first 100k events), to the end of the run.
 */
function rateAfterMark(r: ChildResult): number {
  if (r.mark === undefined || r.events <= r.mark.events) throw new Error(`backtest bench: no mark before the end of a run of ${r.events} events`);
  return ((r.events - r.mark.events) * 1000) / (r.ms - r.mark.ms);
}

/** The run that took the least wall time (its CPU time and peak RSS come with it). */
function fastest(runs: ChildResult[]): ChildResult {
  return runs.reduce((a, b) => (b.ms < a.ms ? b : a));
}

/**
 * The work behind a market-maker figure, for comparing figures across runs and hosts: a change to the strategy, the
 * risk defaults or the data changes it, and then the events/s describe other work.
 */
function workOf(r: ChildResult): string {
  return r.work === undefined ? '' : `, ${r.work.orders} orders sent, ${r.work.fills} fills, ${r.work.denials} risk denials`;
}

export const benches: Bench[] = [
  {
    name: 'backtest',
    async run(): Promise<Figure[]> {
      const n = Number(process.env.BENCH_BACKTEST_EVENTS ?? 1_000_000);
      const dir = mkdtempSync(join(tmpdir(), 'rexbot-bench-backtest-'));
      try {
        const small = join(dir, 'events-1x.jsonl');
        const large = join(dir, 'events-4x.jsonl');
        await writeSyntheticRecording(small, n);
        // The ratio compares two processes run at different moments: on a shared machine one of them can lose its
        // core to another process for a while. Baseline and pipelines alternate, twice each, and each keeps its
        // faster run, so a pause hits neither side alone (the issue: "within 3×" held on a quiet machine and
        // failed under load with one run each; the market maker's single run read 0.130 of parse on a day its
        // own runs spread over 12 %).
        const parseRuns = [child('parse', small)];
        const noopRuns = [child('noop', small)];
        const mmRuns = [child('mm', small)];
        parseRuns.push(child('parse', small));
        noopRuns.push(child('noop', small));
        mmRuns.push(child('mm', small));
        const parse = fastest(parseRuns);
        const noop = fastest(noopRuns);
        const mm = fastest(mmRuns);
        await writeSyntheticRecording(large, 4 * n);
        rmSync(small);
        const noop4 = child('noop', large, n);
        const mm4 = child('mm', large, n);
        const rate = (r: ChildResult) => (r.events * 1000) / r.ms;
        const m = (x: number) => `${(x / 1e6).toFixed(2)}M`;
        // On a shared machine wall time includes other processes' turns: the CPU-time rate says what the code costs.
        const cpu = (r: ChildResult) => `${Math.round((r.events * 1000) / r.cpuMs)} events per CPU-second`;
        return [
          { bench: 'backtest-parse', value: rate(parse), unit: 'events/s', note: `read and parse only, ${m(parse.events)} events, faster of 2 runs, ${cpu(parse)}, peak RSS ${parse.maxRssMb.toFixed(0)} MB` },
          { bench: 'backtest-noop', value: rate(noop), unit: 'events/s', baseline: rate(parse), note: `whole pipeline, no-op strategy, ${m(noop.events)} events, faster of 2 runs alternating with parse, ${cpu(noop)} (target ≥ 1,000,000/s, within 3× of parse)` },
          { bench: 'backtest-mm', value: rate(mm), unit: 'events/s', baseline: rate(parse), note: `whole pipeline, example market maker, ${m(mm.events)} events, faster of 2 runs alternating with parse, ${cpu(mm)}${workOf(mm)} (target ≥ 500,000/s)` },
          { bench: 'backtest-rss-4x', value: noop4.maxRssMb, unit: 'MB', baseline: noop.maxRssMb, note: `peak RSS with the no-op strategy at ${m(noop4.events)} events vs ${m(noop.events)} (target ratio ≤ 1.1)` },
          // The same 4× run's rate against the 1× one: how much of a 1M-event figure is start-up and V8 warming up
          // (a fixed cost a longer file spreads thinner). Informative only; the targets are judged on the 1× file.
          { bench: 'backtest-noop-4x', value: rate(noop4), unit: 'events/s', baseline: rate(noop), note: `whole pipeline, no-op strategy, ${m(noop4.events)} events, one run, ${cpu(noop4)} (baseline: the ${m(noop.events)}-event figure)` },
          // The market maker's warm-up is longer than the no-op's (~650 functions optimised against ~250), so its
          // 4× figure says most about what a longer file would run at. Its peak RSS grows with its orders: the
          // report keeps every order and fill, the engine up to 10,000 closed orders per account.
          { bench: 'backtest-mm-4x', value: rate(mm4), unit: 'events/s', baseline: rate(mm), note: `whole pipeline, example market maker, ${m(mm4.events)} events, one run, ${cpu(mm4)}, peak RSS ${mm4.maxRssMb.toFixed(0)} MB${workOf(mm4)} (baseline: the ${m(mm.events)}-event figure)` },
          // The same two runs past their first n events (the mark comes with a progress report, every 10k events):
          // the rate once compiled, without the warm-up both figures above carry. Informative only, like them.
          { bench: 'backtest-noop-steady', value: rateAfterMark(noop4), unit: 'events/s', baseline: rate(noop), note: `the ${m(noop4.events)}-event no-op run after its first ${m(n)} events (baseline: the ${m(noop.events)}-event figure)` },
          { bench: 'backtest-mm-steady', value: rateAfterMark(mm4), unit: 'events/s', baseline: rate(mm), note: `the ${m(mm4.events)}-event market-maker run after its first ${m(n)} events (baseline: the ${m(mm.events)}-event figure)` },
        ];
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];
