import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { precisionCheck } from '../../../src/risk/checks/precision.js';
import { checkCtx, codes, config, fixture, order } from '../fixture.js';

describe('precision check', () => {
  const fx = fixture();
  const ctx = checkCtx(fx);

  it('passes a limit within the market precision (3 on BTC-USD) and 8-dp amounts', () => {
    expect(precisionCheck.check(order({ limit: dec('30000.125'), quantity: dec('0.12345678') }), ctx, config())).toEqual([]);
  });

  it('rounds a bid down and an ask up (the passive side) under policy round', () => {
    const bid = precisionCheck.check(order({ direction: 'BUY', limit: dec('30000.12389') }), ctx, config());
    expect('order' in bid && bid.order.limit?.toString()).toBe('30000.123');
    const ask = precisionCheck.check(order({ direction: 'SELL', limit: dec('30000.12311') }), ctx, config());
    expect('order' in ask && ask.order.limit?.toString()).toBe('30000.124');
    expect(codes(ask)).toEqual([]);
  });

  it('rounds quantity and ceiling down to 8 decimals', () => {
    const q = precisionCheck.check(order({ quantity: dec('0.123456789') }), ctx, config());
    expect('order' in q && q.order.quantity?.toString()).toBe('0.12345678');
    const { quantity: _q, ...base } = order({ type: 'CEILING_LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL' });
    const c = precisionCheck.check({ ...base, ceiling: dec('100.000000019') }, ctx, config());
    expect('order' in c && c.order.ceiling?.toString()).toBe('100.00000001');
  });

  it('denies under policy deny, with a code per field', () => {
    const r = precisionCheck.check(order({ limit: dec('30000.1234'), quantity: dec('0.000000001') }), ctx, config({ precisionPolicy: 'deny' }));
    expect(codes(r)).toEqual(['RATE_PRECISION', 'QUANTITY_PRECISION']);
  });

  it('denies an amount that would round to zero even under policy round', () => {
    expect(codes(precisionCheck.check(order({ quantity: dec('0.000000001') }), ctx, config()))).toEqual(['QUANTITY_PRECISION']);
    expect(codes(precisionCheck.check(order({ limit: dec('0.0001') }), ctx, config()))).toEqual(['RATE_PRECISION']);
  });

  it('leaves unknown markets to market-online', () => {
    expect(precisionCheck.check(order({ marketSymbol: 'NOPE-USD', limit: dec('1.123456') }), ctx, config())).toEqual([]);
  });
});
