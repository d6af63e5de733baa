import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, expectOne, startHarness } from '../harness.js';
import { SUBACCOUNT_ID } from '../wire-samples.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

describe('subaccounts (signed, partners)', () => {
  it('list: GET /subaccounts', async () => {
    const list = await h.client.subaccounts.list({ pageSize: 2 });
    expectOne(h.server, { method: 'GET', path: '/v3/subaccounts', query: { pageSize: '2' } });
    expect(list).toEqual([
      { id: 'sub-0001', createdAt: new Date('2021-06-14T00:00:00Z') },
      { id: 'sub-0002', createdAt: new Date('2021-06-13T23:59:00Z') },
    ]);
  });

  it('iterate walks GET /subaccounts', async () => {
    const ids: string[] = [];
    for await (const s of h.client.subaccounts.iterate({}, { pageSize: 3 })) ids.push(s.id);
    expect(ids).toEqual(['sub-0001', 'sub-0002', 'sub-0003']);
    expect(h.server.requests.map((r) => r.query)).toEqual([{ pageSize: '3' }, { pageSize: '3', nextPageToken: 'sub-0003' }]);
  });

  it('create: POST /subaccounts with an empty object', async () => {
    const s = await h.client.subaccounts.create();
    expectOne(h.server, { method: 'POST', path: '/v3/subaccounts', body: {} });
    expect(s.createdAt).toEqual(new Date('2021-06-14T01:55:00.500Z'));
  });

  it('get: GET /subaccounts/{subaccountId}', async () => {
    expect((await h.client.subaccounts.get(SUBACCOUNT_ID)).id).toBe(SUBACCOUNT_ID);
    expectOne(h.server, { method: 'GET', path: `/v3/subaccounts/${SUBACCOUNT_ID}` });
  });
});
