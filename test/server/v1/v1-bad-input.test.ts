/**
 * Bad input on the v1.1 server answers what the service answered — HTTP 200, `success:false`, the message code
 * naming what is wrong — and changes nothing: no order, no withdrawal, balances as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hmacSha512Hex } from '../../../src/bittrex/rest/auth.js';
import { createFundedAccount } from '../../../src/server/control/control-api.js';
import { startV1World, type V1World } from './v1-harness.js';

describe('v1.1 bad input', () => {
  let w: V1World;
  let viewOnly: { apiKey: string; apiSecret: string };
  let nonce = Date.now();
  beforeAll(async () => {
    w = await startV1World();
    viewOnly = createFundedAccount(w.engine, { balances: { USD: '10' }, scopes: ['view'] });
  });
  afterAll(async () => {
    await w?.close();
  });

  type Opts = { key?: { apiKey: string; apiSecret: string }; noApikey?: boolean; noNonce?: boolean; sign?: 'none' | 'bad' | 'upper'; method?: string };
  async function call(path: string, query: string, o: Opts = {}): Promise<{ status: number; body: { success: boolean; message: string; result: unknown } }> {
    const key = o.key ?? w.user;
    const parts = [query, o.noApikey ? '' : `apikey=${key.apiKey}`, o.noNonce ? '' : `nonce=${nonce++}`].filter(Boolean);
    const url = `${w.sim.restV1Url}${path}?${parts.join('&')}`;
    const sig = hmacSha512Hex(key.apiSecret, url);
    const headers: Record<string, string> = {};
    if (o.sign !== 'none') headers.apisign = o.sign === 'bad' ? sig.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) : o.sign === 'upper' ? sig.toUpperCase() : sig;
    const res = await fetch(url, { method: o.method ?? 'GET', headers });
    return { status: res.status, body: (o.method === 'HEAD' ? {} : await res.json()) as never };
  }

  const huge = '9'.repeat(5000);
  const cases: [string, string, string, Opts, string][] = [
    ['unknown market (public)', '/public/getticker', 'market=USD-NOPE', {}, 'INVALID_MARKET'],
    ['v3 order market name', '/public/getmarketsummary', 'market=BTC-USD', {}, 'INVALID_MARKET'],
    ['malformed market', '/public/getorderbook', 'market=USDBTC&type=both', {}, 'INVALID_MARKET'],
    ['missing market', '/public/getmarkethistory', '', {}, 'MARKET_NOT_PROVIDED'],
    ['missing book type', '/public/getorderbook', 'market=USD-BTC', {}, 'TYPE_NOT_PROVIDED'],
    ['bad book type', '/public/getorderbook', 'market=USD-BTC&type=middle', {}, 'TYPE_INVALID'],
    ['unknown market (order)', '/market/buylimit', 'market=USD-NOPE&quantity=1&rate=1', {}, 'INVALID_MARKET'],
    ['missing quantity', '/market/buylimit', 'market=USD-BTC&rate=1', {}, 'QUANTITY_NOT_PROVIDED'],
    ['missing rate', '/market/selllimit', 'market=USD-BTC&quantity=0.01', {}, 'RATE_NOT_PROVIDED'],
    ['negative quantity', '/market/buylimit', 'market=USD-BTC&quantity=-1&rate=20000', {}, 'QUANTITY_INVALID'],
    ['zero rate', '/market/buylimit', 'market=USD-BTC&quantity=0.01&rate=0', {}, 'RATE_INVALID'],
    ['absurd exponent', '/market/buylimit', 'market=USD-BTC&quantity=1e400&rate=20000', {}, 'QUANTITY_INVALID'],
    ['huge number', '/market/buylimit', `market=USD-BTC&quantity=0.01&rate=${huge}`, {}, 'RATE_INVALID'],
    ['NaN', '/market/selllimit', 'market=USD-BTC&quantity=NaN&rate=20000', {}, 'QUANTITY_INVALID'],
    ['more than 8 decimals', '/market/buylimit', 'market=USD-BTC&quantity=0.012345678&rate=20000', {}, 'QUANTITY_INVALID'],
    ['unknown time in force', '/market/buylimit', 'market=USD-BTC&quantity=0.01&rate=20000&timeInForce=FOK', {}, 'INVALID_TIME_IN_FORCE'],
    ['not enough funds', '/market/buylimit', 'market=USD-BTC&quantity=100&rate=20000', {}, 'INSUFFICIENT_FUNDS'],
    ['below the minimum trade size', '/market/buylimit', 'market=USD-BTC&quantity=0.00000001&rate=20000', {}, 'MIN_TRADE_REQUIREMENT_NOT_MET'],
    ['deeply nested key', '/market/buylimit', `market${'[a]'.repeat(500)}=USD-BTC&quantity=0.01&rate=20000`, {}, 'MARKET_NOT_PROVIDED'],
    ['long string', '/market/cancel', `uuid=${'x'.repeat(3000)}`, {}, 'UUID_INVALID'],
    ['missing uuid', '/account/getorder', '', {}, 'UUID_NOT_PROVIDED'],
    ['unknown order', '/market/cancel', 'uuid=6f1b7f3e-0000-4000-8000-000000000000', {}, 'INVALID_ORDER'],
    ['missing currency', '/account/getbalance', '', {}, 'CURRENCY_NOT_PROVIDED'],
    ['unknown currency', '/account/getdepositaddress', 'currency=NOPE', {}, 'INVALID_CURRENCY'],
    ['withdraw without address', '/account/withdraw', 'currency=BTC&quantity=0.1', {}, 'ADDRESS_NOT_PROVIDED'],
    ['withdraw too much', '/account/withdraw', 'currency=BTC&quantity=5000&address=1BoatSLRHtKNngkdXEeobR76b53LETtpyT', {}, 'INSUFFICIENT_FUNDS'],
    ['withdraw fiat', '/account/withdraw', 'currency=USD&quantity=10&address=1BoatSLRHtKNngkdXEeobR76b53LETtpyT', {}, 'INVALID_CURRENCY'],
    ['bad signature', '/market/buylimit', 'market=USD-BTC&quantity=0.01&rate=20000', { sign: 'bad' }, 'INVALID_SIGNATURE'],
    ['no signature', '/account/getbalances', '', { sign: 'none' }, 'APISIGN_NOT_PROVIDED'],
    ['no apikey', '/account/getbalances', '', { noApikey: true }, 'APIKEY_NOT_PROVIDED'],
    ['no nonce', '/account/getbalances', '', { noNonce: true }, 'NONCE_NOT_PROVIDED'],
    ['unknown key', '/account/getbalances', '', { key: { apiKey: 'f'.repeat(32), apiSecret: 'x' } }, 'APIKEY_INVALID'],
    ['key without trade permission', '/market/buylimit', 'market=USD-BTC&quantity=0.01&rate=20000', { key: undefined as never }, 'INVALID_PERMISSION'],
    ['key without withdraw permission', '/account/withdraw', 'currency=USD&quantity=1&address=x', { key: undefined as never }, 'INVALID_PERMISSION'],
  ];

  it.each(cases)('%s: %s answers %s', async (_name, path, query, opts, message) => {
    const o = { ...opts };
    if ('key' in opts && opts.key === undefined) o.key = viewOnly;
    const before = { orders: w.engine.openOrders(w.user.accountId).data.length, balances: w.engine.funds.balances(w.user.accountId).data, withdrawals: w.engine.funds.openWithdrawals(w.user.accountId).length };
    const r = await call(path, query, o);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: false, message, result: null });
    expect(w.engine.openOrders(w.user.accountId).data.length).toBe(before.orders);
    expect(w.engine.funds.balances(w.user.accountId).data).toEqual(before.balances);
    expect(w.engine.funds.openWithdrawals(w.user.accountId)).toHaveLength(before.withdrawals);
  });

  it('accepts an upper-case signature (hex compared case-insensitively) and mixed-case paths', async () => {
    const r = await call('/account/getbalances', '', { sign: 'upper' });
    expect(r.body.success).toBe(true);
    const res = await fetch(`${w.sim.restV1Url}/Public/GetMarkets`);
    expect(((await res.json()) as { success: boolean }).success).toBe(true);
  });

  it('answers an unknown path 404 and another method 405, both in the v1.1 wrapper', async () => {
    const nf = await fetch(`${w.sim.restV1Url}/public/getnothing`);
    expect(nf.status).toBe(404);
    expect(await nf.json()).toEqual({ success: false, message: 'NOT_FOUND', result: null });
    const post = await fetch(`${w.sim.restV1Url}/public/getmarkets`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    expect(await post.json()).toEqual({ success: false, message: 'NOT_ALLOWED', result: null });
  });
});
