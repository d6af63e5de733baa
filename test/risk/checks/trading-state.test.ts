import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { tradingStateCheck } from '../../../src/risk/checks/trading-state.js';
import { checkCtx, codes, config, fixture, order } from '../fixture.js';

describe('trading-state check', () => {
  const fx = fixture();
  fx.fill('BUY', '0.5', '30000'); // s1 is long 0.5 BTC
  const increase = order({ direction: 'BUY', quantity: dec('0.1') });
  const reduce = order({ direction: 'SELL', quantity: dec('0.5'), reducesPosition: true });
  const run = (o: typeof increase, tradingState: 'ACTIVE' | 'REDUCING' | 'HALTED', cfg = config()) =>
    codes(tradingStateCheck.check(o, checkCtx(fx, { tradingState }), cfg));

  it('passes everything while ACTIVE', () => {
    expect(run(increase, 'ACTIVE')).toEqual([]);
  });
  it('lets only reducing orders through while REDUCING (TRADING_REDUCING)', () => {
    expect(run(increase, 'REDUCING')).toEqual(['TRADING_REDUCING']);
    expect(run(reduce, 'REDUCING')).toEqual([]);
  });
  it('denies risk-increasing orders while HALTED (TRADING_HALTED)', () => {
    expect(run(increase, 'HALTED')).toEqual(['TRADING_HALTED']);
    expect(run(reduce, 'HALTED')).toEqual([]);
    expect(run(reduce, 'HALTED', config({ haltedAllowsReducing: false }))).toEqual(['TRADING_HALTED']);
  });
  it('does not take a reducesPosition flag on trust', () => {
    // Selling more than the position would flip it short; buying adds to it; another strategy holds nothing.
    expect(run({ ...reduce, quantity: dec('0.6') }, 'REDUCING')).toEqual(['TRADING_REDUCING']);
    expect(run({ ...increase, reducesPosition: true }, 'REDUCING')).toEqual(['TRADING_REDUCING']);
    expect(run({ ...reduce, strategy: 's2' }, 'REDUCING')).toEqual(['TRADING_REDUCING']);
  });
});
