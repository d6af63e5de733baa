import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, expectOne, startHarness } from '../harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

describe('addresses (signed)', () => {
  it('list: GET /addresses', async () => {
    const a = await h.client.addresses.list();
    expectOne(h.server, { method: 'GET', path: '/v3/addresses' });
    expect(a).toEqual([
      { status: 'PROVISIONED', currencySymbol: 'BTC', cryptoAddress: '1N52wHoVR79PMDishab2XmRHsbekCdGquK' },
      { status: 'REQUESTED', currencySymbol: 'XRP' },
    ]);
  });

  it('create: POST /addresses with {currencySymbol}', async () => {
    expect(await h.client.addresses.create('DOGE')).toEqual({ status: 'REQUESTED', currencySymbol: 'DOGE' });
    const r = expectOne(h.server, { method: 'POST', path: '/v3/addresses', body: { currencySymbol: 'DOGE' } });
    expect(r.headers['content-type']).toBe('application/json');
  });

  it('get: GET /addresses/{currencySymbol}', async () => {
    expect((await h.client.addresses.get('LTC')).currencySymbol).toBe('LTC');
    expectOne(h.server, { method: 'GET', path: '/v3/addresses/LTC' });
  });
});
