import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../../../src/core/decimal.js';
import { type Harness, expectOne, startHarness } from '../harness.js';
import { SUBACCOUNT_ID, TRANSFER_ID } from '../wire-samples.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

describe('transfers (signed, partners)', () => {
  it('listSent: GET /transfers/sent', async () => {
    const list = await h.client.transfers.listSent({ toSubaccountId: SUBACCOUNT_ID, toMasterAccount: false, currencySymbol: 'BTC' });
    expectOne(h.server, {
      method: 'GET',
      path: '/v3/transfers/sent',
      query: { toSubaccountId: SUBACCOUNT_ID, toMasterAccount: 'false', currencySymbol: 'BTC' },
    });
    expect(list[0]).toMatchObject({ id: 'sent-0001', toSubaccountId: SUBACCOUNT_ID, toMasterAccount: false });
    expect(list[0]!.amount.equals(dec('0.1'))).toBe(true);
  });

  it('iterateSent walks GET /transfers/sent', async () => {
    const ids: string[] = [];
    for await (const t of h.client.transfers.iterateSent({}, { pageSize: 2 })) ids.push(t.id);
    expect(ids).toEqual(['sent-0001', 'sent-0002', 'sent-0003']);
  });

  it('listReceived: GET /transfers/received', async () => {
    const list = await h.client.transfers.listReceived({ fromMasterAccount: true, endDate: new Date('2021-06-14T00:00:00Z') });
    expectOne(h.server, {
      method: 'GET',
      path: '/v3/transfers/received',
      query: { fromMasterAccount: 'true', endDate: '2021-06-14T00:00:00.000Z' },
    });
    expect(list[2]!.executedAt).toEqual(new Date('2021-06-13T23:58:00Z'));
  });

  it('iterateReceived walks GET /transfers/received', async () => {
    const ids: string[] = [];
    for await (const t of h.client.transfers.iterateReceived({ currencySymbol: 'BTC' }, { pageSize: 2 })) ids.push(t.id);
    expect(ids).toEqual(['recv-0001', 'recv-0002', 'recv-0003']);
  });

  it('get: GET /transfers/{transferId}', async () => {
    const t = await h.client.transfers.get(TRANSFER_ID);
    expectOne(h.server, { method: 'GET', path: `/v3/transfers/${TRANSFER_ID}` });
    expect(t).toMatchObject({ id: TRANSFER_ID, fromSubaccountId: SUBACCOUNT_ID, currencySymbol: 'BTC' });
  });

  it('create: POST /transfers', async () => {
    const t = await h.client.transfers.create({
      toSubaccountId: SUBACCOUNT_ID,
      requestId: 'f0e1d2c3-b4a5-4968-8776-655443322110',
      currencySymbol: 'BTC',
      amount: dec('0.00000001'),
    });
    expectOne(h.server, {
      method: 'POST',
      path: '/v3/transfers',
      body: { toSubaccountId: SUBACCOUNT_ID, requestId: 'f0e1d2c3-b4a5-4968-8776-655443322110', currencySymbol: 'BTC', amount: '0.00000001' },
    });
    expect(t.amount.equals(dec('1e-8'))).toBe(true);
    expect(t.toSubaccountId).toBe(SUBACCOUNT_ID);
  });
});
