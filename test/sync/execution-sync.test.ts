/** Rule 5: executions missed while not synchronized are fetched with GET /executions and deduplicated. */
import { describe, expect, it } from 'vitest';
import { VirtualClock, flushMicrotasks } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import type { Execution } from '../../src/model/index.js';
import { AccountStore } from '../../src/store/account-store.js';
import { pageExecutionsSince, syncExecutions, type ExecutionPageRequest } from '../../src/sync/execution-sync.js';

const ex = (n: number): Execution => ({
  id: `e${n}`,
  marketSymbol: 'BTC-USD',
  executedAt: new Date(n * 1000),
  quantity: dec('1'),
  rate: dec('100'),
  orderId: 'o1',
  commission: dec('0.1'),
  isTaker: false,
});

/** GET /executions over `all` (any order): newest first, seed pagination semantics for previousPageToken. */
function fakeExecutionsEndpoint(all: Execution[]) {
  const calls: ExecutionPageRequest[] = [];
  const fetchPage = async (req: ExecutionPageRequest) => {
    calls.push(req);
    const desc = [...all].sort((a, b) => b.executedAt.getTime() - a.executedAt.getTime());
    if (req.previousPageToken === undefined) return desc.slice(0, req.pageSize);
    const i = desc.findIndex((e) => e.id === req.previousPageToken);
    // The page ends just before the token: the pageSize items immediately newer than it.
    return desc.slice(Math.max(0, i - req.pageSize), i);
  };
  return { fetchPage, calls };
}

describe('pageExecutionsSince', () => {
  it('walks towards newer items page by page and returns them oldest first', async () => {
    const all = Array.from({ length: 12 }, (_, i) => ex(i + 1));
    const api = fakeExecutionsEndpoint(all);
    const got = await pageExecutionsSince(api.fetchPage, 'e3', { pageSize: 4 });
    expect(got.map((e) => e.id)).toEqual(['e4', 'e5', 'e6', 'e7', 'e8', 'e9', 'e10', 'e11', 'e12']);
    expect(api.calls.map((c) => c.previousPageToken)).toEqual(['e3', 'e7', 'e11']);
  });

  it('with nothing cached, fetches only the most recent page', async () => {
    const api = fakeExecutionsEndpoint(Array.from({ length: 12 }, (_, i) => ex(i + 1)));
    const got = await pageExecutionsSince(api.fetchPage, undefined, { pageSize: 5 });
    expect(got.map((e) => e.id)).toEqual(['e8', 'e9', 'e10', 'e11', 'e12']);
    expect(api.calls).toHaveLength(1);
  });

  it('stops when a page brings nothing new (a server that ignores the token)', async () => {
    const page = [ex(5), ex(4)];
    let calls = 0;
    const got = await pageExecutionsSince(async () => (calls++, page), 'e1', { pageSize: 2 });
    expect(got.map((e) => e.id)).toEqual(['e4', 'e5']);
    expect(calls).toBe(2);
  });
});

describe('syncExecutions', () => {
  function setup(server: Execution[], lastId: () => string | undefined) {
    const clock = new VirtualClock(0);
    const store = new AccountStore({ accountId: 'acc' });
    const api = fakeExecutionsEndpoint(server);
    const sinceCalls: (string | undefined)[] = [];
    let sequence = 0;
    const sync = syncExecutions({
      cache: store,
      clock,
      fetchLastId: async () => ({ lastId: lastId(), sequence }),
      fetchExecutionsSince: (sinceId) => {
        sinceCalls.push(sinceId);
        return pageExecutionsSince(api.fetchPage, sinceId, { pageSize: 2 });
      },
    });
    return { clock, store, sync, sinceCalls, setSequence: (n: number) => (sequence = n) };
  }

  it('fetches nothing when the last id is already cached', async () => {
    const t = setup([ex(1)], () => 'e1');
    t.store.addExecutions([ex(1)]);
    t.sync.start();
    await flushMicrotasks();
    expect(t.sync.status).toEqual({ state: 'live', sequence: 0 });
    expect(t.sinceCalls).toEqual([]);
  });

  it('fetches what was missed since the newest cached execution, deduplicated, then follows the stream', async () => {
    const server = [1, 2, 3, 4, 5].map(ex);
    const t = setup(server, () => 'e5');
    t.store.addExecutions([ex(1), ex(2)]);
    t.setSequence(10);
    t.sync.push({ accountId: 'acc', sequence: 10, deltas: [ex(5)] }); // queued, dropped by (e): the fetch covers it
    t.sync.push({ accountId: 'acc', sequence: 11, deltas: [ex(5), ex(6)] }); // e5 again: deduplicated
    t.sync.start();
    await flushMicrotasks();
    expect(t.sinceCalls).toEqual(['e2']);
    expect(t.store.executions().map((e) => e.id)).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6']);
    expect(t.sync.status).toEqual({ state: 'live', sequence: 11 });
  });

  it('a gap in the execution stream triggers last-id and a catch-up fetch again', async () => {
    const server = [1, 2, 3].map(ex);
    let last = 'e1';
    const t = setup(server, () => last);
    t.store.addExecutions([ex(1)]);
    t.setSequence(1);
    t.sync.start();
    await flushMicrotasks();
    expect(t.sync.status.state).toBe('live');
    // Message 2 (execution e2) is lost; message 3 reveals the gap.
    last = 'e3';
    t.setSequence(3);
    t.sync.push({ accountId: 'acc', sequence: 3, deltas: [ex(3)] });
    expect(t.sync.status).toMatchObject({ state: 'resyncing', reason: 'gap', expected: 2, got: 3 });
    await flushMicrotasks();
    expect(t.sinceCalls).toEqual(['e1']);
    expect(t.store.executions().map((e) => e.id)).toEqual(['e1', 'e2', 'e3']);
    expect(t.sync.status).toEqual({ state: 'live', sequence: 3 });
  });
});
