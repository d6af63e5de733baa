import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { maxNotionalCheck } from '../../../src/risk/checks/max-notional.js';
import { checkCtx, codes, config, fixture, marketOrder, order } from '../fixture.js';

describe('max-notional check', () => {
  const fx = fixture();
  const ctx = checkCtx(fx);
  const limits = config({ maxNotional: { default: dec('3000'), markets: { 'ETH-BTC': dec('1') } } });

  it('passes at the limit and denies above it (MAX_NOTIONAL)', () => {
    expect(maxNotionalCheck.check(order({ quantity: dec('0.1'), limit: dec('30000') }), ctx, limits)).toEqual([]);
    expect(codes(maxNotionalCheck.check(order({ quantity: dec('0.1'), limit: dec('30000.001') }), ctx, limits))).toEqual(['MAX_NOTIONAL']);
  });

  it('uses per-market overrides over the default', () => {
    expect(codes(maxNotionalCheck.check(order({ marketSymbol: 'ETH-BTC', quantity: dec('21'), limit: dec('0.05') }), ctx, limits))).toEqual(['MAX_NOTIONAL']);
    expect(maxNotionalCheck.check(order({ marketSymbol: 'ETH-BTC', quantity: dec('20'), limit: dec('0.05') }), ctx, limits)).toEqual([]);
  });

  it('values a market order by walking the book', () => {
    // 1 @30010 + 0.0995 @30020 = 32,996.99 USD
    expect(codes(maxNotionalCheck.check(marketOrder('BUY', '1.0995'), ctx, limits))).toEqual(['MAX_NOTIONAL']);
    expect(maxNotionalCheck.check(marketOrder('BUY', '0.09'), ctx, limits)).toEqual([]); // 2700.9 USD
  });

  it('denies an order it cannot value while a limit is set, and passes anything without a limit', () => {
    fx.book('ETH-BTC', [], []);
    expect(codes(maxNotionalCheck.check(marketOrder('BUY', '1', { marketSymbol: 'ETH-BTC' }), ctx, limits))).toEqual(['MAX_NOTIONAL']);
    expect(maxNotionalCheck.check(order({ quantity: dec('1000') }), ctx, config())).toEqual([]);
  });
});
