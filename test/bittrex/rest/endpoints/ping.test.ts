import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, expectOne, startHarness } from '../harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('ping (public, unsigned)', () => {
  it('get: GET /ping', async () => {
    expect(await h.client.ping.get()).toEqual({ serverTime: 1623635700000 });
    expectOne(h.server, { method: 'GET', path: '/v3/ping', signed: false });
  });
});
