/** Rule 4 (a)-(h), step by step, in virtual time. */
import { describe, expect, it } from 'vitest';
import { VirtualClock, flushMicrotasks } from '../../src/core/clock.js';
import { WireFormatError } from '../../src/core/errors.js';
import { Synchronizer, type SequencedSnapshot, type SynchronizerOptions, type SyncStatus } from '../../src/sync/synchronizer.js';

interface Msg {
  sequence: number;
  bad?: boolean;
}

interface Deferred {
  resolve(sequence: number, data?: string): void;
  reject(err: Error): void;
  at: number;
}

function setup(options: Partial<SynchronizerOptions<string, Msg>> = {}) {
  const clock = new VirtualClock(0);
  const log: string[] = [];
  const fetches: Deferred[] = [];
  const sync = new Synchronizer<string, Msg>({
    name: 'test',
    clock,
    applier: {
      reset: (data, seq) => log.push(`reset ${data}@${seq}`),
      apply: (m) => {
        if (m.bad) throw new Error('bad message');
        log.push(`apply ${m.sequence}`);
      },
    },
    fetchSnapshot: () =>
      new Promise<SequencedSnapshot<string>>((resolve, reject) => {
        fetches.push({ resolve: (sequence, data = 'snap') => resolve({ data, sequence }), reject, at: clock.now() });
      }),
    ...options,
  });
  const statuses: SyncStatus[] = [];
  sync.status$.subscribe((s) => statuses.push(s));
  const push = (...seqs: number[]) => seqs.forEach((sequence) => sync.push({ sequence }));
  const resolve = async (i: number, sequence: number) => {
    fetches[i]!.resolve(sequence);
    await flushMicrotasks();
  };
  return { clock, log, fetches, sync, statuses, push, resolve };
}

describe('Synchronizer (rule 4)', () => {
  it('(b) queues messages while the snapshot is fetched, then (f) applies them in order', async () => {
    const t = setup();
    t.push(5, 6); // (a)+(b): subscribed, messages arrive before start
    t.sync.start();
    expect(t.fetches).toHaveLength(1);
    t.push(8, 7); // out of order while queued: sorted by sequence
    expect(t.log).toEqual([]);
    expect(t.sync.queued).toBe(4);
    await t.resolve(0, 5);
    expect(t.log).toEqual(['reset snap@5', 'apply 6', 'apply 7', 'apply 8']);
    expect(t.statuses).toEqual([{ state: 'synchronizing' }, { state: 'live', sequence: 8 }]);
    expect(t.sync.sequence).toBe(8);
  });

  it('(d) fetches again when the snapshot is older than the first queued message', async () => {
    const t = setup({ retry: { initialDelayMs: 100 } });
    t.sync.start();
    t.push(10, 11);
    await t.resolve(0, 8);
    expect(t.log).toEqual([]);
    expect(t.statuses.at(-1)).toEqual({ state: 'resyncing', reason: 'snapshot-behind', expected: 10, got: 8 });
    await t.clock.advance(100);
    expect(t.fetches).toHaveLength(2);
    // One below the first queued message leaves no hole: apply it and the whole queue, no third fetch.
    await t.resolve(1, 9);
    expect(t.log).toEqual(['reset snap@9', 'apply 10', 'apply 11']);
    expect(t.statuses.at(-1)).toEqual({ state: 'live', sequence: 11 });
    await t.clock.advance(1000);
    expect(t.fetches).toHaveLength(2);
  });

  it('(e) drops queued messages at or below the snapshot sequence', async () => {
    const t = setup();
    t.sync.start();
    t.push(3, 4, 5, 6);
    await t.resolve(0, 5);
    expect(t.log).toEqual(['reset snap@5', 'apply 6']);
    expect(t.sync.stats.dropped).toBe(3);
  });

  it('goes live on the snapshot alone when nothing is queued (quiet streams)', async () => {
    const t = setup();
    t.sync.start();
    await t.resolve(0, 42);
    expect(t.statuses.at(-1)).toEqual({ state: 'live', sequence: 42 });
    t.push(43);
    expect(t.log).toEqual(['reset snap@42', 'apply 43']);
  });

  it('(g)/(h) a gap sends it back to queueing with a status naming expected and got, and resyncs', async () => {
    const t = setup();
    t.sync.start();
    await t.resolve(0, 7);
    t.push(9);
    expect(t.statuses.at(-1)).toEqual({ state: 'resyncing', reason: 'gap', expected: 8, got: 9 });
    expect(t.sync.sequence).toBeUndefined(); // not live any more
    expect(t.fetches).toHaveLength(2); // (c) again, at once
    t.push(10, 11); // (b) queued, not applied
    expect(t.log).toEqual(['reset snap@7']);
    await t.resolve(1, 9);
    expect(t.log).toEqual(['reset snap@7', 'reset snap@9', 'apply 10', 'apply 11']);
    expect(t.statuses.at(-1)).toEqual({ state: 'live', sequence: 11 });
    expect(t.sync.stats.gaps).toBe(1);
  });

  it('a hole inside the queue right after the snapshot is a gap too', async () => {
    const t = setup();
    t.sync.start();
    t.push(5, 7);
    await t.resolve(0, 5);
    expect(t.statuses.at(-1)).toEqual({ state: 'resyncing', reason: 'gap', expected: 6, got: 7 });
    expect(t.fetches).toHaveLength(2);
    await t.resolve(1, 7);
    expect(t.statuses.at(-1)).toEqual({ state: 'live', sequence: 7 });
  });

  it('ignores duplicates silently, live or queued', async () => {
    const t = setup();
    t.sync.start();
    t.push(1, 2, 2, 1);
    await t.resolve(0, 1);
    t.push(2, 1, 3, 3);
    expect(t.log).toEqual(['reset snap@1', 'apply 2', 'apply 3']);
    expect(t.sync.stats.duplicates).toBe(5);
    expect(t.statuses.filter((s) => s.state === 'resyncing')).toEqual([]);
  });

  it('merges two redundant connections fed into one synchronizer', async () => {
    const t = setup();
    t.sync.start();
    // Connection A is ahead; B repeats everything a little later. Both are complete and in order.
    t.push(1, 2);
    await t.resolve(0, 1);
    t.push(3, 1, 4, 2, 5, 3, 4, 5, 6, 6);
    expect(t.log).toEqual(['reset snap@1', 'apply 2', 'apply 3', 'apply 4', 'apply 5', 'apply 6']);
    expect(t.sync.stats.gaps).toBe(0);
  });

  it('with a reorder window, one connection losing a message is covered by the other without a resync', async () => {
    const t = setup({ reorderWindowMs: 200 });
    t.sync.start();
    await t.resolve(0, 0);
    t.push(1, 3); // A lost 2
    expect(t.statuses.at(-1)).toEqual({ state: 'live', sequence: 0 });
    await t.clock.advance(50);
    t.push(2); // B delivers it
    expect(t.log).toEqual(['reset snap@0', 'apply 1', 'apply 2', 'apply 3']);
    await t.clock.advance(1000);
    expect(t.fetches).toHaveLength(1);
    // When no connection fills the hole in time, it is a gap after all.
    t.push(5);
    await t.clock.advance(199);
    expect(t.statuses.at(-1)?.state).toBe('live');
    await t.clock.advance(1);
    expect(t.statuses.at(-1)).toEqual({ state: 'resyncing', reason: 'gap', expected: 4, got: 5 });
  });

  it('retries failed snapshot fetches with capped exponential backoff on the injected clock', async () => {
    const t = setup({ retry: { initialDelayMs: 100, maxDelayMs: 400, factor: 2 } });
    t.sync.start();
    for (let i = 0; i < 5; i++) {
      t.fetches[i]!.reject(new Error(`down ${i}`));
      await flushMicrotasks();
      while (t.fetches.length === i + 1) await t.clock.advance(10);
    }
    const gaps = t.fetches.slice(1).map((f, i) => f.at - t.fetches[i]!.at);
    expect(gaps).toEqual([100, 200, 400, 400, 400]);
    const errors = t.statuses.filter((s) => s.state === 'resyncing' && s.reason === 'error');
    expect(errors).toHaveLength(5);
    expect(t.sync.stats.fetchErrors).toBe(5);
  });

  it('an apply error resyncs (reason error) and is never reported live until a fresh snapshot', async () => {
    const t = setup();
    t.sync.start();
    await t.resolve(0, 0);
    t.sync.push({ sequence: 1, bad: true });
    expect(t.statuses.at(-1)).toMatchObject({ state: 'resyncing', reason: 'error' });
    expect(t.sync.sequence).toBeUndefined();
    t.push(2, 3);
    await t.resolve(1, 2);
    expect(t.log).toEqual(['reset snap@0', 'reset snap@2', 'apply 3']);
    expect(t.statuses.at(-1)).toEqual({ state: 'live', sequence: 3 });
  });

  it('refuses a message without an integer sequence and changes nothing', async () => {
    const t = setup();
    t.sync.start();
    await t.resolve(0, 1);
    expect(() => t.sync.push({ sequence: Number.NaN })).toThrow(/stream test: sequence is not a non-negative integer/);
    expect(() => t.sync.push({ sequence: 2.5 })).toThrow(WireFormatError);
    expect(t.statuses.at(-1)).toEqual({ state: 'live', sequence: 1 });
    t.push(2);
    expect(t.log).toEqual(['reset snap@1', 'apply 2']);
  });

  it('a reconnect resyncs a live synchronizer', async () => {
    const t = setup();
    t.sync.start();
    await t.resolve(0, 3);
    t.sync.reconnect();
    expect(t.statuses.at(-1)).toEqual({ state: 'resyncing', reason: 'reconnect' });
    expect(t.fetches).toHaveLength(2);
    await t.resolve(1, 3);
    expect(t.statuses.at(-1)).toEqual({ state: 'live', sequence: 3 });
  });

  it('stop ignores an in-flight snapshot and later messages, and completes status$', async () => {
    const t = setup();
    let completed = false;
    t.sync.status$.subscribe({ complete: () => (completed = true) });
    t.sync.start();
    t.sync.stop();
    await t.resolve(0, 1);
    t.push(2);
    expect(t.log).toEqual([]);
    expect(completed).toBe(true);
    expect(t.clock.pendingTimers).toBe(0);
  });

  it('bounds the queue by dropping the oldest, then refetches by rule (d)', async () => {
    const t = setup({ maxQueued: 3, retry: { initialDelayMs: 10 } });
    t.sync.start();
    t.push(1, 2, 3, 4, 5);
    expect(t.sync.queued).toBe(3);
    await t.resolve(0, 0);
    expect(t.statuses.at(-1)).toEqual({ state: 'resyncing', reason: 'snapshot-behind', expected: 3, got: 0 });
    await t.clock.advance(10);
    await t.resolve(1, 3);
    expect(t.log).toEqual(['reset snap@3', 'apply 4', 'apply 5']);
  });
});
