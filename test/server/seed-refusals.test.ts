/**
 * The seed's refusals that could not happen before (issue 14, item 9), over HTTP against the simulator server:
 * - ORDERBOOK_DEPTH: a market order whose walk would go beyond the market's price slippage limit is refused whole
 *   (409), nothing changes; within the limit it trades;
 * - CURRENCY_OFFLINE: the control API takes a currency offline; a withdrawal of it answers 503 CURRENCY_OFFLINE,
 *   and works again once it is back online.
 * (WHITELIST_VIOLATION_WITHDRAWAL_ADDRESS through the control API's switch: test/server/rest-funds.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { accountState, apiError, startFixture, type SimFixture, type TestAccount } from './sim-fixture.js';

const BTC_ADDR = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT';

describe('seed refusals over HTTP', () => {
  let fx: SimFixture;
  let maker: TestAccount;
  let me: TestAccount;
  beforeAll(async () => {
    fx = await startFixture();
    maker = await fx.account({ USD: '1000000', BTC: '10' });
    me = await fx.account({ USD: '1000000', BTC: '10' });
  });
  afterAll(async () => {
    await fx.close();
  });

  it('ORDERBOOK_DEPTH: a market buy that would walk beyond the 10 % slippage limit is refused whole', async () => {
    const ask = (quantity: string, limit: string) =>
      maker.client.orders.create({ marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec(quantity), limit: dec(limit) });
    await ask('0.5', '30000');
    await ask('0.5', '34000'); // 13 % above the best ask
    const buy = (quantity: string) => me.client.orders.create({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec(quantity) });
    const before = await accountState(me.client);
    await apiError(buy('0.8'), 409, 'ORDERBOOK_DEPTH');
    expect(await accountState(me.client)).toBe(before);
    const within = await buy('0.4');
    expect(within.fillQuantity.toFixed()).toBe('0.4');
  });

  it('CURRENCY_OFFLINE: a currency taken offline through the control API refuses withdrawals with 503', async () => {
    const off = await fx.control('POST', '/currencies/BTC/status', { status: 'OFFLINE' });
    expect([off.status, off.json]).toEqual([200, { symbol: 'BTC', status: 'OFFLINE' }]);
    const w = { currencySymbol: 'BTC', quantity: dec('0.1'), cryptoAddress: BTC_ADDR };
    await apiError(me.client.withdrawals.create(w), 503, 'CURRENCY_OFFLINE');
    expect((await fx.control('POST', '/currencies/BTC/status', { status: 'ONLINE' })).status).toBe(200);
    expect((await me.client.withdrawals.create(w)).status).toBe('REQUESTED');
    expect((await fx.control('POST', '/currencies/NOPE/status', { status: 'OFFLINE' })).status).toBe(404);
  });
});
