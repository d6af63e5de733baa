/**
 * The backtest loop applies the next event without a turn of the event loop when the bot's reactions to the last
 * one queued nothing (backtest/run/reaction-watch.ts). What the watch sees, and that reactions of every asynchronous
 * kind still run to their end before the next book arrives, with deliveries at once (market-data latency 0, the
 * path that skips turns) and after a latency (delivered by clock timers, where time does not move meanwhile).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ReactionWatch } from '../../backtest/run/reaction-watch.js';
import { runBacktest } from '../../backtest/run-backtest.js';
import { repoPath } from '../helpers/shared.js';
import type { ReactionRecord } from './fixtures/reaction-probe.js';
import { memoryReader, syntheticEvents } from './synthetic-events.js';

const T0 = Date.parse('2024-03-01T00:00:00Z');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('ReactionWatch', () => {
  /** Whether running `fn` while watching was seen to queue work. */
  const sees = (watch: ReactionWatch, fn: () => void): boolean => {
    watch.reset();
    watch.watching = true;
    try {
      fn();
    } finally {
      watch.watching = false;
    }
    return watch.saw;
  };

  it('sees promise jobs, queueMicrotask, nextTick and a pending promise settled; not plain synchronous code', async () => {
    const watch = new ReactionWatch().enable();
    try {
      let resolve!: () => void;
      let reject!: (e: Error) => void;
      const pending = new Promise<void>((r) => (resolve = r));
      const failing = new Promise<void>((_r, j) => (reject = j));
      void pending.then(() => undefined);
      failing.catch(() => undefined);
      const settled = Promise.resolve(1);
      await null;
      expect(sees(watch, () => [1, 2, 3].map((x) => x * 2))).toBe(false);
      expect(sees(watch, () => queueMicrotask(() => undefined))).toBe(true);
      expect(sees(watch, () => process.nextTick(() => undefined))).toBe(true);
      expect(sees(watch, () => void settled.then(() => undefined))).toBe(true);
      expect(sees(watch, () => void (async () => undefined)())).toBe(true);
      expect(sees(watch, () => resolve())).toBe(true);
      expect(sees(watch, () => reject(new Error('no')))).toBe(true);
      // Not watching: nothing recorded.
      watch.reset();
      queueMicrotask(() => undefined);
      expect(watch.saw).toBe(false);
    } finally {
      watch.disable();
    }
  });
});

describe('ReactionWatch: what it changes in the process', () => {
  it('puts its wrappers in front of queueMicrotask and process.nextTick only while enabled, and gives the originals back', async () => {
    const microtask = globalThis.queueMicrotask;
    const tick = process.nextTick;
    const watch = new ReactionWatch().enable();
    try {
      // Enabling again changes nothing (one wrapper, undone once).
      const wrapped = globalThis.queueMicrotask;
      expect(watch.enable()).toBe(watch);
      expect(globalThis.queueMicrotask).toBe(wrapped);
      // The wrappers still queue the work, with its arguments.
      const ran: unknown[] = [];
      queueMicrotask(() => ran.push('microtask'));
      process.nextTick((a: string, b: number) => ran.push(a, b), 'tick', 2);
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      expect(ran).toHaveLength(3);
      expect(ran).toEqual(expect.arrayContaining(['microtask', 'tick', 2]));
    } finally {
      watch.disable();
    }
    expect(globalThis.queueMicrotask).toBe(microtask);
    expect(process.nextTick).toBe(tick);
    // Disabled: a promise made while "watching" is not seen.
    watch.reset();
    watch.watching = true;
    void Promise.resolve().then(() => undefined);
    watch.watching = false;
    expect(watch.saw).toBe(false);
  });
});

describe('backtest loop: reactions end before the next book', () => {
  const run = async (via: string, marketData: number): Promise<ReactionRecord> => {
    const dir = mkdtempSync(join(tmpdir(), 'rexbot-bt-reaction-'));
    dirs.push(dir);
    const file = join(dir, 'backtest.yaml');
    const probe = repoPath('test', 'backtest', 'fixtures', 'reaction-probe.ts');
    writeFileSync(
      file,
      `venue:
  kind: backtest
  data: [{ format: rexbot, path: unused }]
  balances: { USD: 1000 }
  latency: { marketData: ${marketData} }
strategies:
  - { name: probe, use: ${JSON.stringify(probe)}, markets: [BTC-USD], params: { via: ${via} } }
`,
    );
    const events = [...syntheticEvents({ seed: 5, count: 2_000, start: T0 })];
    await runBacktest({ configPath: file, readers: [memoryReader(() => events)] });
    return (globalThis as { __reactionProbe?: ReactionRecord }).__reactionProbe!;
  };

  for (const via of ['sync', 'await', 'microtask', 'tick', 'deferred']) {
    for (const marketData of [0, 4]) {
      it(`${via}, market-data latency ${marketData} ms`, async () => {
        const record = await run(via, marketData);
        expect(record.books).toBeGreaterThan(500);
        expect(record.violations.slice(0, 5)).toEqual([]);
        // Every reaction ended (the last one's too: the run settles at its end).
        expect(record.completed).toBe(record.books);
        // Deliveries after a latency come on clock timers, each settled where it fires. (Delivered at once, a
        // reaction that outlasts the reader's wait at the end of a batch still finishes after the clock moved to
        // the next event, as before the loop skipped turns: time is not checked there.)
        if (marketData > 0) expect(record.timeMoved.slice(0, 5)).toEqual([]);
      });
    }
  }
});
