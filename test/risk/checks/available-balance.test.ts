import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import type { ProposedOrder } from '../../../src/model/intent.js';
import { availableBalanceCheck } from '../../../src/risk/checks/available-balance.js';
import { checkCtx, codes, config, fixture, marketOrder, order } from '../fixture.js';

describe('available-balance check', () => {
  it('needs quote plus commission for a buy, minus what is in flight', () => {
    const fx = fixture();
    fx.balances.set('USD', dec('1000'));
    fx.inFlight.set('USD', dec('300'));
    const cfg = config({ commissionRate: dec('0.0075') });
    // 0.02325 BTC at 30000 = 697.5 + 5.23125 commission = 702.73125 > 700
    expect(codes(availableBalanceCheck.check(order({ quantity: dec('0.02325') }), checkCtx(fx), cfg))).toEqual(['INSUFFICIENT_BALANCE']);
    // 0.0231 at 30000 = 693 + 5.1975 = 698.1975 <= 700
    expect(availableBalanceCheck.check(order({ quantity: dec('0.0231') }), checkCtx(fx), cfg)).toEqual([]);
  });

  it('needs base for a sell', () => {
    const fx = fixture();
    fx.balances.set('BTC', dec('1'));
    fx.inFlight.set('BTC', dec('0.5'));
    expect(availableBalanceCheck.check(order({ direction: 'SELL', quantity: dec('0.5') }), checkCtx(fx), config())).toEqual([]);
    expect(codes(availableBalanceCheck.check(order({ direction: 'SELL', quantity: dec('0.50000001') }), checkCtx(fx), config()))).toEqual(['INSUFFICIENT_BALANCE']);
  });

  it('spends exactly the ceiling of a ceiling buy (commission is inside it)', () => {
    const fx = fixture();
    fx.balances.set('USD', dec('100'));
    const { quantity: _q, ...base } = order({ type: 'CEILING_LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL' });
    const ceiling = (c: string): ProposedOrder => ({ ...base, ceiling: dec(c) });
    expect(availableBalanceCheck.check(ceiling('100'), checkCtx(fx), config())).toEqual([]);
    expect(codes(availableBalanceCheck.check(ceiling('100.01'), checkCtx(fx), config()))).toEqual(['INSUFFICIENT_BALANCE']);
  });

  it('prices a market buy by walking the asks', () => {
    const fx = fixture();
    fx.balances.set('USD', dec('60100'));
    // 1 @30010 + 1 @30020 = 60030 (+0 commission) fits 60100; with 0.75 % it does not.
    expect(availableBalanceCheck.check(marketOrder('BUY', '2'), checkCtx(fx), config({ commissionRate: dec('0') }))).toEqual([]);
    expect(codes(availableBalanceCheck.check(marketOrder('BUY', '2'), checkCtx(fx), config()))).toEqual(['INSUFFICIENT_BALANCE']);
  });

  it('denies a market order it cannot value', () => {
    const fx = fixture();
    fx.book('BTC-USD', [], []);
    expect(codes(availableBalanceCheck.check(marketOrder('BUY', '0.1'), checkCtx(fx), config()))).toEqual(['INSUFFICIENT_BALANCE']);
  });
});
