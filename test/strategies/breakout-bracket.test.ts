import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { BracketIntent } from '../../src/model/intent.js';
import breakout from '../../strategies/breakout-bracket.js';
import { candle, createStrategyHarness, flatCandle, HARNESS_EPOCH, testMarket } from '../helpers/strategy-harness.js';

const M = 'BTC-USD';
const MIN = 60_000;
const at = (i: number) => HARNESS_EPOCH + i * MIN;
/** Three finished candles with highs 100, 101, 102. */
const WINDOW = [
  candle(at(0), { open: 99, high: 100, low: 98, close: 99.5 }),
  candle(at(1), { open: 99.5, high: 101, low: 99, close: 100 }),
  candle(at(2), { open: 100, high: 102, low: 99, close: 101 }),
];

async function harness(params: Record<string, unknown> = {}, precision = 8) {
  return createStrategyHarness(breakout, {
    markets: [M],
    params: { lookback: 3, quantity: '0.25', ...params },
    marketInfo: [testMarket(M, { precision })],
  });
}

describe('breakout-bracket example', () => {
  it('emits a bracket when the price breaks the N-period high, with take-profit and stop-loss prices', async () => {
    const h = await harness();
    h.addCandles(M, 'MINUTE_1', WINDOW);
    h.addCandles(M, 'MINUTE_1', [candle(at(3), { open: 101, high: 102, low: 101, close: 102 })]); // at the high: no breakout
    expect(h.take()).toEqual([]);
    h.addCandles(M, 'MINUTE_1', [candle(at(3), { open: 101, high: 103, low: 101, close: 103 })]);
    const intents = h.take() as BracketIntent[];
    expect(intents).toHaveLength(1);
    const b = intents[0]!;
    expect(b.kind).toBe('bracket');
    expect(b.key).toBe(`breakout:${M}:${new Date(at(3)).toISOString()}`);
    expect(b.entry).toMatchObject({ marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL' });
    expect(b.entry.quantity!.toString()).toBe('0.25');
    expect(b.entry.limit!.toString()).toBe('103.103'); // 103 × (1 + 0.001)
    expect(b.takeProfit.toString()).toBe('105.06'); // 103 × 1.02
    expect(b.stopLoss.toString()).toBe('101.97'); // 103 × 0.99
  });

  it('rounds exits away from the entry and the entry cap down at the market precision', async () => {
    const h = await harness({ takeProfit: '0.015', stopLoss: '0.007', entrySlippage: '0.0015' }, 1);
    h.addCandles(M, 'MINUTE_1', [...WINDOW, flatCandle(at(3), '102.3')]);
    const b = h.last('bracket')!;
    expect(b.entry.limit!.toString()).toBe('102.4'); // 102.45345 down
    expect(b.takeProfit.toString()).toBe('103.9'); // 103.8345 up
    expect(b.stopLoss.toString()).toBe('101.5'); // 101.5839 down
  });

  it('gives one bracket per breakout: not again while the entry is in flight or the position is held', async () => {
    const h = await harness({ entryType: 'MARKET' });
    h.addCandles(M, 'MINUTE_1', [...WINDOW, flatCandle(at(3), '103')]);
    h.addCandles(M, 'MINUTE_1', [flatCandle(at(3), '104')]); // same candle, higher
    const [first] = h.take() as BracketIntent[];
    expect(first!.entry).toMatchObject({ type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL' });
    expect(first!.entry.limit).toBeUndefined();
    // Next candle breaks out too, but the entry has not settled yet.
    h.addCandles(M, 'MINUTE_1', [flatCandle(at(4), '105')]);
    expect(h.take()).toEqual([]);
    // The entry fills and closes: now we hold the position, still no new bracket.
    h.fill({ intentKey: first!.key, direction: 'BUY', quantity: '0.25', rate: '103' });
    h.emit({ type: 'closed', strategy: 'breakout-bracket', intentKey: first!.key, clientOrderId: 'c', order: {} as never, at: 0 });
    h.addCandles(M, 'MINUTE_1', [flatCandle(at(5), '106')]);
    expect(h.take()).toEqual([]);
    // The take-profit sold it: flat again, the next breakout trades.
    h.fill({ intentKey: first!.key, direction: 'SELL', quantity: '0.25', rate: '105.06' });
    h.addCandles(M, 'MINUTE_1', [flatCandle(at(6), '107')]);
    expect(h.take().map((i) => i.key)).toEqual([`breakout:${M}:${new Date(at(6)).toISOString()}`]);
  });

  it('a denied entry frees the strategy for the next breakout', async () => {
    const h = await harness();
    h.addCandles(M, 'MINUTE_1', [...WINDOW, flatCandle(at(3), '103')]);
    const [first] = h.take();
    h.emit({ type: 'denied', strategy: 'breakout-bracket', intentKey: first!.key, reasons: [{ code: 'MAX_NOTIONAL', message: 'too big' }], at: 0 });
    h.addCandles(M, 'MINUTE_1', [flatCandle(at(4), '104')]);
    expect(h.take()).toHaveLength(1);
  });

  it('waits for a full lookback window', async () => {
    const h = await harness({ lookback: 5 });
    h.addCandles(M, 'MINUTE_1', [...WINDOW, flatCandle(at(3), '200')]);
    expect(h.take()).toEqual([]);
    expect(h.runner.status).toBe('running');
    expect(dec(h.ctx.portfolio.position(M)).isZero()).toBe(true);
  });
});
