/** mergeByTime: several readers' streams as one, in time order, ties in reader order, streaming. */
import { describe, expect, it } from 'vitest';
import { mergeByTime } from '../../backtest/run/merge-events.js';
import type { MarketEvent } from '../../backtest/readers/reader.js';
import { memoryReader } from './synthetic-events.js';

const tick = (market: string, at: number): MarketEvent => ({
  kind: 'ticker',
  at,
  marketSymbol: market,
  ticker: { symbol: market } as never,
  source: { file: market, line: at },
});

describe('mergeByTime', () => {
  it('merges by time; equal times keep the order of the readers; batches stay small', async () => {
    const a = memoryReader(() => [1, 3, 3, 7, 9].map((t) => tick('A', t)), 2);
    const b = memoryReader(() => [0, 3, 4, 9, 12].map((t) => tick('B', t)), 2);
    const out: string[] = [];
    let largest = 0;
    for await (const batch of mergeByTime([a, b], 3)) {
      largest = Math.max(largest, batch.length);
      for (const e of batch) out.push(`${e.marketSymbol}${e.at}`);
    }
    expect(out).toEqual(['B0', 'A1', 'A3', 'A3', 'B3', 'B4', 'A7', 'A9', 'B9', 'B12']);
    expect(largest).toBeLessThanOrEqual(3);
  });
});
