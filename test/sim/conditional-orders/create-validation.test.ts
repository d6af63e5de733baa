import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import type { NewConditionalOrder } from '../../../src/model/conditional-order.js';
import { badRequest } from '../../../src/sim/sim-error.js';
import { A, T0, marketSell, refusal, setup, stop } from './harness.js';

describe('creating a conditional order', () => {
  it('answers the OPEN conditional order, publishes it and lists it with the stream sequence', () => {
    const { co, events } = setup();
    const c = co.create(A, stop('90', { marketSymbol: 'btc-usd' }));
    expect(c).toMatchObject({ marketSymbol: 'BTC-USD', operand: 'LTE', status: 'OPEN' });
    expect(c.triggerPrice?.toString()).toBe('90');
    expect(c.createdAt.getTime()).toBe(T0);
    expect(c.orderToCreate).toEqual(marketSell());
    expect(c.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(events.map((e) => [e.accountId, e.sequence, e.delta.id, e.delta.status])).toEqual([[A, 1, c.id, 'OPEN']]);
    expect(co.get(A, c.id)).toEqual(c);
    expect(co.listOpen(A)).toEqual({ data: [c], sequence: 1 });
    expect(co.openSequence(A)).toBe(1);
    expect(co.listClosed(A)).toEqual([]);
  });

  it('answers copies: changing an answer never changes the stored order', () => {
    const { co } = setup();
    const c = co.create(A, stop('90'));
    c.status = 'CANCELLED';
    c.createdAt.setTime(0);
    expect(co.get(A, c.id).status).toBe('OPEN');
    expect(co.get(A, c.id).createdAt.getTime()).toBe(T0);
  });

  it('needs no orderToCreate (a pure alert that completes on trigger)', () => {
    const { co } = setup();
    const c = co.create(A, { marketSymbol: 'ETH-BTC', operand: 'GTE', triggerPrice: dec('0.07') });
    expect(c.orderToCreate).toBeUndefined();
  });

  const cases: Array<[string, Partial<NewConditionalOrder> | ((n: NewConditionalOrder) => NewConditionalOrder), number, string, string?]> = [
    ['unknown market', { marketSymbol: 'FOO-BAR' }, 404, 'MARKET_DOES_NOT_EXIST'],
    ['reversed market', { marketSymbol: 'USD-BTC' }, 400, 'MARKET_NAME_REVERSED'],
    ['operand missing', { operand: undefined as never }, 400, 'BAD_REQUEST', 'operand'],
    ['both trigger kinds', { trailingStopPercent: dec('5') }, 400, 'BAD_REQUEST', 'trailingStopPercent'],
    ['no trigger', { triggerPrice: undefined }, 400, 'BAD_REQUEST', 'triggerPrice'],
    ['zero trigger price', { triggerPrice: dec('0') }, 400, 'BAD_REQUEST', 'triggerPrice'],
    ['trailing 0 %', { triggerPrice: undefined, trailingStopPercent: dec('0') }, 400, 'BAD_REQUEST', 'trailingStopPercent'],
    ['trailing 100 %', { triggerPrice: undefined, trailingStopPercent: dec('100') }, 400, 'BAD_REQUEST', 'trailingStopPercent'],
    ['client id not a uuid', { clientConditionalOrderId: 'abc' }, 400, 'BAD_REQUEST', 'clientConditionalOrderId'],
    ['post-only inside', { orderToCreate: { ...marketSell(), type: 'LIMIT', limit: dec('80'), timeInForce: 'POST_ONLY_GOOD_TIL_CANCELLED' } }, 400, 'BAD_REQUEST', 'orderToCreate.timeInForce'],
    ['clientOrderId inside', { orderToCreate: { ...marketSell(), clientOrderId: '9f1c3b52-0000-4000-8000-000000000001' } }, 400, 'BAD_REQUEST', 'orderToCreate.clientOrderId'],
    ['useAwards inside', { orderToCreate: { ...marketSell(), useAwards: true } }, 400, 'BAD_REQUEST', 'orderToCreate.useAwards'],
    ['market order GTC', { orderToCreate: { ...marketSell(), timeInForce: 'GOOD_TIL_CANCELLED' } }, 400, 'INVALID_MARKET_ORDER'],
    ['limit on a market order', { orderToCreate: { ...marketSell(), limit: dec('80') } }, 400, 'INVALID_ORDER_TYPE'],
    ['quantity on a ceiling order', { orderToCreate: { ...marketSell(), type: 'CEILING_MARKET', ceiling: dec('100') } }, 400, 'INVALID_ORDER_TYPE'],
    ['ceiling GTC', { orderToCreate: { ...marketSell(), type: 'CEILING_LIMIT', quantity: undefined, ceiling: dec('100'), limit: dec('80'), timeInForce: 'GOOD_TIL_CANCELLED' } }, 400, 'INVALID_ORDER_TYPE'],
    ['ceiling market GTC', { orderToCreate: { ...marketSell(), type: 'CEILING_MARKET', quantity: undefined, ceiling: dec('100'), timeInForce: 'GOOD_TIL_CANCELLED' } }, 400, 'INVALID_MARKET_ORDER'],
    ['market order BUY_NOW', { orderToCreate: { ...marketSell(), timeInForce: 'BUY_NOW' } }, 400, 'INVALID_ORDER_TYPE'],
    ['quantity with 9 decimals', { orderToCreate: { ...marketSell(), quantity: dec('0.123456789') } }, 400, 'ORDER_TYPE_INVALID'],
    ['BUY_NOW limit', { orderToCreate: { ...marketSell(), type: 'LIMIT', limit: dec('80'), timeInForce: 'BUY_NOW' } }, 400, 'INVALID_ORDER_TYPE'],
    ['limit order without limit', { orderToCreate: { ...marketSell(), type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED' } }, 400, 'ORDER_TYPE_INVALID'],
    ['market order without quantity', { orderToCreate: { ...marketSell(), quantity: undefined } }, 400, 'ORDER_TYPE_INVALID'],
    ['negative quantity', { orderToCreate: { ...marketSell(), quantity: dec('-1') } }, 400, 'ORDER_TYPE_INVALID'],
    ['below minTradeSize', { orderToCreate: { ...marketSell(), quantity: dec('0.00001') } }, 400, 'MIN_TRADE_REQUIREMENT_NOT_MET'],
    ['limit too precise', { orderToCreate: { ...marketSell(), type: 'LIMIT', limit: dec('80.0001'), timeInForce: 'GOOD_TIL_CANCELLED' } }, 400, 'RATE_PRECISION_NOT_ALLOWED'],
    ['orderToCreate on an unknown market', { orderToCreate: marketSell('FOO-BTC') }, 404, 'MARKET_DOES_NOT_EXIST'],
    ['bad orderToCancel type', { orderToCancel: { type: 'WITHDRAWAL' as never, id: 'x' } }, 400, 'BAD_REQUEST', 'orderToCancel.type'],
  ];
  for (const [name, change, status, code, param] of cases) {
    it(`refuses ${name}: ${status} ${code}, with no change`, () => {
      const { co, events, orders } = setup();
      const n = typeof change === 'function' ? change(stop('90')) : { ...stop('90'), ...change };
      const err = refusal(() => co.create(A, n));
      expect([err.status, err.code]).toEqual([status, code]);
      if (param) expect(err.data).toEqual({ invalidRequestParameters: [param] });
      expect(events).toEqual([]);
      expect(co.listOpen(A)).toEqual({ data: [], sequence: 0 });
      expect(orders.calls).toEqual([]);
    });
  }

  it('refuses an OFFLINE market with 503 MARKET_OFFLINE', () => {
    const { co, catalog } = setup();
    catalog.setMarketStatus('BTC-USD', 'OFFLINE');
    const err = refusal(() => co.create(A, stop('90')));
    expect([err.status, err.code]).toEqual([503, 'MARKET_OFFLINE']);
    expect(refusal(() => co.create(A, stop('0.05', { marketSymbol: 'ETH-BTC', orderToCreate: marketSell() }))).code).toBe('MARKET_OFFLINE');
  });

  it("uses the order port's own validator for orderToCreate when it offers one", () => {
    const seen: string[] = [];
    const { co } = setup({
      validateOrder: (accountId, o) => {
        seen.push(`${accountId}:${o.type}`);
        if (o.direction === 'BUY') throw badRequest('INVALID_ORDER_TYPE', 'the engine says no');
      },
    });
    co.create(A, stop('90'));
    expect(seen).toEqual([`${A}:MARKET`]);
    expect(refusal(() => co.create(A, stop('90', { orderToCreate: { ...marketSell(), direction: 'BUY' } }))).detail).toBe('the engine says no');
    // The conditional-only restrictions still apply first.
    expect(refusal(() => co.create(A, stop('90', { orderToCreate: { ...marketSell(), useAwards: true } }))).code).toBe('BAD_REQUEST');
    expect(seen).toHaveLength(2);
  });
});
