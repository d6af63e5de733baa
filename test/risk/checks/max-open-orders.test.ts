import { describe, expect, it } from 'vitest';
import { maxOpenOrdersCheck } from '../../../src/risk/checks/max-open-orders.js';
import { checkCtx, codes, config, fixture, marketOrder, order } from '../fixture.js';

describe('max-open-orders check', () => {
  it('denies a resting order at the limit (MAX_OPEN_ORDERS) and passes below it', () => {
    const fx = fixture();
    fx.openOrders.count = 1;
    expect(maxOpenOrdersCheck.check(order(), checkCtx(fx), config({ maxOpenOrders: 2 }))).toEqual([]);
    fx.openOrders.count = 2;
    expect(codes(maxOpenOrdersCheck.check(order(), checkCtx(fx), config({ maxOpenOrders: 2 })))).toEqual(['MAX_OPEN_ORDERS']);
  });

  it('passes immediate orders, which never rest', () => {
    const fx = fixture();
    fx.openOrders.count = 5;
    expect(maxOpenOrdersCheck.check(marketOrder('SELL', '1'), checkCtx(fx), config({ maxOpenOrders: 2 }))).toEqual([]);
    expect(maxOpenOrdersCheck.check(order({ timeInForce: 'FILL_OR_KILL' }), checkCtx(fx), config({ maxOpenOrders: 2 }))).toEqual([]);
  });
});
