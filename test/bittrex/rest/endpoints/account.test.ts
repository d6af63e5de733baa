import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../../../src/core/decimal.js';
import { type Harness, expectOne, startHarness } from '../harness.js';
import { ACCOUNT_ID, SUBACCOUNT_ID } from '../wire-samples.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

describe('account (signed)', () => {
  it('get: GET /account', async () => {
    expect(await h.client.account.get()).toEqual({ accountId: ACCOUNT_ID });
    expectOne(h.server, { method: 'GET', path: '/v3/account' });
  });

  it('get on behalf of a sub-account echoes it', async () => {
    expect(await h.client.account.get({ subaccountId: SUBACCOUNT_ID })).toEqual({ accountId: ACCOUNT_ID, subaccountId: SUBACCOUNT_ID });
    expect(expectOne(h.server, { method: 'GET', path: '/v3/account' }).subaccountId).toBe(SUBACCOUNT_ID);
  });

  it('volume: GET /account/volume', async () => {
    const v = await h.client.account.volume();
    expectOne(h.server, { method: 'GET', path: '/v3/account/volume' });
    expect(v.volume30days.equals(dec('123456.789'))).toBe(true);
    expect(v.updated).toEqual(new Date('2021-06-14T00:00:00Z'));
  });

  it('tradingFees: GET /account/fees/trading', async () => {
    const fees = await h.client.account.tradingFees();
    expectOne(h.server, { method: 'GET', path: '/v3/account/fees/trading' });
    expect(fees.map((f) => [f.marketSymbol, f.makerRate.toString(), f.takerRate.toString()])).toEqual([
      ['BTC-USD', '0.0035', '0.0035'],
      ['ETH-BTC', '0.0075', '0.0075'],
    ]);
  });

  it('tradingFee: GET /account/fees/trading/{marketSymbol}', async () => {
    const fee = await h.client.account.tradingFee('ETH-BTC');
    expectOne(h.server, { method: 'GET', path: '/v3/account/fees/trading/ETH-BTC' });
    expect(fee.marketSymbol).toBe('ETH-BTC');
    expect(fee.makerRate.equals(dec('0.0035'))).toBe(true);
  });

  it('marketPermissions: GET /account/permissions/markets', async () => {
    const p = await h.client.account.marketPermissions();
    expectOne(h.server, { method: 'GET', path: '/v3/account/permissions/markets' });
    expect(p[1]).toEqual({ symbol: 'ETH-BTC', view: true, buy: false, sell: true });
  });

  it('marketPermission: GET /account/permissions/markets/{marketSymbol} (single object, as the seed says)', async () => {
    expect(await h.client.account.marketPermission('BTC-EUR')).toEqual({ symbol: 'BTC-EUR', view: true, buy: true, sell: true });
    expectOne(h.server, { method: 'GET', path: '/v3/account/permissions/markets/BTC-EUR' });
  });

  it('currencyPermissions: GET /account/permissions/currencies', async () => {
    const p = await h.client.account.currencyPermissions();
    expectOne(h.server, { method: 'GET', path: '/v3/account/permissions/currencies' });
    expect(p[1]!.withdraw).toEqual({ blockchain: false, wireTransfer: true });
  });

  it('currencyPermission: GET /account/permissions/currencies/{currencySymbol} (one-element array, as the official document shows)', async () => {
    const p = await h.client.account.currencyPermission('ETH');
    expectOne(h.server, { method: 'GET', path: '/v3/account/permissions/currencies/ETH' });
    expect(p).toEqual({ symbol: 'ETH', view: true, deposit: { blockchain: true, creditCard: false, wireTransfer: false }, withdraw: { blockchain: true, wireTransfer: false } });
  });
});
