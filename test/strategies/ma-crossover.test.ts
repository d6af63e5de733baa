import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { PlaceIntent } from '../../src/model/intent.js';
import maCrossover, { crossAtEnd } from '../../strategies/ma-crossover.js';
import { createStrategyHarness, flatCandle, HARNESS_EPOCH } from '../helpers/strategy-harness.js';

const M = 'ETH-BTC';
const MIN = 60_000;
/** Closes that keep the fast (2) average under the slow (3) one, then a jump that crosses it. */
const DOWN_THEN_UP = ['10', '10', '10', '9', '8', '12'];

describe('ma-crossover example', () => {
  it('crossAtEnd compares the averages at the last two points', () => {
    const p = (xs: string[]) => xs.map((x) => dec(x));
    expect(crossAtEnd(p(['10', '10', '10', '9', '8']), 2, 3)).toBeUndefined(); // below, and was below
    expect(crossAtEnd(p(DOWN_THEN_UP), 2, 3)).toBe('up'); // fast 10 > slow 9.67, was 8.5 < 9
    expect(crossAtEnd(p(['8', '9', '10', '11', '7']), 2, 3)).toBe('down');
    expect(crossAtEnd(p(['1', '2']), 2, 3)).toBeUndefined(); // not enough history
  });

  it('emits a MARKET buy on a golden cross of closed MINUTE_1 candles', async () => {
    const h = await createStrategyHarness(maCrossover, { markets: [M], params: { fast: 2, slow: 3, quantity: '0.5' } });
    DOWN_THEN_UP.forEach((close, i) => h.addCandles(M, 'MINUTE_1', [flatCandle(HARNESS_EPOCH + i * MIN, close)]));
    // The candle closing at 12 is still the forming one: no signal until it is finished.
    expect(h.take()).toEqual([]);
    // Trades update the forming candle: still nothing.
    h.addCandles(M, 'MINUTE_1', [flatCandle(HARNESS_EPOCH + 5 * MIN, '12.5')]);
    expect(h.take()).toEqual([]);
    // The next minute starts: the 12.5 candle is closed and the averages have crossed.
    h.addCandles(M, 'MINUTE_1', [flatCandle(HARNESS_EPOCH + 6 * MIN, '12.6')]);
    const intents = h.take();
    expect(intents).toEqual([
      {
        kind: 'place',
        key: `ma:${M}:${new Date(HARNESS_EPOCH + 5 * MIN).toISOString()}`,
        order: { marketSymbol: M, direction: 'BUY', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.5') },
      },
    ]);
    // More updates of the new forming candle do not repeat the signal.
    h.addCandles(M, 'MINUTE_1', [flatCandle(HARNESS_EPOCH + 6 * MIN, '13')]);
    expect(h.take()).toEqual([]);
  });

  it('sells what it holds on a death cross, and nothing when flat', async () => {
    const h = await createStrategyHarness(maCrossover, { markets: [M], params: { fast: 2, slow: 3, quantity: '1' } });
    const closes = ['8', '9', '10', '11', '7', '7'];
    h.addCandles(M, 'MINUTE_1', closes.map((c, i) => flatCandle(HARNESS_EPOCH + i * MIN, c)));
    expect(h.take()).toEqual([]); // flat: nothing to sell
    const h2 = await createStrategyHarness(maCrossover, { markets: [M], params: { fast: 2, slow: 3, quantity: '1' } });
    h2.setPosition(M, '0.3');
    h2.addCandles(M, 'MINUTE_1', closes.map((c, i) => flatCandle(HARNESS_EPOCH + i * MIN, c)));
    const [sell] = h2.take() as PlaceIntent[];
    expect(sell!.order).toMatchObject({ direction: 'SELL', type: 'MARKET' });
    expect(sell!.order.quantity!.toString()).toBe('0.3');
  });

  it('prices a LIMIT IOC from the touch with the slippage cap', async () => {
    const h = await createStrategyHarness(maCrossover, {
      markets: [M],
      params: { fast: 2, slow: 3, orderType: 'LIMIT', slippage: '0.01', quantity: '2' },
    });
    h.setBook(M, [['11.9', '5']], [['12.1', '5']]);
    h.addCandles(M, 'MINUTE_1', [...DOWN_THEN_UP, '12'].map((c, i) => flatCandle(HARNESS_EPOCH + i * MIN, c)));
    const [buy] = h.take() as PlaceIntent[];
    expect(buy!.order).toMatchObject({ direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL' });
    expect(buy!.order.limit!.toString()).toBe('12.221'); // best ask 12.1 × 1.01
  });

  it('states a target position in target mode (one key per market)', async () => {
    const h = await createStrategyHarness(maCrossover, { markets: [M], params: { fast: 2, slow: 3, mode: 'target', quantity: '4' } });
    h.addCandles(M, 'MINUTE_1', [...DOWN_THEN_UP, '12'].map((c, i) => flatCandle(HARNESS_EPOCH + i * MIN, c)));
    h.addCandles(M, 'MINUTE_1', [flatCandle(HARNESS_EPOCH + 7 * MIN, '1'), flatCandle(HARNESS_EPOCH + 8 * MIN, '1')]);
    expect(h.take()).toEqual([
      { kind: 'targetPosition', key: `ma:${M}`, marketSymbol: M, position: dec('4'), maxSlippage: dec('0.002') },
      { kind: 'targetPosition', key: `ma:${M}`, marketSymbol: M, position: dec('0'), maxSlippage: dec('0.002') },
    ]);
  });

  it('works from trades too', async () => {
    const h = await createStrategyHarness(maCrossover, { markets: [M], params: { fast: 2, slow: 3, source: 'trades', quantity: '1' } });
    h.addTrades(M, DOWN_THEN_UP.slice(0, 5).map((rate) => ({ rate })));
    expect(h.take()).toEqual([]);
    h.addTrades(M, [{ rate: '12', id: 'the-trade' }]);
    expect(h.take()).toMatchObject([{ kind: 'place', key: `ma:${M}:the-trade`, order: { direction: 'BUY' } }]);
  });

  it('refuses fast >= slow', async () => {
    await expect(createStrategyHarness(maCrossover, { params: { fast: 30, slow: 10 } })).rejects.toThrow(
      'invalid params: params.fast: fast must be smaller than slow',
    );
  });
});
