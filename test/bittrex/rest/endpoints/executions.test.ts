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

describe('executions (signed)', () => {
  it('get: GET /executions/{executionId}', async () => {
    const e = await h.client.executions.get(EXECUTION_ID);
    expectOne(h.server, { method: 'GET', path: `/v3/executions/${EXECUTION_ID}` });
    expect(e).toMatchObject({ id: EXECUTION_ID, orderId: ORDER_ID, isTaker: true, marketSymbol: 'BTC-USD' });
    expect(e.commission.equals(dec('3.75'))).toBe(true);
    expect(e.quantity.times(e.rate).equals(dec('5000'))).toBe(true);
  });

  it('list: GET /executions', async () => {
    const list = await h.client.executions.list({ marketSymbol: 'BTC-USD', pageSize: 200 });
    expectOne(h.server, { method: 'GET', path: '/v3/executions', query: { marketSymbol: 'BTC-USD', pageSize: '200' } });
    expect(list.map((e) => e.id)).toEqual(['exec-0001', 'exec-0002', 'exec-0003']);
  });

  it('iterate walks GET /executions', async () => {
    const ids: string[] = [];
    for await (const e of h.client.executions.iterate({}, { pageSize: 2 })) ids.push(e.id);
    expect(ids).toEqual(['exec-0001', 'exec-0002', 'exec-0003']);
  });

  it('lastId: GET /executions/last-id with its Sequence', async () => {
    const { data, sequence } = await h.client.executions.lastId({ marketSymbol: 'BTC-USD' });
    expectOne(h.server, { method: 'GET', path: '/v3/executions/last-id', query: { marketSymbol: 'BTC-USD' } });
    expect(data).toEqual({ lastId: 'exec-0001' });
    expect(sequence).toBe(SEQ.executions);
  });

  it('lastIdSequence: HEAD /executions/last-id', async () => {
    expect(await h.client.executions.lastIdSequence()).toBe(SEQ.executions);
    expectOne(h.server, { method: 'HEAD', path: '/v3/executions/last-id' });
  });
});
