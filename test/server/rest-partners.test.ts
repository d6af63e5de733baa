/**
 * Partners only, over HTTP (issue 14, item 9): an account created through the control API without
 * `partner: true` is refused 403 FORBIDDEN on POST /subaccounts and POST /transfers; once the control API makes it
 * a partner it may create a sub-account and transfer to it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { apiError, startFixture, type SimFixture } from './sim-fixture.js';

describe('sub-accounts and transfers over HTTP', () => {
  let fx: SimFixture;
  beforeAll(async () => {
    fx = await startFixture();
  });
  afterAll(async () => {
    await fx.close();
  });

  it('refuses a plain account, serves it once it is a partner', async () => {
    const r = await fx.control('POST', '/accounts', { balances: { BTC: '1' } });
    expect(r.status, r.text).toBe(200);
    const { accountId, apiKey, apiSecret } = r.json as { accountId: string; apiKey: string; apiSecret: string };
    const client = fx.client({ apiKey, apiSecret });
    await apiError(client.subaccounts.create(), 403, 'FORBIDDEN');
    await apiError(client.transfers.create({ toMasterAccount: true, currencySymbol: 'BTC', amount: dec('0.1') }), 403, 'FORBIDDEN');

    expect((await fx.control('POST', `/accounts/${accountId}/partner`, { on: true })).status).toBe(200);
    const sub = await client.subaccounts.create();
    const sent = await client.transfers.create({ toSubaccountId: sub.id, currencySymbol: 'BTC', amount: dec('0.1') });
    expect(sent.amount.toFixed()).toBe('0.1');
  });
});
