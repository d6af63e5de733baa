import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import type { ProposedOrder } from '../../../src/model/intent.js';
import { minTradeSizeCheck } from '../../../src/risk/checks/min-trade-size.js';
import { checkCtx, codes, config, fixture, order } from '../fixture.js';

describe('min-trade-size check', () => {
  const fx = fixture();
  const ctx = checkCtx(fx);
  const small = order({ quantity: dec('0.00005') }); // BTC-USD minimum 0.0001

  it('passes an order at the minimum', () => {
    expect(minTradeSizeCheck.check(order({ quantity: dec('0.0001') }), ctx, config())).toEqual([]);
  });

  it('denies a smaller order by default (MIN_TRADE_SIZE)', () => {
    expect(codes(minTradeSizeCheck.check(small, ctx, config()))).toEqual(['MIN_TRADE_SIZE']);
  });

  it('rounds the quantity up to the minimum under policy round', () => {
    const r = minTradeSizeCheck.check(small, ctx, config({ minTradeSizePolicy: 'round' }));
    expect('order' in r && r.order.quantity?.toString()).toBe('0.0001');
  });

  it('scales a ceiling order up to buy the minimum, rounded up to 8 decimals', () => {
    const { quantity: _q, ...base } = order({ type: 'CEILING_LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', limit: dec('30000') });
    const ceilingOrder: ProposedOrder = { ...base, ceiling: dec('1.5') }; // 0.00005 BTC
    expect(codes(minTradeSizeCheck.check(ceilingOrder, ctx, config()))).toEqual(['MIN_TRADE_SIZE']);
    const r = minTradeSizeCheck.check(ceilingOrder, ctx, config({ minTradeSizePolicy: 'round' }));
    expect('order' in r && r.order.ceiling?.toString()).toBe('3');
  });

  it('never rounds up an order that reduces a position (it could flip it)', () => {
    expect(codes(minTradeSizeCheck.check({ ...small, reducesPosition: true }, ctx, config({ minTradeSizePolicy: 'round' })))).toEqual(['MIN_TRADE_SIZE']);
  });
});
