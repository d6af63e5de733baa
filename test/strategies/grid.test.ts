import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { PlaceIntent } from '../../src/model/intent.js';
import grid, { gridLines } from '../../strategies/grid.js';
import { createStrategyHarness, testMarket } from '../helpers/strategy-harness.js';

const M = 'ETH-BTC';
const summary = (intents: unknown[]) =>
  (intents as PlaceIntent[]).map((i) => `${i.key} ${i.order.direction} ${i.order.limit!.toString()} x${i.order.quantity!.toString()}`);

async function harness(params: Record<string, unknown>, precision = 8) {
  return createStrategyHarness(grid, { markets: [M], params, marketInfo: [testMarket(M, { precision })] });
}

describe('grid example', () => {
  it('computes evenly spaced lines rounded to the precision', () => {
    expect(gridLines(dec(90), dec(110), 4).map(String)).toEqual(['90', '95', '100', '105', '110']);
    expect(gridLines(dec(1), dec(2), 3, 2).map(String)).toEqual(['1', '1.33', '1.67', '2']);
  });

  it('places buys below the mid and sells above it, once, on the first book', async () => {
    const h = await harness({ lower: '90', upper: '110', levels: 4, quantity: '1' });
    expect(h.take()).toEqual([]);
    h.setBook(M, [['99', '1']], [['101', '1']]); // mid 100: the 100 line stays empty
    expect(summary(h.take())).toEqual([`grid:${M}:0 BUY 90 x1`, `grid:${M}:1 BUY 95 x1`, `grid:${M}:3 SELL 105 x1`, `grid:${M}:4 SELL 110 x1`]);
    expect(h.last('place')!.order).toMatchObject({ type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED' });
    h.setBook(M, [['103', '1']], [['104', '1']]);
    expect(h.take()).toEqual([]); // the grid is static
  });

  it('re-places the opposite order one step away when a line fills', async () => {
    const h = await harness({ lower: '90', upper: '110', levels: 4, quantity: '1' });
    h.setBook(M, [['99', '1']], [['101', '1']]);
    h.take();
    // The 95 buy fills in two executions: the sell at 100 goes up after the second.
    h.fill({ intentKey: `grid:${M}:1`, direction: 'BUY', quantity: '0.4', rate: '95' });
    expect(h.take()).toEqual([]);
    h.fill({ intentKey: `grid:${M}:1`, direction: 'BUY', quantity: '0.6', rate: '95' });
    expect(summary(h.take())).toEqual([`grid:${M}:2 SELL 100 x1`]);
    // That sell fills: a buy at 95 again.
    h.fill({ intentKey: `grid:${M}:2`, direction: 'SELL', quantity: '1', rate: '100' });
    expect(summary(h.take())).toEqual([`grid:${M}:1 BUY 95 x1`]);
    // The top sell fills: a buy one step below it.
    h.fill({ intentKey: `grid:${M}:4`, direction: 'SELL', quantity: '1', rate: '110' });
    expect(summary(h.take())).toEqual([`grid:${M}:3 BUY 105 x1`]);
  });

  it('does nothing past the edges and ignores fills of other intents', async () => {
    const h = await harness({ lower: '90', upper: '110', levels: 4, quantity: '1' });
    h.setBook(M, [['99', '1']], [['101', '1']]);
    h.take();
    h.fill({ intentKey: `grid:${M}:0`, direction: 'SELL', quantity: '1', rate: '90' }); // below the grid
    h.fill({ intentKey: 'manual', direction: 'BUY', quantity: '1', rate: '95' });
    h.fill({ intentKey: `grid:OTHER-MKT:1`, marketSymbol: 'OTHER-MKT', direction: 'BUY', quantity: '1', rate: '95' });
    expect(h.take()).toEqual([]);
  });

  it('spans ±range around the first mid without bounds, post-only when asked', async () => {
    const h = await harness({ range: '0.1', levels: 2, quantity: '0.5', postOnly: true }, 2);
    h.setBook(M, [['49.5', '1']], [['50.5', '1']]); // mid 50: lines 45, 50, 55
    expect(summary(h.take())).toEqual([`grid:${M}:0 BUY 45 x0.5`, `grid:${M}:2 SELL 55 x0.5`]);
    expect(h.last('place')!.order.timeInForce).toBe('POST_ONLY_GOOD_TIL_CANCELLED');
  });

  it('validates its bounds', async () => {
    await expect(harness({ lower: '100' })).rejects.toThrow('params.lower: give both lower and upper, or neither');
    await expect(harness({ lower: '100', upper: '90' })).rejects.toThrow('params.lower: lower must be below upper');
  });
});
