/** The intent shape check at the strategy boundary (src/model/intent-validate.ts): the first bad field, by path. */
import { describe, expect, it } from 'vitest';
import { Decimal, dec } from '../../src/core/decimal.js';
import { intentProblem } from '../../src/model/intent-validate.js';

const spec = { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('30000') };

describe('intentProblem', () => {
  it('accepts every well-formed intent kind', () => {
    const good: unknown[] = [
      { kind: 'place', key: 'k', order: spec },
      { kind: 'place', key: 'k', order: { ...spec, type: 'CEILING_MARKET', quantity: undefined, ceiling: dec('100'), limit: undefined, timeInForce: 'IMMEDIATE_OR_CANCEL' } },
      { kind: 'cancel', key: 'k', targetKey: 'other' },
      { kind: 'cancel', key: 'k', orderId: 'o1' },
      { kind: 'cancelAll', key: 'k' },
      { kind: 'cancelAll', key: 'k', marketSymbol: 'BTC-USD' },
      { kind: 'quotes', key: 'k', marketSymbol: 'BTC-USD', bids: [{ rate: dec('1'), quantity: dec('2') }], asks: [] },
      { kind: 'bracket', key: 'k', entry: spec, takeProfit: dec('33000'), stopLoss: dec('29000') },
      { kind: 'trailingStop', key: 'k', marketSymbol: 'BTC-USD', direction: 'SELL', quantity: dec('0.1'), trailingStopPercent: dec('1.5') },
      { kind: 'targetPosition', key: 'k', marketSymbol: 'BTC-USD', position: dec('0') },
      { kind: 'targetPosition', key: 'k', marketSymbol: 'BTC-USD', position: dec('-1'), maxSlippage: dec('0.005') },
    ];
    for (const i of good) expect(intentProblem(i), JSON.stringify(i)).toBeUndefined();
  });

  it('names the first bad field and what is wrong', () => {
    const bad: Array<[unknown, string, RegExp]> = [
      [null, 'intent', /must be an object, got null/],
      [{ kind: 'buy', key: 'k' }, 'kind', /must be one of place\|cancel/],
      [{ kind: 'place', key: '' }, 'key', /non-empty string/],
      [{ kind: 'place', key: 'k', order: { ...spec, direction: 'BYU' } }, 'order.direction', /must be one of BUY\|SELL, got "BYU"/],
      [{ kind: 'place', key: 'k', order: { ...spec, type: 'LIMT' } }, 'order.type', /got "LIMT"/],
      [{ kind: 'place', key: 'k', order: { ...spec, timeInForce: undefined } }, 'order.timeInForce', /got undefined/],
      [{ kind: 'place', key: 'k', order: { ...spec, quantity: 0.01 } }, 'order.quantity', /must be a finite Decimal \(dec\('…'\)\), got 0.01/],
      [{ kind: 'place', key: 'k', order: { ...spec, limit: dec('-1') } }, 'order.limit', /greater than zero, got -1/],
      [{ kind: 'place', key: 'k', order: { ...spec, quantity: new Decimal(NaN) } }, 'order.quantity', /finite Decimal/],
      [{ kind: 'place', key: 'k' }, 'order', /must be an object, got undefined/],
      [{ kind: 'cancel', key: 'k', orderId: 5 }, 'orderId', /non-empty string, got 5/],
      [{ kind: 'quotes', key: 'k', marketSymbol: 'BTC-USD', bids: [{ rate: dec('1'), quantity: dec('0') }], asks: [] }, 'bids[0].quantity', /greater than zero/],
      [{ kind: 'quotes', key: 'k', marketSymbol: 'BTC-USD', bids: [], asks: 'none' }, 'asks', /must be an array/],
      [{ kind: 'bracket', key: 'k', entry: spec, takeProfit: '33000', stopLoss: dec('1') }, 'takeProfit', /finite Decimal .*got "33000"/],
      [{ kind: 'trailingStop', key: 'k', marketSymbol: 'BTC-USD', direction: 'sell', quantity: dec('1'), trailingStopPercent: dec('1') }, 'direction', /got "sell"/],
      [{ kind: 'targetPosition', key: 'k', marketSymbol: 'BTC-USD', position: dec('1'), maxSlippage: dec('-0.1') }, 'maxSlippage', /must not be negative/],
    ];
    for (const [intent, field, problem] of bad) {
      const p = intentProblem(intent);
      expect(p?.field, JSON.stringify(intent)).toBe(field);
      expect(p?.problem).toMatch(problem);
    }
  });
});
