import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/core/errors.js';
import { dec } from '../../../../src/core/decimal.js';
import { type Harness, expectOne, startHarness } from '../harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

describe('currencies (public, unsigned)', () => {
  it('list: GET /currencies', async () => {
    const list = await h.client.currencies.list();
    expectOne(h.server, { method: 'GET', path: '/v3/currencies', signed: false });
    expect(list.map((c) => c.symbol)).toEqual(['BTC', 'EUR']);
    expect(list[0]!.txFee.equals(dec('0.0003'))).toBe(true);
    expect(list[0]!.minConfirmations).toBe(2);
  });

  it('get: GET /currencies/{symbol}', async () => {
    const c = await h.client.currencies.get('BTC');
    expectOne(h.server, { method: 'GET', path: '/v3/currencies/BTC', signed: false });
    expect(c).toMatchObject({ symbol: 'BTC', name: 'Bitcoin', coinType: 'BITCOIN', status: 'ONLINE' });
  });

  it('an unknown currency is an ApiError with the service code', async () => {
    const err = await h.client.currencies.get('NOPE').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, code: 'CURRENCY_DOES_NOT_EXIST', request: { method: 'GET', path: '/v3/currencies/NOPE' } });
  });
});
