import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import type { NewOrder } from '../../../src/model/order.js';
import { type Harness, balances, refusal, setup } from './harness.js';

const ACCTS = ['lp', 'me'];

function funded(h: Harness = setup()) {
  for (const a of ACCTS) {
    h.fund(a, 'BTC', '1');
    h.fund(a, 'USD', '50000');
    h.fund(a, 'ETH', '10');
    h.fund(a, 'ADA', '10000');
    h.fund(a, 'USDT', '1000');
  }
  return h;
}

/** Assert `n` is refused with (status, code) and that nothing at all changed. */
function refused(h: Harness, n: Partial<NewOrder>, status: number, code: string, account = 'me') {
  const before = balances(h, ACCTS);
  const events = h.events.length;
  const e = refusal(() => h.place(account, n));
  expect({ status: e.status, code: e.code }).toEqual({ status, code });
  expect(balances(h, ACCTS)).toEqual(before);
  expect(h.events.length).toBe(events);
  return e;
}

const q = (quantity: string, limit?: string) => ({ quantity: dec(quantity), ...(limit ? { limit: dec(limit) } : {}) });

describe('order refusals (status, code, state unchanged)', () => {
  it('unknown, reversed and offline markets', () => {
    const h = funded();
    refused(h, { marketSymbol: 'DOGE-USD', ...q('1', '1') }, 404, 'MARKET_DOES_NOT_EXIST');
    refused(h, { marketSymbol: 'USD-BTC', ...q('0.01', '30000') }, 400, 'MARKET_NAME_REVERSED');
    h.catalog.setMarketStatus('BTC-USD', 'OFFLINE');
    refused(h, q('0.01', '30000'), 503, 'MARKET_OFFLINE');
  });

  it('conflicting options: INVALID_MARKET_ORDER and INVALID_ORDER_TYPE', () => {
    const h = funded();
    refused(h, { type: 'MARKET', timeInForce: 'GOOD_TIL_CANCELLED', ...q('0.01') }, 400, 'INVALID_MARKET_ORDER');
    refused(h, { type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', ...q('0.01', '30000') }, 400, 'INVALID_ORDER_TYPE');
    refused(h, { type: 'CEILING_MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.01'), ceiling: dec('100') }, 400, 'INVALID_ORDER_TYPE');
    refused(h, { type: 'LIMIT', ...q('0.01', '30000'), ceiling: dec('100') }, 400, 'INVALID_ORDER_TYPE');
    refused(h, { timeInForce: 'BUY_NOW', ...q('0.01', '30000') }, 400, 'INVALID_ORDER_TYPE');
    refused(h, { timeInForce: 'INSTANT', ...q('0.01', '30000') }, 400, 'INVALID_ORDER_TYPE');
  });

  it('malformed requests: ORDER_TYPE_INVALID', () => {
    const h = funded();
    refused(h, { limit: dec('30000') }, 400, 'ORDER_TYPE_INVALID'); // no quantity
    refused(h, { quantity: dec('0.01') }, 400, 'ORDER_TYPE_INVALID'); // LIMIT without limit
    refused(h, { type: 'CEILING_LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', limit: dec('30000') }, 400, 'ORDER_TYPE_INVALID');
    refused(h, { direction: 'UP' as 'BUY', ...q('0.01', '30000') }, 400, 'ORDER_TYPE_INVALID');
    refused(h, { type: 'STOP' as 'LIMIT', ...q('0.01', '30000') }, 400, 'ORDER_TYPE_INVALID');
    refused(h, q('-0.01', '30000'), 400, 'ORDER_TYPE_INVALID');
    refused(h, q('0.012345678', '30000'), 400, 'ORDER_TYPE_INVALID');
    refused(h, { ...q('0.01', '30000'), clientOrderId: 'not-a-uuid' }, 400, 'ORDER_TYPE_INVALID');
    refused(h, { marketSymbol: '', ...q('0.01', '30000') }, 400, 'ORDER_TYPE_INVALID');
  });

  it('RATE_PRECISION_NOT_ALLOWED for a limit finer than the market precision', () => {
    const h = funded();
    refused(h, q('0.01', '30000.1234'), 400, 'RATE_PRECISION_NOT_ALLOWED'); // BTC-USD precision 3
    expect(h.place('me', q('0.01', '30000.123')).status).toBe('OPEN');
  });

  it('MIN_TRADE_REQUIREMENT_NOT_MET below minTradeSize, also for a ceiling order', () => {
    const h = funded();
    refused(h, q('0.00005', '30000'), 400, 'MIN_TRADE_REQUIREMENT_NOT_MET'); // min 0.0000545
    refused(h, { type: 'CEILING_LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', ceiling: dec('1.5'), limit: dec('30000') }, 400, 'MIN_TRADE_REQUIREMENT_NOT_MET');
  });

  it('DUST_TRADE_DISALLOWED_MIN_VALUE below 50 000 satoshi, converted through the market linking the quote to BTC', () => {
    const h = funded();
    // BTC-quoted: 0.0015 ETH × 0.06 = 0.00009 BTC.
    refused(h, { marketSymbol: 'ETH-BTC', ...q('0.0015', '0.06') }, 400, 'DUST_TRADE_DISALLOWED_MIN_VALUE');
    expect(h.place('me', { marketSymbol: 'ETH-BTC', ...q('0.01', '0.06') }).status).toBe('OPEN');
    // USD-quoted: 20 USD is worth 0.00066 BTC at a last trade of 30000 ...
    h.place('lp', { direction: 'SELL', ...q('0.001', '30000') });
    h.place('me', { direction: 'BUY', timeInForce: 'IMMEDIATE_OR_CANCEL', ...q('0.001', '30000') });
    expect(h.place('me', q('0.0004', '50000')).status).toBe('OPEN');
    // ... but only 0.00033 BTC once BTC last traded at 60000.
    h.place('lp', { direction: 'SELL', ...q('0.001', '60000') });
    h.place('me', { direction: 'BUY', timeInForce: 'IMMEDIATE_OR_CANCEL', ...q('0.001', '60000') });
    refused(h, q('0.0004', '50000'), 400, 'DUST_TRADE_DISALLOWED_MIN_VALUE');
    // Ceiling orders: the ceiling is the value.
    refused(h, { type: 'CEILING_MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', ceiling: dec('10') }, 400, 'DUST_TRADE_DISALLOWED_MIN_VALUE');
  });

  it('DUST uses config.btcReferenceRates when no market price links the quote to BTC yet', () => {
    const h = funded();
    // ADA-USDT; BTC-USDT never traded: USDT at the configured 0.000025 BTC. 10 ADA × 0.2 = 2 USDT = 0.00005 BTC.
    refused(h, { marketSymbol: 'ADA-USDT', ...q('10', '0.2') }, 400, 'DUST_TRADE_DISALLOWED_MIN_VALUE');
    expect(h.place('me', { marketSymbol: 'ADA-USDT', ...q('100', '0.2') }).status).toBe('OPEN');
  });

  it('INSUFFICIENT_FUNDS for buys (incl. commission), sells, and market buys walking the book', () => {
    const h = funded();
    // 1.66 BTC × 30000 = 49800, + 0.35 % commission = 49974.3 ≤ 50000; 1.67 BTC is too much.
    refused(h, q('1.67', '30000'), 409, 'INSUFFICIENT_FUNDS');
    expect(h.place('me', q('1.66', '30000')).status).toBe('OPEN');
    refused(h, { direction: 'SELL', ...q('1.01', '40000') }, 409, 'INSUFFICIENT_FUNDS');
    h.place('lp', { direction: 'SELL', ...q('1', '30010') });
    refused(h, { type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.01') }, 409, 'INSUFFICIENT_FUNDS');
  });

  it('MAX_ORDERS_ALLOWED at config.maxOpenOrders', () => {
    const h = funded(setup({ maxOpenOrders: 2 }));
    h.place('me', q('0.01', '20000'));
    h.place('me', q('0.01', '20001'));
    refused(h, q('0.01', '20002'), 409, 'MAX_ORDERS_ALLOWED');
    expect(h.place('lp', q('0.01', '20002')).status).toBe('OPEN');
  });

  it('INSUFFICIENT_AWARDS with useAwards (no award credits in the simulator)', () => {
    const h = funded();
    refused(h, { ...q('0.01', '30000'), useAwards: true }, 409, 'INSUFFICIENT_AWARDS');
    expect(h.place('me', { ...q('0.01', '30000'), useAwards: false }).status).toBe('OPEN');
  });
});

describe('cancellation refusals', () => {
  it('404 NOT_FOUND for an unknown or another account\'s order, 409 ORDER_NOT_OPEN once closed', () => {
    const h = funded();
    const o = h.place('me', q('0.01', '30000'));
    expect(refusal(() => h.trading.cancelOrder('me', '00000000-0000-0000-0000-000000000000'))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(refusal(() => h.trading.cancelOrder('lp', o.id))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(refusal(() => h.trading.getOrder('lp', o.id))).toMatchObject({ status: 404 });
    const c = h.trading.cancelOrder('me', o.id.toUpperCase());
    expect(c.status).toBe('CLOSED');
    expect(c.closedAt?.getTime()).toBe(h.clock.now());
    expect(h.bal('me', 'USD').held.toFixed()).toBe('0');
    expect(refusal(() => h.trading.cancelOrder('me', o.id))).toMatchObject({ status: 409, code: 'ORDER_NOT_OPEN' });
  });

  it('cancelling on an OFFLINE market still works, so funds are never trapped', () => {
    const h = funded();
    const o = h.place('me', q('0.01', '30000'));
    h.catalog.setMarketStatus('BTC-USD', 'OFFLINE');
    expect(h.trading.cancelOrder('me', o.id).status).toBe('CLOSED');
  });
});
