import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../../../src/core/decimal.js';
import { type Harness, expectOne, startHarness } from '../harness.js';
import { TX_ID, WITHDRAWAL_ID } from '../wire-samples.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

describe('withdrawals (signed)', () => {
  it('listOpen: GET /withdrawals/open', async () => {
    const list = await h.client.withdrawals.listOpen({ status: 'REQUESTED', currencySymbol: 'BTC' });
    expectOne(h.server, { method: 'GET', path: '/v3/withdrawals/open', query: { status: 'REQUESTED', currencySymbol: 'BTC' } });
    expect(list[0]).toMatchObject({ id: WITHDRAWAL_ID, status: 'REQUESTED' });
    expect(list[0]!.txCost!.equals(dec('0.0003'))).toBe(true);
  });

  it('listClosed: GET /withdrawals/closed', async () => {
    const list = await h.client.withdrawals.listClosed({ status: 'COMPLETED', startDate: new Date('2021-06-01T00:00:00Z') });
    expectOne(h.server, { method: 'GET', path: '/v3/withdrawals/closed', query: { status: 'COMPLETED', startDate: '2021-06-01T00:00:00.000Z' } });
    expect(list.map((w) => w.id)).toEqual(['wd-0001', 'wd-0002', 'wd-0003']);
    expect(list[0]!.completedAt).toEqual(new Date('2021-06-14T00:00:00Z'));
  });

  it('iterateClosed walks GET /withdrawals/closed', async () => {
    const ids: string[] = [];
    for await (const w of h.client.withdrawals.iterateClosed({ status: 'COMPLETED' }, { pageSize: 2 })) ids.push(w.id);
    expect(ids).toEqual(['wd-0001', 'wd-0002', 'wd-0003']);
  });

  it('byTxId: GET /withdrawals/ByTxId/{txId}', async () => {
    const list = await h.client.withdrawals.byTxId(TX_ID);
    expectOne(h.server, { method: 'GET', path: `/v3/withdrawals/ByTxId/${TX_ID}` });
    expect(list[0]).toMatchObject({ status: 'COMPLETED', txId: TX_ID });
  });

  it('get: GET /withdrawals/{withdrawalId}', async () => {
    const w = await h.client.withdrawals.get(WITHDRAWAL_ID);
    expectOne(h.server, { method: 'GET', path: `/v3/withdrawals/${WITHDRAWAL_ID}` });
    expect(w.createdAt).toEqual(new Date('2021-06-14T01:45:00.250Z'));
  });

  it('cancel: DELETE /withdrawals/{withdrawalId} answers the withdrawal', async () => {
    const w = await h.client.withdrawals.cancel(WITHDRAWAL_ID);
    expectOne(h.server, { method: 'DELETE', path: `/v3/withdrawals/${WITHDRAWAL_ID}` });
    expect(w.status).toBe('CANCELLED');
    expect(h.throttler.priorities.at(-1)).toBe('place');
  });

  it('create: POST /withdrawals', async () => {
    const w = await h.client.withdrawals.create({
      currencySymbol: 'BTC',
      quantity: dec('0.5'),
      cryptoAddress: '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
      clientWithdrawalId: '6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d',
    });
    expectOne(h.server, {
      method: 'POST',
      path: '/v3/withdrawals',
      body: { currencySymbol: 'BTC', quantity: '0.5', cryptoAddress: '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', clientWithdrawalId: '6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d' },
    });
    expect(w.quantity.equals(dec('0.5'))).toBe(true);
    expect(w.clientWithdrawalId).toBe('6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d');
  });

  it('allowedAddresses: GET /withdrawals/allowed-addresses', async () => {
    const list = await h.client.withdrawals.allowedAddresses();
    expectOne(h.server, { method: 'GET', path: '/v3/withdrawals/allowed-addresses' });
    expect(list).toEqual([
      {
        currencySymbol: 'BTC',
        createdAt: new Date('2021-06-01T00:00:00Z'),
        status: 'ACTIVE',
        activeAt: new Date('2021-06-03T00:00:00Z'),
        cryptoAddress: '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
      },
    ]);
  });

  it('allowedAddresses also accepts the single-object form of the official document', async () => {
    h.server.next({ body: { currencySymbol: 'BTC', createdAt: '2021-06-01T00:00:00Z', status: 'PENDING', cryptoAddress: 'x' } });
    expect(await h.client.withdrawals.allowedAddresses()).toHaveLength(1);
  });
});
