import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { priceBandCheck } from '../../../src/risk/checks/price-band.js';
import { checkCtx, codes, config, fixture, lvl, marketOrder, order } from '../fixture.js';

describe('price-band check', () => {
  const band = config({ priceBand: dec('0.05') }); // mid 30000: 28500 .. 31500

  it('passes limits within the band on both sides and denies beyond it (PRICE_BAND)', () => {
    const ctx = checkCtx(fixture());
    expect(priceBandCheck.check(order({ limit: dec('31500') }), ctx, band)).toEqual([]);
    expect(priceBandCheck.check(order({ direction: 'SELL', limit: dec('28500') }), ctx, band)).toEqual([]);
    expect(codes(priceBandCheck.check(order({ limit: dec('31500.001') }), ctx, band))).toEqual(['PRICE_BAND']);
    expect(codes(priceBandCheck.check(order({ direction: 'SELL', limit: dec('28499') }), ctx, band))).toEqual(['PRICE_BAND']);
  });

  it('uses the far side of the book for market orders', () => {
    const fx = fixture();
    fx.book('BTC-USD', [lvl('1', '29990'), lvl('1', '27000')], [lvl('1', '30010'), lvl('1', '33000')]);
    expect(priceBandCheck.check(marketOrder('BUY', '1'), checkCtx(fx), band)).toEqual([]);
    // Buying 1.5 reaches the 33000 level: 10 % above the mid.
    expect(codes(priceBandCheck.check(marketOrder('BUY', '1.5'), checkCtx(fx), band))).toEqual(['PRICE_BAND']);
    expect(codes(priceBandCheck.check(marketOrder('SELL', '1.5'), checkCtx(fx), band))).toEqual(['PRICE_BAND']);
    // More than the book holds.
    expect(codes(priceBandCheck.check(marketOrder('SELL', '3'), checkCtx(fx), config({ priceBand: dec('0.5') })))).toEqual(['PRICE_BAND']);
  });

  it('denies without a mid, and is off when the band is unset', () => {
    const fx = fixture();
    fx.book('BTC-USD', [lvl('1', '29990')], []);
    expect(codes(priceBandCheck.check(order(), checkCtx(fx), band))).toEqual(['PRICE_BAND']);
    expect(priceBandCheck.check(order({ limit: dec('1') }), checkCtx(fixture()), config({ priceBand: undefined }))).toEqual([]);
  });
});
