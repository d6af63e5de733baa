import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../../../src/core/decimal.js';
import { type Harness, expectOne, startHarness } from '../harness.js';
import { SEQ } from '../test-routes.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

describe('balances (signed)', () => {
  it('list: GET /balances with its Sequence', async () => {
    const { data, sequence } = await h.client.balances.list();
    expectOne(h.server, { method: 'GET', path: '/v3/balances' });
    expect(sequence).toBe(SEQ.balances);
    expect(data[0]!.currencySymbol).toBe('BTC');
    expect(data[0]!.total.equals(dec('1.25'))).toBe(true);
    expect(data[0]!.available.equals(dec('0.75'))).toBe(true);
    expect(data[1]!.total.toFixed(8)).toBe('50000.00000000');
    expect(data[0]!.updatedAt.toISOString()).toBe('2021-06-14T01:50:00.120Z');
  });

  it('sequence: HEAD /balances', async () => {
    expect(await h.client.balances.sequence()).toBe(SEQ.balances);
    expectOne(h.server, { method: 'HEAD', path: '/v3/balances' });
  });

  it('get: GET /balances/{currencySymbol}', async () => {
    const b = await h.client.balances.get('ETH');
    expectOne(h.server, { method: 'GET', path: '/v3/balances/ETH' });
    expect(b.currencySymbol).toBe('ETH');
    expect(b.available.plus(dec('0.5')).equals(b.total)).toBe(true);
  });
});
