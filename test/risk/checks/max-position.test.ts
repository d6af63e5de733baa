import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { maxPositionCheck } from '../../../src/risk/checks/max-position.js';
import { checkCtx, codes, config, fixture, order } from '../fixture.js';

describe('max-position check', () => {
  const limits = config({ maxPosition: { default: dec('1'), markets: {} } });

  it('denies an order whose full fill would leave the position over the limit (MAX_POSITION)', () => {
    const fx = fixture();
    fx.fill('BUY', '0.8', '30000');
    expect(maxPositionCheck.check(order({ quantity: dec('0.2') }), checkCtx(fx), limits)).toEqual([]);
    expect(codes(maxPositionCheck.check(order({ quantity: dec('0.3') }), checkCtx(fx), limits))).toEqual(['MAX_POSITION']);
  });

  it('counts every strategy together, short positions included', () => {
    const fx = fixture();
    fx.fill('SELL', '0.5', '30000', { strategy: 'a' });
    fx.fill('SELL', '0.4', '30000', { strategy: 'b' });
    expect(codes(maxPositionCheck.check(order({ direction: 'SELL', quantity: dec('0.2') }), checkCtx(fx), limits))).toEqual(['MAX_POSITION']);
    expect(maxPositionCheck.check(order({ direction: 'BUY', quantity: dec('1.9') }), checkCtx(fx), limits)).toEqual([]); // -0.9 -> +1
  });

  it('passes an order that moves an over-limit position towards flat', () => {
    const fx = fixture();
    fx.fill('BUY', '3', '30000');
    expect(maxPositionCheck.check(order({ direction: 'SELL', quantity: dec('1') }), checkCtx(fx), limits)).toEqual([]);
    expect(codes(maxPositionCheck.check(order({ direction: 'SELL', quantity: dec('7') }), checkCtx(fx), limits))).toEqual(['MAX_POSITION']);
  });
});
