import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../../../src/core/decimal.js';
import { type Harness, expectOne, startHarness } from '../harness.js';
import { SEQ } from '../test-routes.js';
import { DEPOSIT_ID, TX_ID } from '../wire-samples.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

describe('deposits (signed)', () => {
  it('listOpen: GET /deposits/open with its Sequence', async () => {
    const { data, sequence } = await h.client.deposits.listOpen({ status: 'PENDING', currencySymbol: 'BTC' });
    expectOne(h.server, { method: 'GET', path: '/v3/deposits/open', query: { status: 'PENDING', currencySymbol: 'BTC' } });
    expect(sequence).toBe(SEQ.openDeposits);
    expect(data[0]).toMatchObject({ id: DEPOSIT_ID, status: 'PENDING', confirmations: 1, source: 'BLOCKCHAIN' });
    expect(data[0]!.quantity.equals(dec('0.12345678'))).toBe(true);
  });

  it('openSequence: HEAD /deposits/open', async () => {
    expect(await h.client.deposits.openSequence()).toBe(SEQ.openDeposits);
    expectOne(h.server, { method: 'HEAD', path: '/v3/deposits/open' });
  });

  it('listClosed: GET /deposits/closed', async () => {
    const page = await h.client.deposits.listClosed({ status: 'COMPLETED', currencySymbol: 'BTC', nextPageToken: 'dep-0001' });
    expectOne(h.server, {
      method: 'GET',
      path: '/v3/deposits/closed',
      query: { status: 'COMPLETED', currencySymbol: 'BTC', nextPageToken: 'dep-0001' },
    });
    expect(page.map((d) => d.id)).toEqual(['dep-0002', 'dep-0003']);
    expect(page[0]!.completedAt).toEqual(new Date('2021-06-13T23:59:00.000Z'));
  });

  it('iterateClosed walks GET /deposits/closed', async () => {
    const ids: string[] = [];
    for await (const d of h.client.deposits.iterateClosed({ currencySymbol: 'BTC' }, { pageSize: 1 })) ids.push(d.id);
    expect(ids).toEqual(['dep-0001', 'dep-0002', 'dep-0003']);
    expect(h.server.requests).toHaveLength(4); // the fourth page is empty
  });

  it('byTxId: GET /deposits/ByTxId/{txId}', async () => {
    const list = await h.client.deposits.byTxId(TX_ID);
    expectOne(h.server, { method: 'GET', path: `/v3/deposits/ByTxId/${TX_ID}` });
    expect(list[0]!.txId).toBe(TX_ID);
  });

  it('get: GET /deposits/{depositId}', async () => {
    const d = await h.client.deposits.get(DEPOSIT_ID);
    expectOne(h.server, { method: 'GET', path: `/v3/deposits/${DEPOSIT_ID}` });
    expect(d.id).toBe(DEPOSIT_ID);
    expect(d.updatedAt).toEqual(new Date('2021-06-14T01:40:00.500Z'));
  });
});
