import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { dustCheck } from '../../../src/risk/checks/dust.js';
import { checkCtx, codes, config, fixture, marketOrder, order } from '../fixture.js';

describe('dust check (50,000 satoshi minimum value)', () => {
  const fx = fixture();
  const ctx = checkCtx(fx);

  it('converts the quote value to BTC: 15 USD is exactly 0.0005 BTC at 30000', () => {
    expect(dustCheck.check(order({ quantity: dec('0.0005'), limit: dec('30000') }), ctx, config())).toEqual([]);
    expect(codes(dustCheck.check(order({ quantity: dec('0.00049'), limit: dec('30000') }), ctx, config()))).toEqual(['DUST']);
  });

  it('uses the value itself on BTC-quoted markets', () => {
    // 0.01 ETH at 0.05 = 0.0005 BTC passes; 0.0099 ETH does not.
    expect(dustCheck.check(order({ marketSymbol: 'ETH-BTC', quantity: dec('0.01'), limit: dec('0.05') }), ctx, config())).toEqual([]);
    expect(codes(dustCheck.check(order({ marketSymbol: 'ETH-BTC', quantity: dec('0.0099'), limit: dec('0.05') }), ctx, config()))).toEqual(['DUST']);
  });

  it('values a market order at the book it would take', () => {
    // 0.0004 BTC bought at the 30010 ask = 12.004 USD < 15 USD
    expect(codes(dustCheck.check(marketOrder('BUY', '0.0004'), ctx, config()))).toEqual(['DUST']);
  });

  it('follows the configured minimum', () => {
    expect(dustCheck.check(order({ quantity: dec('0.00049') }), ctx, config({ dustMinValueSatoshi: 1000 }))).toEqual([]);
  });

  it('follows the configured minimum when configs with different minimums alternate (the kept minimum is per value)', () => {
    const small = order({ quantity: dec('0.00049'), limit: dec('30000') }); // 14.7 USD = 0.00049 BTC
    for (let i = 0; i < 3; i++) {
      expect(codes(dustCheck.check(small, ctx, config()))).toEqual(['DUST']);
      expect(dustCheck.check(small, ctx, config({ dustMinValueSatoshi: 49_000 }))).toEqual([]);
      expect(codes(dustCheck.check(small, ctx, config({ dustMinValueSatoshi: 49_001 })))).toEqual(['DUST']);
    }
    expect(dustCheck.check(small, ctx, config())).toEqual([
      { code: 'DUST', message: 'order value 0.00049 BTC is below the 0.0005 BTC minimum' },
    ]);
  });

  it('skips when no rate links the quote currency to BTC', () => {
    const { btcValue: _b, ...noRates } = checkCtx(fx);
    expect(dustCheck.check(order({ quantity: dec('0.00001') }), noRates, config())).toEqual([]);
  });
});
