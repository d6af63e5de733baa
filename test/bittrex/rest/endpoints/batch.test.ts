import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../../../src/core/decimal.js';
import { type Harness, expectOne, startHarness } from '../harness.js';
import { ORDER_ID } from '../wire-samples.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

describe('batch (signed)', () => {
  it('submit: POST /batch with placements and cancellations, one result per operation', async () => {
    const results = await h.client.batch.submit([
      { resource: 'ORDER', operation: 'POST', payload: { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', quantity: dec('1'), limit: dec('20000'), timeInForce: 'GOOD_TIL_CANCELLED' } },
      { resource: 'ORDER', operation: 'DELETE', payload: { id: ORDER_ID } },
    ]);
    expectOne(h.server, {
      method: 'POST',
      path: '/v3/batch',
      body: [
        { resource: 'ORDER', operation: 'POST', payload: { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', quantity: '1', limit: '20000', timeInForce: 'GOOD_TIL_CANCELLED' } },
        { resource: 'ORDER', operation: 'DELETE', payload: { id: ORDER_ID } },
      ],
    });
    expect(results).toHaveLength(2);
    const [placed, cancelled] = results;
    expect(placed!.ok && placed!.status === 201 && placed!.payload.limit!.equals(dec('20000'))).toBe(true);
    expect(cancelled!.ok && cancelled!.payload.status === 'CLOSED' && cancelled!.payload.id === ORDER_ID).toBe(true);
    expect(h.throttler.priorities.at(-1)).toBe('place');
  });

  it('a per-operation failure is a value, not an exception', async () => {
    h.server.next({ body: [{ status: 409, payload: { code: 'INSUFFICIENT_FUNDS' } }] });
    const [r] = await h.client.batch.submit([
      { resource: 'ORDER', operation: 'POST', payload: { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'MARKET', quantity: dec('100'), timeInForce: 'IMMEDIATE_OR_CANCEL' } },
    ]);
    expect(r).toEqual({ status: 409, ok: false, payload: { code: 'INSUFFICIENT_FUNDS' } });
  });

  it('a batch of cancellations only goes through the cancel queue', async () => {
    await h.client.batch.submit([{ resource: 'ORDER', operation: 'DELETE', payload: { id: ORDER_ID } }]);
    expect(h.throttler.priorities.at(-1)).toBe('cancel');
  });
});
