/**
 * A trailing stop's operand is "set automatically when trailingStopPercent is given" (seed, NewConditionalOrder
 * table; issue 14, item 10): over HTTP, a trailing stop without operand is accepted with the operand its
 * orderToCreate implies (a SELL trails below the high and fires at or below it: LTE; a BUY: GTE). Without
 * trailingStopPercent, or without an orderToCreate to tell the way from, operand is still required (400).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type SimFixture, type TestAccount } from './sim-fixture.js';

describe('trailing stop operand', () => {
  let fx: SimFixture;
  let me: TestAccount;
  beforeAll(async () => {
    fx = await startFixture();
    me = await fx.account({ USD: '100000', BTC: '2' });
  });
  afterAll(async () => {
    await fx.close();
  });

  const order = (direction: 'BUY' | 'SELL') => ({ marketSymbol: 'BTC-USD', direction, type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: '0.01' });
  const post = (body: unknown) => fx.signed(me, 'POST', '/conditional-orders', { body: JSON.stringify(body) });

  it('is set from orderToCreate: SELL -> LTE, BUY -> GTE', async () => {
    const sell = await post({ marketSymbol: 'BTC-USD', trailingStopPercent: '5', orderToCreate: order('SELL') });
    expect(sell.status, sell.text).toBe(201);
    expect(sell.json.operand).toBe('LTE');
    const buy = await post({ marketSymbol: 'BTC-USD', trailingStopPercent: '5', orderToCreate: order('BUY') });
    expect(buy.status, buy.text).toBe(201);
    expect(buy.json.operand).toBe('GTE');
  });

  it('is still required with a trigger price, or with nothing to tell the way from', async () => {
    const fixed = await post({ marketSymbol: 'BTC-USD', triggerPrice: '20000', orderToCreate: order('SELL') });
    expect([fixed.status, fixed.json.code]).toEqual([400, 'BAD_REQUEST']);
    const bare = await post({ marketSymbol: 'BTC-USD', trailingStopPercent: '5' });
    expect([bare.status, bare.json.code]).toEqual([400, 'BAD_REQUEST']);
  });
});
