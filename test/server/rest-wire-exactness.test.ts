/**
 * Wire exactness of the simulator's REST bodies (issue 9 item 5). A JSON number with more digits than a double
 * holds used to become a different order (`1.0000000000000001` became 1), while the same value as a string was
 * refused. Numbers are now read from the JSON text, so a number and the same value as a string are judged alike,
 * as the original service judged them; and a body with a duplicate key is refused with 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimFixture, startFixture, type TestAccount } from './sim-fixture.js';

describe('REST wire exactness', () => {
  let fx: SimFixture;
  let me: TestAccount;
  beforeAll(async () => {
    fx = await startFixture();
    me = await fx.account({ USD: '1000000', BTC: '100' });
  });
  afterAll(() => fx.close());

  const base = '"marketSymbol":"BTC-USD","direction":"BUY","type":"LIMIT","timeInForce":"GOOD_TIL_CANCELLED"';
  const post = (body: string) => fx.signed(me, 'POST', '/orders', { body });
  const refusal = (a: { status: number; text: string }) => `${a.status} ${(JSON.parse(a.text) as { code: string }).code}`;

  it('a number is judged like the same value as a string: quantity with more than 8 decimals', async () => {
    for (const q of ['1.0000000000000001', '0.123456789']) {
      const asNumber = await post(`{${base},"quantity":${q},"limit":"15000"}`);
      const asString = await post(`{${base},"quantity":"${q}","limit":"15000"}`);
      expect(refusal(asNumber), `quantity ${q}`).toBe(refusal(asString));
      expect(refusal(asNumber)).toBe('400 ORDER_TYPE_INVALID');
    }
  });

  it('a limit is judged from its text: past 8 decimals malformed, past the market precision RATE_PRECISION_NOT_ALLOWED', async () => {
    // Before: the number 1000.0000000000000000001 became 1000 and placed an order at a different price.
    const cases: Array<[string, string]> = [['1000.0000000000000000001', '400 ORDER_TYPE_INVALID'], ['15000.1234', '400 RATE_PRECISION_NOT_ALLOWED']];
    for (const [limit, expected] of cases) {
      const asNumber = await post(`{${base},"quantity":"0.01","limit":${limit}}`);
      const asString = await post(`{${base},"quantity":"0.01","limit":"${limit}"}`);
      expect(refusal(asNumber), `limit ${limit}`).toBe(expected);
      expect(refusal(asString), `limit "${limit}"`).toBe(expected);
    }
  });

  it('huge numbers are out of range, not Infinity or a rounded double', async () => {
    for (const q of ['1e400', '123456789012345678901234567890']) {
      expect(refusal(await post(`{${base},"quantity":${q},"limit":"15000"}`)), q).toBe('400 ORDER_TYPE_INVALID');
    }
  });

  it('a number a double holds exactly still places the order it says', async () => {
    const a = await post(`{${base},"quantity":0.01,"limit":15000.5}`);
    expect(a.status).toBe(201);
    expect(JSON.parse(a.text)).toMatchObject({ quantity: '0.01000000', limit: '15000.50000000' });
  });

  it('a duplicate key is refused with 400 naming it, and nothing is placed', async () => {
    const before = fx.engine.openOrders(me.accountId).data.length;
    const a = await post(`{${base},"quantity":"0.01","limit":"15000","direction":"SELL"}`);
    expect(a.status).toBe(400);
    expect(JSON.parse(a.text)).toMatchObject({ code: 'BAD_REQUEST', detail: expect.stringMatching(/duplicate key 'direction'/) });
    const batch = await fx.signed(me, 'POST', '/batch', { body: `[{"resource":"ORDER","operation":"POST","payload":{${base},"quantity":"0.01","quantity":"5","limit":"15000"}}]` });
    expect(batch.status).toBe(400);
    expect(fx.engine.openOrders(me.accountId).data.length).toBe(before);
  });
});
