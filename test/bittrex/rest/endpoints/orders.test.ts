import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../../../src/core/decimal.js';
import { type Harness, expectOne, startHarness } from '../harness.js';
import { SEQ } from '../test-routes.js';
import { EXECUTION_ID, ORDER_ID } from '../wire-samples.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

describe('orders (signed)', () => {
  it('listClosed: GET /orders/closed', async () => {
    const page = await h.client.orders.listClosed({ marketSymbol: 'BTC-USD', previousPageToken: 'order-0003', pageSize: 1 });
    expectOne(h.server, {
      method: 'GET',
      path: '/v3/orders/closed',
      query: { marketSymbol: 'BTC-USD', previousPageToken: 'order-0003', pageSize: '1' },
    });
    expect(page).toHaveLength(1);
    expect(page[0]).toMatchObject({ id: 'order-0002', status: 'CLOSED' });
    expect(page[0]!.proceeds.plus(page[0]!.commission).equals(dec('20015'))).toBe(true);
    expect(page[0]!.closedAt).toEqual(new Date('2021-06-13T23:59:00.000Z'));
  });

  it('iterateClosed walks GET /orders/closed', async () => {
    const ids: string[] = [];
    for await (const o of h.client.orders.iterateClosed({ marketSymbol: 'BTC-USD' })) ids.push(o.id);
    expect(ids).toEqual(['order-0001', 'order-0002', 'order-0003']);
    expectOne(h.server, { method: 'GET', path: '/v3/orders/closed', query: { marketSymbol: 'BTC-USD', pageSize: '100' } });
  });

  it('listOpen: GET /orders/open with its Sequence', async () => {
    const { data, sequence } = await h.client.orders.listOpen({ marketSymbol: 'BTC-USD' });
    expectOne(h.server, { method: 'GET', path: '/v3/orders/open', query: { marketSymbol: 'BTC-USD' } });
    expect(sequence).toBe(SEQ.openOrders);
    expect(data[0]).toMatchObject({ id: ORDER_ID, status: 'OPEN', timeInForce: 'GOOD_TIL_CANCELLED' });
    expect(data[0]!.fillQuantity.isZero()).toBe(true);
  });

  it('cancelAll: DELETE /orders/open through the cancel queue', async () => {
    const results = await h.client.orders.cancelAll({ marketSymbol: 'BTC-USD' });
    expectOne(h.server, { method: 'DELETE', path: '/v3/orders/open', query: { marketSymbol: 'BTC-USD' } });
    expect(results[0]).toMatchObject({ id: ORDER_ID, statusCode: 'SUCCESS', result: { status: 'CLOSED' } });
    expect(h.throttler.priorities.at(-1)).toBe('cancel');
  });

  it('openSequence: HEAD /orders/open', async () => {
    expect(await h.client.orders.openSequence()).toBe(SEQ.openOrders);
    expectOne(h.server, { method: 'HEAD', path: '/v3/orders/open' });
  });

  it('get: GET /orders/{orderId}', async () => {
    const o = await h.client.orders.get(ORDER_ID);
    expectOne(h.server, { method: 'GET', path: `/v3/orders/${ORDER_ID}` });
    expect(o.quantity!.equals(dec('1'))).toBe(true);
    expect(o.createdAt).toEqual(new Date('2020-12-02T07:19:48.750Z'));
  });

  it('cancel: DELETE /orders/{orderId} through the cancel queue', async () => {
    const o = await h.client.orders.cancel(ORDER_ID);
    expectOne(h.server, { method: 'DELETE', path: `/v3/orders/${ORDER_ID}` });
    expect(o.status).toBe('CLOSED');
    expect(o.closedAt).toBeInstanceOf(Date);
    expect(h.throttler.priorities.at(-1)).toBe('cancel');
  });

  it('executions: GET /orders/{orderId}/executions', async () => {
    const list = await h.client.orders.executions(ORDER_ID);
    expectOne(h.server, { method: 'GET', path: `/v3/orders/${ORDER_ID}/executions` });
    expect(list[0]!.id).toBe(EXECUTION_ID);
  });

  it('create: POST /orders with decimals as plain strings', async () => {
    const o = await h.client.orders.create({
      marketSymbol: 'BTC-USD',
      direction: 'BUY',
      type: 'LIMIT',
      quantity: dec('0.00012345'),
      limit: dec('31999.999'),
      timeInForce: 'POST_ONLY_GOOD_TIL_CANCELLED',
      clientOrderId: 'a2b3c4d5-e6f7-4a8b-9c0d-1e2f3a4b5c6d',
    });
    const r = expectOne(h.server, {
      method: 'POST',
      path: '/v3/orders',
      body: {
        marketSymbol: 'BTC-USD',
        direction: 'BUY',
        type: 'LIMIT',
        quantity: '0.00012345',
        limit: '31999.999',
        timeInForce: 'POST_ONLY_GOOD_TIL_CANCELLED',
        clientOrderId: 'a2b3c4d5-e6f7-4a8b-9c0d-1e2f3a4b5c6d',
      },
    });
    expect(r.headers['content-type']).toBe('application/json');
    expect(o.quantity!.equals(dec('0.00012345'))).toBe(true);
    expect(o.limit!.toFixed(8)).toBe('31999.99900000');
    expect(o.clientOrderId).toBe('a2b3c4d5-e6f7-4a8b-9c0d-1e2f3a4b5c6d');
    expect(h.throttler.priorities.at(-1)).toBe('place');
  });

  it('create: a ceiling market order sends ceiling and no quantity/limit', async () => {
    const o = await h.client.orders.create({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'CEILING_MARKET', ceiling: dec('100'), timeInForce: 'IMMEDIATE_OR_CANCEL' });
    expect(h.server.last().body).toEqual({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'CEILING_MARKET', ceiling: '100', timeInForce: 'IMMEDIATE_OR_CANCEL' });
    expect(o.ceiling!.equals(dec('100'))).toBe(true);
    expect(o.quantity).toBeUndefined();
  });
});
