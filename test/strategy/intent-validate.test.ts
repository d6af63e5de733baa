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

  it('judges quotes as the field-by-field checks do (random ladders, valid and not)', () => {
    // The reference: each quote's rate, then its quantity, checked with the general rules and their messages.
    const reference = (side: string, list: unknown[]): { field: string; problem: RegExp } | undefined => {
      for (let i = 0; i < list.length; i++) {
        const q = list[i] as Record<string, unknown> | null;
        if (typeof q !== 'object' || q === null || Array.isArray(q)) return { field: `${side}[${i}]`, problem: /must be an object/ };
        for (const k of ['rate', 'quantity']) {
          const v = q[k];
          if (!(v instanceof Decimal) || !v.isFinite()) return { field: `${side}[${i}].${k}`, problem: /must be a finite Decimal/ };
          if (!v.gt(0)) return { field: `${side}[${i}].${k}`, problem: /greater than zero/ };
        }
      }
      return undefined;
    };
    const values: unknown[] = [dec('1'), dec('0.00000001'), dec('30000.5'), dec('0'), dec('-0'), dec('-1'), new Decimal(NaN), new Decimal(Infinity), 1, '1', undefined, null];
    let seed = 7; // mulberry32: a seeded sequence, the same at every run
    const rnd = (n: number): number => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
    };
    const quote = (): unknown => (rnd(10) === 0 ? [null, [], 'q'][rnd(3)] : { rate: values[rnd(rnd(2) === 0 ? 3 : values.length)], quantity: values[rnd(rnd(2) === 0 ? 3 : values.length)] });
    let invalid = 0;
    for (let n = 0; n < 2000; n++) {
      const bids = Array.from({ length: rnd(4) }, quote);
      const asks = Array.from({ length: rnd(4) }, quote);
      const want = reference('bids', bids) ?? reference('asks', asks);
      const got = intentProblem({ kind: 'quotes', key: 'k', marketSymbol: 'BTC-USD', bids, asks });
      if (want) invalid++;
      expect(got?.field, JSON.stringify({ bids, asks })).toBe(want?.field);
      if (want) expect(got?.problem).toMatch(want.problem);
    }
    expect(invalid).toBeGreaterThan(200);
    expect(invalid).toBeLessThan(1800);
  });
});
