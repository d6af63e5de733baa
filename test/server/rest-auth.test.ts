/**
 * Request authentication of the real server: wrong secret, unknown or missing key, stale and malformed
 * timestamps, a body or a query tampered with after signing, missing scopes, and the signature verified over the
 * exact request target that arrived (query values signed unencoded as ccxt does, and percent-encoded ones as
 * sent). Every refusal leaves the account unchanged.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest } from '../../src/bittrex/rest/auth.js';
import type { Clock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import type { NewOrder } from '../../src/model/order.js';
import { accountState, apiError, type SimFixture, startFixture, type TestAccount } from './sim-fixture.js';

const ORDER = { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: '0.01', limit: '20000' };
const NEW_ORDER: NewOrder = { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('20000') };

describe('REST authentication end to end', () => {
  let fx: SimFixture;
  let me: TestAccount;
  let state: string;

  beforeAll(async () => {
    fx = await startFixture();
    me = await fx.account({ USD: '10000' });
    state = await accountState(me.client);
  });
  afterAll(async () => {
    expect(await accountState(me.client)).toBe(state);
    await fx.close();
  });

  const code = (r: { status: number; json: { code?: string } }) => ({ status: r.status, code: r.json?.code });

  it('accepts a correctly signed request', async () => {
    expect((await fx.signed(me, 'GET', '/balances')).status).toBe(200);
    expect((await fx.signed(me, 'GET', '/balances', { signUri: `${fx.origin.replace('http:', 'https:')}/v3/balances` })).status).toBe(200);
  });

  it('refuses a wrong secret, an unknown key and a missing key with 401', async () => {
    const wrong = fx.client({ apiKey: me.apiKey, apiSecret: 'not-the-secret' });
    await apiError(wrong.balances.list(), 401, 'INVALID_SIGNATURE');
    await apiError(wrong.orders.create(NEW_ORDER), 401, 'INVALID_SIGNATURE');
    const unknown = fx.client({ apiKey: 'no-such-key', apiSecret: me.apiSecret });
    await apiError(unknown.balances.list(), 401, 'APIKEY_INVALID');
    expect(code(await fx.raw('GET', '/balances'))).toEqual({ status: 401, code: 'APIKEY_INVALID' });
    expect(code(await fx.signed(me, 'GET', '/balances', { headers: { 'Api-Signature': '' } }))).toEqual({ status: 401, code: 'INVALID_SIGNATURE' });
    expect(code(await fx.signed(me, 'GET', '/balances', { headers: { 'Api-Key': '' } }))).toEqual({ status: 401, code: 'APIKEY_INVALID' });
    // Signature hex is compared case-insensitively.
    const h = signRequest(me, { method: 'GET', uri: `${fx.origin}/v3/balances`, timestamp: fx.clock.now() });
    expect((await fx.signed(me, 'GET', '/balances', { headers: { 'Api-Signature': h['Api-Signature'].toUpperCase(), 'Api-Timestamp': h['Api-Timestamp'] } })).status).toBe(200);
  });

  it('refuses stale, future and malformed timestamps with 401 INVALID_TIMESTAMP', async () => {
    const now = fx.clock.now();
    // Only 1 to 16 ASCII digits are a timestamp: not a sign, point, exponent, other digits, or a 17th digit.
    const malformed = [`${now}.5`, `-${now}`, `+${now}`, '1.7e12', `${now}x`, `0000${now}`];
    for (const timestamp of [now - 6 * 60_000, now + 6 * 60_000, 'yesterday', '', ...malformed]) {
      const r = await fx.signed(me, 'GET', '/balances', { timestamp });
      expect(code(r), String(timestamp)).toEqual({ status: 401, code: 'INVALID_TIMESTAMP' });
    }
    expect((await fx.signed(me, 'GET', '/balances', { timestamp: now - 4 * 60_000 })).status).toBe(200);
    expect((await fx.signed(me, 'GET', '/balances', { timestamp: `000${now + 1}` })).status).toBe(200); // 16 digits
    // A client whose clock is 10 minutes off is refused the same way; the project client then measures the venue's
    // clock (GET /ping) and is accepted on its one retry (test/bittrex/gateway/clock-skew.test.ts).
    const c = fx.clock;
    const behind: Clock = { now: () => c.now() - 600_000, setTimeout: (f, ms) => c.setTimeout(f, ms), setInterval: (f, ms) => c.setInterval(f, ms), sleep: (ms) => c.sleep(ms) };
    const refused = await fx.signed(me, 'GET', '/balances', { timestamp: behind.now() });
    expect(code(refused)).toEqual({ status: 401, code: 'INVALID_TIMESTAMP' });
    const skewed = fx.client({ apiKey: me.apiKey, apiSecret: me.apiSecret }, { clock: behind });
    expect((await skewed.balances.list()).data.length).toBeGreaterThan(0);
  });

  it('refuses a body, a query, a method or a sub-account header changed after signing', async () => {
    const signedBody = JSON.stringify(ORDER);
    const sent = JSON.stringify({ ...ORDER, quantity: '1' });
    // The content hash no longer matches the body.
    const r1 = await fx.signed(me, 'POST', '/orders', { body: sent, signBody: signedBody });
    expect(code(r1)).toEqual({ status: 401, code: 'INVALID_SIGNATURE' });
    // Hash of the new body swapped in, signature left as it was.
    const good = await fx.signed(me, 'POST', '/orders', { body: signedBody, headers: {} });
    expect(good.status).toBe(201);
    await me.client.orders.cancel(good.json.id);
    state = await accountState(me.client);
    const r2 = await fx.signed(me, 'POST', '/orders', { body: sent, signBody: signedBody, headers: { 'Api-Content-Hash': createHash('sha512').update(sent).digest('hex') } });
    expect(code(r2)).toEqual({ status: 401, code: 'INVALID_SIGNATURE' });

    const r3 = await fx.signed(me, 'GET', '/orders/closed?pageSize=2', { signUri: `${fx.origin}/v3/orders/closed?pageSize=1` });
    expect(code(r3)).toEqual({ status: 401, code: 'INVALID_SIGNATURE' });
    const r4 = await fx.signed(me, 'DELETE', '/orders/open', { signMethod: 'GET' });
    expect(code(r4)).toEqual({ status: 401, code: 'INVALID_SIGNATURE' });
    const sub = await me.client.subaccounts.create();
    state = await accountState(me.client);
    const r5 = await fx.signed(me, 'GET', '/balances', { headers: { 'Api-Subaccount-Id': sub.id } });
    expect(code(r5)).toEqual({ status: 401, code: 'INVALID_SIGNATURE' });
    expect((await fx.signed(me, 'GET', '/balances', { subaccountId: sub.id })).status).toBe(200);
  });

  it('refuses a key without the needed scope with 403', async () => {
    const viewOnly = await fx.account({ USD: '1000' }, ['view']);
    const viewState = await accountState(viewOnly.client);
    await apiError(viewOnly.client.orders.create({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('20000') }), 403, 'INSUFFICIENT_PERMISSIONS');
    await apiError(viewOnly.client.orders.cancelAll(), 403, 'INSUFFICIENT_PERMISSIONS');
    await apiError(viewOnly.client.batch.submit([{ resource: 'ORDER', operation: 'DELETE', payload: { id: me.accountId } }]), 403, 'INSUFFICIENT_PERMISSIONS');
    await apiError(viewOnly.client.withdrawals.create({ currencySymbol: 'USD', quantity: dec('10'), fundsTransferMethodId: 'x' }), 403, 'INSUFFICIENT_PERMISSIONS');
    await apiError(viewOnly.client.subaccounts.create(), 403, 'INSUFFICIENT_PERMISSIONS');
    expect((await viewOnly.client.balances.get('USD')).total.toString()).toBe('1000');
    expect(await accountState(viewOnly.client)).toBe(viewState);

    const trader = await fx.account({ BTC: '1' }, ['view', 'trade']);
    const o = await trader.client.orders.create({ marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('90000') });
    await trader.client.orders.cancel(o.id);
    await apiError(trader.client.withdrawals.create({ currencySymbol: 'BTC', quantity: dec('0.5'), cryptoAddress: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' }), 403, 'INSUFFICIENT_PERMISSIONS');
  });

  it('verifies the signature over the exact target that arrived', async () => {
    const start = '2021-06-14T00:00:00Z';
    // ccxt signs query values unencoded (rawencode); characters legal in a query travel as they are.
    const ccxt = await fx.signed(me, 'GET', `/orders/closed?marketSymbol=BTC-USD&startDate=${start}&pageSize=5`);
    expect(ccxt.status, ccxt.text).toBe(200);
    // A value with a space and a quote goes on the wire percent-encoded; the signature over that target holds.
    const odd = `/orders/closed?marketSymbol=${encodeURIComponent('BTC "USD')}`;
    const r = await fx.signed(me, 'GET', odd);
    expect(r.status).not.toBe(401);
    expect(code(r)).toEqual({ status: 404, code: 'MARKET_DOES_NOT_EXIST' });
    // Signed over the decoded form but sent encoded: the server does not re-decode what arrived.
    const decoded = await fx.signed(me, 'GET', odd, { signUri: `${fx.origin}/v3/orders/closed?marketSymbol=BTC "USD` });
    expect(code(decoded)).toEqual({ status: 401, code: 'INVALID_SIGNATURE' });
    // Parameters are not re-ordered before verifying either.
    const r6 = await fx.signed(me, 'GET', '/orders/closed?pageSize=5&marketSymbol=BTC-USD', { signUri: `${fx.origin}/v3/orders/closed?marketSymbol=BTC-USD&pageSize=5` });
    expect(code(r6)).toEqual({ status: 401, code: 'INVALID_SIGNATURE' });
    // The client's own percent-encoding of dates (%3A) verifies too, and filters alike.
    const viaClient = await me.client.orders.listClosed({ startDate: new Date(start), marketSymbol: 'BTC-USD' });
    expect(viaClient.map((o) => o.id)).toEqual(ccxt.json.map((o: { id: string }) => o.id));
    expect(viaClient).toHaveLength(1);
  });
});
