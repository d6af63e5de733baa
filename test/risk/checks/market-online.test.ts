import { describe, expect, it } from 'vitest';
import { marketOnlineCheck } from '../../../src/risk/checks/market-online.js';
import { checkCtx, codes, config, fixture, order } from '../fixture.js';

describe('market-online check', () => {
  const fx = fixture();
  const run = (marketSymbol: string, allowedMarkets?: string[]) =>
    codes(marketOnlineCheck.check(order({ marketSymbol }), checkCtx(fx), config({ allowedMarkets })));

  it('passes an ONLINE known market', () => {
    expect(run('BTC-USD')).toEqual([]);
    expect(run('BTC-USD', ['BTC-USD', 'ETH-BTC'])).toEqual([]);
  });
  it('denies an unknown market (MARKET_UNKNOWN)', () => {
    expect(run('NOPE-USD')).toEqual(['MARKET_UNKNOWN']);
  });
  it('denies an OFFLINE market (MARKET_OFFLINE)', () => {
    expect(run('XRP-USD')).toEqual(['MARKET_OFFLINE']);
  });
  it('denies a market outside the allow-list (MARKET_NOT_PERMITTED), with every other reason', () => {
    expect(run('ETH-BTC', ['BTC-USD'])).toEqual(['MARKET_NOT_PERMITTED']);
    expect(run('XRP-USD', ['BTC-USD'])).toEqual(['MARKET_NOT_PERMITTED', 'MARKET_OFFLINE']);
  });
});
