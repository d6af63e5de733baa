import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WireFormatError } from '../../../src/core/errors.js';
import { type Harness, startHarness } from './harness.js';
import { closedOrderJson, executionJson, series, SUBACCOUNT_ID, withdrawalJson } from './wire-samples.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => {
  h.server.reset();
  h.server.state.closedOrders = series(7, 'order', closedOrderJson);
});

async function collect<T extends { id: string }>(it: AsyncIterable<T>): Promise<string[]> {
  const ids: string[] = [];
  for await (const x of it) ids.push(x.id);
  return ids;
}

const n = (i: number) => `order-000${i}`;

describe('iterators', () => {
  it('direction next: nextPageToken = id of the last item, stops on a short page', async () => {
    const ids = await collect(h.client.orders.iterateClosed({ marketSymbol: 'BTC-USD' }, { pageSize: 3 }));
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7].map(n));
    expect(h.server.requests.map((r) => r.query)).toEqual([
      { marketSymbol: 'BTC-USD', pageSize: '3' },
      { marketSymbol: 'BTC-USD', pageSize: '3', nextPageToken: n(3) },
      { marketSymbol: 'BTC-USD', pageSize: '3', nextPageToken: n(6) },
    ]);
  });

  it('direction next: stops on an empty page when the last page was full', async () => {
    h.server.state.closedOrders = series(6, 'order', closedOrderJson);
    expect(await collect(h.client.orders.iterateClosed({}, { pageSize: 3 }))).toEqual([1, 2, 3, 4, 5, 6].map(n));
    expect(h.server.requests.map((r) => r.query.nextPageToken)).toEqual([undefined, n(3), n(6)]);
  });

  it('direction next from a starting token, keeping the filter on every page', async () => {
    const startDate = new Date('2021-06-01T00:00:00Z');
    const ids = await collect(h.client.orders.iterateClosed({ nextPageToken: n(2), startDate, pageSize: 2 }));
    expect(ids).toEqual([3, 4, 5, 6, 7].map(n));
    expect(h.server.requests.map((r) => [r.query.nextPageToken, r.query.pageSize, r.query.startDate])).toEqual([
      [n(2), '2', '2021-06-01T00:00:00.000Z'],
      [n(4), '2', '2021-06-01T00:00:00.000Z'],
      [n(6), '2', '2021-06-01T00:00:00.000Z'],
    ]);
  });

  it('direction previous: previousPageToken = id of the first item, nearest to the cursor first', async () => {
    const ids = await collect(h.client.orders.iterateClosed({ previousPageToken: n(7) }, { direction: 'previous', pageSize: 2 }));
    expect(ids).toEqual([6, 5, 4, 3, 2, 1].map(n));
    expect(h.server.requests.map((r) => r.query)).toEqual([
      { pageSize: '2', previousPageToken: n(7) },
      { pageSize: '2', previousPageToken: n(5) },
      { pageSize: '2', previousPageToken: n(3) },
      { pageSize: '2', previousPageToken: n(1) },
    ]);
  });

  it('direction previous: stops on a short page', async () => {
    const ids = await collect(h.client.orders.iterateClosed({ previousPageToken: n(6) }, { direction: 'previous', pageSize: 3 }));
    expect(ids).toEqual([5, 4, 3, 2, 1].map(n));
    expect(h.server.requests).toHaveLength(2);
  });

  it('stops asking when the consumer stops', async () => {
    for await (const o of h.client.orders.iterateClosed({}, { pageSize: 2 })) {
      if (o.id === n(3)) break;
    }
    expect(h.server.requests).toHaveLength(2);
  });

  it('sends the sub-account on every page', async () => {
    h.server.state.executions = series(5, 'exec', executionJson);
    const ids = await collect(h.client.executions.iterate({}, { pageSize: 2, subaccountId: SUBACCOUNT_ID }));
    expect(ids).toHaveLength(5);
    expect(h.server.requests.map((r) => r.subaccountId)).toEqual([SUBACCOUNT_ID, SUBACCOUNT_ID, SUBACCOUNT_ID]);
  });

  it('walks withdrawals both ways over the same data', async () => {
    h.server.state.closedWithdrawals = series(5, 'wd', (id, at) => withdrawalJson({ id, status: 'COMPLETED', completedAt: at }));
    const forward = await collect(h.client.withdrawals.iterateClosed({}, { pageSize: 2 }));
    const backward = await collect(h.client.withdrawals.iterateClosed({ previousPageToken: 'wd-0005' }, { direction: 'previous', pageSize: 2 }));
    expect(backward).toEqual(forward.slice(0, 4).reverse());
  });

  it('a server whose pages do not advance is a wire format error, not an endless loop', async () => {
    const same = [closedOrderJson('order-0001', '2021-06-14T00:00:00Z')];
    h.server.next({ body: same });
    h.server.next({ body: same });
    const err = await collect(h.client.orders.iterateClosed({ nextPageToken: 'order-0000' }, { pageSize: 1 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WireFormatError);
    expect((err as Error).message).toBe('GET /orders/closed: nextPageToken did not advance: the page after order-0001 ends with the same item');
    expect(h.server.requests).toHaveLength(2);
  });
});
