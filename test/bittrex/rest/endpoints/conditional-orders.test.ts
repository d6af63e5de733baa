import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../../../src/core/decimal.js';
import { type Harness, expectOne, startHarness } from '../harness.js';
import { SEQ } from '../test-routes.js';
import { CONDITIONAL_ORDER_ID, ORDER_ID } from '../wire-samples.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

describe('conditional orders (signed)', () => {
  it('get: GET /conditional-orders/{conditionalOrderId}', async () => {
    const c = await h.client.conditionalOrders.get(CONDITIONAL_ORDER_ID);
    expectOne(h.server, { method: 'GET', path: `/v3/conditional-orders/${CONDITIONAL_ORDER_ID}` });
    expect(c).toMatchObject({ id: CONDITIONAL_ORDER_ID, operand: 'LTE', status: 'OPEN' });
    expect(c.triggerPrice!.equals(dec('30000'))).toBe(true);
    expect(c.orderToCreate!.limit!.equals(dec('29900'))).toBe(true);
  });

  it('cancel: DELETE /conditional-orders/{conditionalOrderId} through the cancel queue', async () => {
    const c = await h.client.conditionalOrders.cancel(CONDITIONAL_ORDER_ID);
    expectOne(h.server, { method: 'DELETE', path: `/v3/conditional-orders/${CONDITIONAL_ORDER_ID}` });
    expect(c.status).toBe('CANCELLED');
    expect(c.closedAt).toEqual(new Date('2021-06-14T01:55:00.500Z'));
    expect(h.throttler.priorities.at(-1)).toBe('cancel');
  });

  it('listClosed: GET /conditional-orders/closed with filter and pagination', async () => {
    const page = await h.client.conditionalOrders.listClosed({
      marketSymbol: 'BTC-USD',
      pageSize: 2,
      startDate: new Date('2021-06-01T00:00:00Z'),
      endDate: new Date('2021-06-14T00:00:00Z'),
    });
    expectOne(h.server, {
      method: 'GET',
      path: '/v3/conditional-orders/closed',
      query: { marketSymbol: 'BTC-USD', pageSize: '2', startDate: '2021-06-01T00:00:00.000Z', endDate: '2021-06-14T00:00:00.000Z' },
    });
    expect(h.server.last().url).toBe(
      '/v3/conditional-orders/closed?marketSymbol=BTC-USD&pageSize=2&startDate=2021-06-01T00%3A00%3A00.000Z&endDate=2021-06-14T00%3A00%3A00.000Z',
    );
    expect(page.map((c) => c.id)).toEqual(['cond-0001', 'cond-0002']);
    expect(page[0]!.status).toBe('COMPLETED');
  });

  it('iterateClosed walks GET /conditional-orders/closed', async () => {
    const ids: string[] = [];
    for await (const c of h.client.conditionalOrders.iterateClosed({}, { pageSize: 2 })) ids.push(c.id);
    expect(ids).toEqual(['cond-0001', 'cond-0002', 'cond-0003']);
    expect(h.server.requests.map((r) => r.query)).toEqual([{ pageSize: '2' }, { pageSize: '2', nextPageToken: 'cond-0002' }]);
  });

  it('listOpen: GET /conditional-orders/open with its Sequence', async () => {
    const { data, sequence } = await h.client.conditionalOrders.listOpen({ marketSymbol: 'BTC-USD' });
    expectOne(h.server, { method: 'GET', path: '/v3/conditional-orders/open', query: { marketSymbol: 'BTC-USD' } });
    expect(sequence).toBe(SEQ.openConditionalOrders);
    expect(data[0]!.id).toBe(CONDITIONAL_ORDER_ID);
  });

  it('openSequence: HEAD /conditional-orders/open', async () => {
    expect(await h.client.conditionalOrders.openSequence()).toBe(SEQ.openConditionalOrders);
    expectOne(h.server, { method: 'HEAD', path: '/v3/conditional-orders/open' });
  });

  it('create: POST /conditional-orders (stop-limit paired with an order)', async () => {
    const c = await h.client.conditionalOrders.create({
      marketSymbol: 'BTC-USD',
      operand: 'LTE',
      triggerPrice: dec('30000.5'),
      orderToCreate: { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', quantity: dec('0.5'), limit: dec('29900'), timeInForce: 'GOOD_TIL_CANCELLED' },
      orderToCancel: { type: 'ORDER', id: ORDER_ID },
      clientConditionalOrderId: '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
    });
    expectOne(h.server, {
      method: 'POST',
      path: '/v3/conditional-orders',
      body: {
        marketSymbol: 'BTC-USD',
        operand: 'LTE',
        triggerPrice: '30000.5',
        orderToCreate: { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', quantity: '0.5', limit: '29900', timeInForce: 'GOOD_TIL_CANCELLED' },
        orderToCancel: { type: 'ORDER', id: ORDER_ID },
        clientConditionalOrderId: '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
      },
    });
    expect(c.status).toBe('OPEN');
    expect(c.triggerPrice!.equals(dec('30000.5'))).toBe(true);
    expect(c.orderToCancel).toEqual({ type: 'ORDER', id: ORDER_ID });
    expect(h.throttler.priorities.at(-1)).toBe('place');
  });

  it('create: a trailing stop', async () => {
    const c = await h.client.conditionalOrders.create({
      marketSymbol: 'BTC-USD',
      operand: 'LTE',
      trailingStopPercent: dec('2.5'),
      orderToCreate: { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'MARKET', quantity: dec('0.5'), timeInForce: 'IMMEDIATE_OR_CANCEL' },
    });
    expect(h.server.last().body).toMatchObject({ trailingStopPercent: '2.5' });
    expect(c.trailingStopPercent!.equals(dec('2.5'))).toBe(true);
  });
});
